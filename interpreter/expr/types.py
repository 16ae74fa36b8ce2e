"""Static types, used to catch mistakes at load time "where knowable".

``ANY`` is compatible with everything, so an expression whose types cannot be known is simply
checked at run time. Host objects (cards, zones, players...) are described by ``ObjectType``:
a name and a table of members, each with its own getter. Member access never looks a
user-supplied name up on a Python object: it goes through these tables only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .function_values import FunctionValue


@dataclass(frozen=True)
class Type:
    name: str

    def __str__(self) -> str:
        return self.name


INT = Type("int")
NUMBER = Type("number")          # int or float
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none")
ANY = Type("any")
FUNC = Type("function")
_NUMERIC = (INT, NUMBER)


@dataclass(frozen=True)
class ListOf(Type):
    elem: Type = ANY

    def __init__(self, elem: Type = ANY):
        object.__setattr__(self, "name", f"list of {elem}")
        object.__setattr__(self, "elem", elem)


@dataclass(frozen=True)
class MapOf(Type):
    key: Type = ANY
    value: Type = ANY

    def __init__(self, key: Type = ANY, value: Type = ANY):
        object.__setattr__(self, "name", f"map of {key} to {value}")
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "value", value)


@dataclass(frozen=True)
class OneOf(Type):
    """A parameter that accepts any of several types, e.g. ``len`` of a list, map or str."""

    options: tuple[Type, ...] = ()

    def __init__(self, *options: Type):
        names = [_short(o) for o in options]
        object.__setattr__(self, "name", ", ".join(names[:-1]) + " or " + names[-1])
        object.__setattr__(self, "options", options)


@dataclass(frozen=True)
class Member:
    """One member of a host object type: its type and how to read it from the object."""

    type: Type
    get: Callable[[Any], Any]
    doc: str = ""


@dataclass(frozen=True)
class ObjectType(Type):
    members: dict[str, Member] = field(default_factory=dict, compare=False, hash=False)

    def __init__(self, name: str, members: dict[str, Member] | None = None):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "members", dict(members or {}))


def _short(t: Type) -> str:
    """``list`` rather than ``list of any`` when naming the options of a parameter."""
    if isinstance(t, ListOf) and t.elem == ANY:
        return "list"
    if isinstance(t, MapOf) and t.key == ANY and t.value == ANY:
        return "map"
    return t.name


def is_numeric(t: Type) -> bool:
    return t in _NUMERIC


def compatible(actual: Type, wanted: Type) -> bool:
    """Can a value of static type ``actual`` be used where ``wanted`` is needed?"""
    if actual == ANY or wanted == ANY:
        return True
    if isinstance(wanted, OneOf):
        return any(compatible(actual, option) for option in wanted.options)
    if is_numeric(actual) and is_numeric(wanted):
        return True  # NUMBER may hold an int at run time; the operation itself checks
    if isinstance(actual, ListOf) and isinstance(wanted, ListOf):
        return compatible(actual.elem, wanted.elem)
    if isinstance(actual, MapOf) and isinstance(wanted, MapOf):
        return compatible(actual.key, wanted.key) and compatible(actual.value, wanted.value)
    return actual == wanted


def join(a: Type, b: Type) -> Type:
    """The most precise type that covers both (the type of ``if c then a else b``)."""
    if a == b:
        return a
    if is_numeric(a) and is_numeric(b):
        return NUMBER
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        return ListOf(join(a.elem, b.elem))
    return ANY


def join_all(types: list[Type], empty: Type = ANY) -> Type:
    if not types:
        return empty
    result = types[0]
    for t in types[1:]:
        result = join(result, t)
    return result


def element_type(t: Type) -> Type:
    """The type of the items met when iterating over a value of type ``t``."""
    if isinstance(t, ListOf):
        return t.elem
    if isinstance(t, MapOf):
        return t.key
    if t == STR:
        return STR
    return ANY


def is_iterable(t: Type) -> bool:
    return t in (ANY, STR) or isinstance(t, (ListOf, MapOf))


def type_of_value(value: Any) -> str:
    """The language's name for the type of a run-time value, for error messages."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "map"
    if isinstance(value, FunctionValue):
        return "function"
    object_type = object_type_of(value)
    return object_type.name if object_type else type(value).__name__


# Host classes whose instances expressions may read members from, when the static type is ANY.
OBJECT_TYPES: dict[type, ObjectType] = {}


def register_object_type(pyclass: type, object_type: ObjectType) -> None:
    """Declare the members that expressions may read from instances of ``pyclass``."""
    OBJECT_TYPES[pyclass] = object_type


def object_type_of(value: Any) -> ObjectType | None:
    for cls in type(value).__mro__:
        if cls in OBJECT_TYPES:
            return OBJECT_TYPES[cls]
    return None
