"""The types the lean engine gives values, finer than the checker's where it must be: a card, a
seat and a zone are plain ints at run time, so generated code must know, wherever one may
appear, that it is one.

- ``PLAIN`` kinds (``int``, ``num``, ``str``, ``bool``, ``none``) are Python's own values;
- ``CARD`` is a card's id, ``SEAT`` a seat's index, ``Zone(name)`` a pile's number within its
  zone (the zone is known where the value is);
- ``ListT``, ``MapT`` hold them; ``Opt`` is a value or none; ``DYN`` is a plain value whose kind
  is not known (never a card, a seat or a zone); ``EMPTY`` the items of an empty list.

``join`` gives the type that covers two; a join that would mix a card, seat or zone with
anything but none is ``None``: the game cannot be generated (``Unsupported``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Unsupported(Exception):
    """A construct the lean engine does not generate: the game runs on the reference engine, for
    the reason given (``rules show`` prints it)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class LType:
    kind: str

    def __str__(self) -> str:
        return self.kind


INT = LType("int")
NUM = LType("num")          # an int or a float
STR = LType("str")
BOOL = LType("bool")
NONE = LType("none")
CARD = LType("card")
SEAT = LType("seat")
DYN = LType("dyn")          # a plain value of unknown kind
EMPTY = LType("empty")      # the items of an empty list: joins with anything
FUNC = LType("function")


@dataclass(frozen=True)
class Zone(LType):
    """A pile of the zone ``name``, as its number within the zone; a pile of any zone (``name``
    None: ``ANY_ZONE``), as its place (``zone index << 14 | pile``)."""
    name: str | None = ""

    def __init__(self, name: str | None):
        object.__setattr__(self, "kind", f"zone {name}" if name else "zone")
        object.__setattr__(self, "name", name)


ANY_ZONE = Zone(None)


@dataclass(frozen=True)
class ListT(LType):
    elem: LType = EMPTY

    def __init__(self, elem: LType):
        object.__setattr__(self, "kind", f"list of {elem}")
        object.__setattr__(self, "elem", elem)


@dataclass(frozen=True)
class MapT(LType):
    key: LType = EMPTY
    value: LType = EMPTY

    def __init__(self, key: LType, value: LType):
        object.__setattr__(self, "kind", f"map of {key} to {value}")
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "value", value)


@dataclass(frozen=True)
class Opt(LType):
    """A value of ``of`` or none."""
    of: LType = DYN

    def __init__(self, of: LType):
        object.__setattr__(self, "kind", f"{of} or none")
        object.__setattr__(self, "of", of)


PLAIN = (INT, NUM, STR, BOOL, NONE, DYN)
OBJECTS = (CARD, SEAT)


def is_object(t: LType) -> bool:
    """A card, a seat or a zone: an int at run time that is not a number."""
    return t in OBJECTS or isinstance(t, Zone)


def holds_objects(t: LType) -> bool:
    """Whether a value of ``t`` is, or holds, a card, a seat or a zone."""
    return holds(t, is_object)


def holds(t: LType, test: Any) -> bool:
    """Whether ``t``, or a type it holds (a list's items, a map's keys or values, what a value or
    none may be), passes ``test``."""
    if isinstance(t, Opt):
        return holds(t.of, test)
    if isinstance(t, ListT):
        return holds(t.elem, test)
    if isinstance(t, MapT):
        return holds(t.key, test) or holds(t.value, test)
    return test(t)


def strip(t: LType) -> LType:
    """The type without its none: ``Opt(t)`` -> ``t``."""
    return t.of if isinstance(t, Opt) else t


def nullable(t: LType) -> LType:
    if t in (NONE, DYN, EMPTY) or isinstance(t, Opt):
        return t
    return Opt(t)


def join(a: LType, b: LType) -> LType | None:
    """The type of a value that is one of ``a`` or ``b``; None when no type the lean engine
    keeps covers both (a card or a seat beside another kind)."""
    if a == b:
        return a
    if a == EMPTY:
        return b
    if b == EMPTY:
        return a
    if a == NONE:
        return nullable(b)
    if b == NONE:
        return nullable(a)
    if isinstance(a, Opt) or isinstance(b, Opt):
        inner = join(strip(a), strip(b))
        return None if inner is None else nullable(inner)
    if {a, b} == {INT, NUM}:
        return NUM
    if isinstance(a, ListT) and isinstance(b, ListT):
        inner = join(a.elem, b.elem)
        return None if inner is None else ListT(inner)
    if isinstance(a, MapT) and isinstance(b, MapT):
        key, value = join(a.key, b.key), join(a.value, b.value)
        return None if key is None or value is None else MapT(key, value)
    if isinstance(a, Zone) and isinstance(b, Zone):
        return ANY_ZONE
    if holds_objects(a) or holds_objects(b):
        return None
    return DYN


def join_all(types: list[LType], empty: LType = EMPTY) -> LType | None:
    result: LType | None = empty
    for t in types:
        result = None if result is None else join(result, t)
    return result


def element(t: LType) -> LType:
    """The type of the items met when looping over a value of ``t``."""
    t = strip(t)
    if isinstance(t, ListT):
        return t.elem
    if isinstance(t, MapT):
        return t.key
    if t == STR:
        return STR
    return DYN


def numeric(t: LType) -> bool:
    return strip(t) in (INT, NUM) or t == DYN
