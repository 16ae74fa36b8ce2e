"""Run-time operations with the language's own rules, limits and error messages.

Each raises ``EvalError`` (or ``LimitError``) without a position; the compiled node that
called it adds its own position. Lists may arrive as tuples from the host; results are lists.
"""
from __future__ import annotations

from typing import Any, TypeVar

from .. import limits
from ..errors import EvalError, LimitError
from .types import OBJECT_TYPES as object_types
from .types import object_type_of, type_of_value
from .function_values import FunctionValue

SEQUENCES = (list, tuple)
Number = TypeVar("Number", bound=float)     # an int or a float: checked_number gives back its own


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def checked_number(value: Number) -> Number:
    if value > limits.MAX_INT or value < -limits.MAX_INT:
        raise LimitError(f"number too large: magnitude over {limits.MAX_INT}")
    return value


def checked_size(items: list, what: str = "list") -> list:
    if len(items) > limits.MAX_COLLECTION:
        raise LimitError(f"{what} too long: {len(items)} elements (limit {limits.MAX_COLLECTION})")
    return items


def check_length(length: int, what: str = "list", unit: str = "elements") -> None:
    if length > limits.MAX_COLLECTION:
        raise LimitError(f"{what} too long: {length} {unit} (limit {limits.MAX_COLLECTION})")


def show(value: Any) -> str:
    """A short rendering of a value for an error message."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    if value is None or isinstance(value, bool):
        return {None: "none", True: "true", False: "false"}[value]
    if is_number(value):
        return str(value)
    return type_of_value(value)


def truth(value: Any, what: str) -> bool:
    if value is True or value is False:
        return value
    raise EvalError(f"{what} must be a bool, got {type_of_value(value)}")


def _mismatch(verb: str, a: Any, b: Any) -> EvalError:
    return EvalError(f"cannot {verb} {type_of_value(a)} and {type_of_value(b)}")


def add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int or is_number(a) and is_number(b):
        return checked_number(a + b)
    if isinstance(a, str) and isinstance(b, str):
        check_length(len(a) + len(b), "string", "characters")
        return a + b
    if isinstance(a, SEQUENCES) and isinstance(b, SEQUENCES):
        check_length(len(a) + len(b))
        return [*a, *b]
    raise _mismatch("add", a, b)


def _numbers(verb: str, a: Any, b: Any) -> None:
    if not (type(a) is int and type(b) is int or is_number(a) and is_number(b)):
        raise _mismatch(verb, a, b)


def subtract(a: Any, b: Any) -> Any:
    _numbers("subtract", a, b)
    return checked_number(a - b)


def multiply(a: Any, b: Any) -> Any:
    _numbers("multiply", a, b)
    return checked_number(a * b)


def divide(a: Any, b: Any) -> Any:
    """``/``: an int when the division is exact, else a float."""
    _numbers("divide", a, b)
    if b == 0:
        raise EvalError("division by zero")
    if isinstance(a, int) and isinstance(b, int) and a % b == 0:
        return checked_number(a // b)
    return checked_number(a / b)


def floor_divide(a: Any, b: Any) -> Any:
    _numbers("divide", a, b)
    if b == 0:
        raise EvalError("division by zero")
    return checked_number(a // b)


def modulo(a: Any, b: Any) -> Any:
    _numbers("take the remainder of", a, b)
    if b == 0:
        raise EvalError("division by zero")
    return checked_number(a % b)


ARITHMETIC = {"+": add, "-": subtract, "*": multiply, "/": divide, "//": floor_divide, "%": modulo}


def negate(a: Any) -> Any:
    if not is_number(a):
        raise EvalError(f"cannot negate {type_of_value(a)}")
    return -a


def _orderable(a: Any, b: Any) -> bool:
    return ((is_number(a) and is_number(b)) or (isinstance(a, str) and isinstance(b, str))
            or (isinstance(a, SEQUENCES) and isinstance(b, SEQUENCES)))


def _ordering(test):
    def compare(a: Any, b: Any) -> bool:
        if type(a) is int and type(b) is int:   # the common case, first and fast
            return test(a, b)
        if not _orderable(a, b):
            raise EvalError(f"cannot compare {type_of_value(a)} and {type_of_value(b)}")
        return test(a, b)
    return compare


def contains(item: Any, container: Any) -> bool:
    if isinstance(container, str):
        if not isinstance(item, str):
            raise EvalError(f"cannot look for {type_of_value(item)} in a str")
        return item in container
    if isinstance(container, (list, tuple, dict)):
        return item in container
    raise EvalError(f"'in' needs a list, map or str on its right, got {type_of_value(container)}")


COMPARISONS = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": _ordering(lambda a, b: a < b),
    "<=": _ordering(lambda a, b: a <= b),
    ">": _ordering(lambda a, b: a > b),
    ">=": _ordering(lambda a, b: a >= b),
    "in": contains,
    "not in": lambda a, b: not contains(a, b),
}


def index(obj: Any, key: Any) -> Any:
    if isinstance(obj, dict):
        if key not in obj:
            raise EvalError(f"no key {show(key)} in map")
        return obj[key]
    if isinstance(obj, (list, tuple, str)):
        if not isinstance(key, int) or isinstance(key, bool):
            raise EvalError(f"an index must be an int, got {type_of_value(key)}")
        if not -len(obj) <= key < len(obj):
            raise EvalError(f"index {key} out of range for a {type_of_value(obj)} of length {len(obj)}")
        return obj[key]
    raise EvalError(f"cannot index {type_of_value(obj)}")


def slice_of(obj: Any, low: Any, high: Any) -> Any:
    if not isinstance(obj, (list, tuple, str)):
        raise EvalError(f"cannot slice {type_of_value(obj)}")
    for bound in (low, high):
        if bound is not None and (not isinstance(bound, int) or isinstance(bound, bool)):
            raise EvalError(f"a slice bound must be an int, got {type_of_value(bound)}")
    part = obj[low:high]
    return list(part) if isinstance(part, tuple) else part


def member_reader(name: str):
    """A reader of ``obj.name`` for values whose type was not known statically: a host object's
    member is read straight from its type's table, anything else through ``member``."""
    def read(obj: Any) -> Any:
        object_type = object_types.get(type(obj))
        if object_type is not None:
            found = object_type.members.get(name)
            if found is not None:
                return found.get(obj)
        return member(obj, name)
    return read


def member(obj: Any, name: str) -> Any:
    """``obj.name`` on a value whose type was not known statically."""
    if isinstance(obj, dict):
        if name not in obj:
            raise EvalError(f"no key '{name}' in map")
        return obj[name]
    object_type = object_type_of(obj)
    if object_type is not None and name in object_type.members:
        return object_type.members[name].get(obj)
    raise EvalError(f"{type_of_value(obj)} has no member '{name}'")


def inclusive_range(low: Any, high: Any) -> list[int]:
    for bound in (low, high):
        if not isinstance(bound, int) or isinstance(bound, bool):
            raise EvalError(f"the ends of a range must be ints, got {type_of_value(bound)}")
    check_length(high - low + 1, "range")
    return list(range(low, high + 1))


def map_key(key: Any) -> Any:
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise EvalError(f"map keys must be strings or ints, got {type_of_value(key)}")
    return key


def iterable(value: Any) -> Any:
    if isinstance(value, (list, tuple, dict, str)):
        return value
    raise EvalError(f"cannot loop over {type_of_value(value)}")


def as_function(value: Any) -> FunctionValue:
    if not isinstance(value, FunctionValue):
        raise EvalError(f"expected a function, got {type_of_value(value)}")
    return value


def text_of(value: Any) -> str:
    """How ``str()`` and ``join()`` write a value: language literals, bounded in length."""
    parts: list[str] = []
    _write(value, parts, 0, [0])
    return "".join(parts)


def _write(value: Any, parts: list[str], depth: int, length: list[int]) -> None:
    if depth > limits.MAX_EXPR_DEPTH:
        raise LimitError(f"value nested too deeply to write (more than {limits.MAX_EXPR_DEPTH} levels)")
    if isinstance(value, SEQUENCES):
        _put("[", parts, length)
        for i, item in enumerate(value):
            _put(", " if i else "", parts, length)
            _write(item, parts, depth + 1, length)
        _put("]", parts, length)
    elif isinstance(value, dict):
        _put("{", parts, length)
        for i, (key, item) in enumerate(value.items()):
            _put(", " if i else "", parts, length)
            _write(key, parts, depth + 1, length)
            _put(": ", parts, length)
            _write(item, parts, depth + 1, length)
        _put("}", parts, length)
    elif isinstance(value, str):
        _put(value if depth == 0 else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"', parts, length)
    elif value is None or isinstance(value, bool) or is_number(value):
        _put(show(value), parts, length)
    else:
        _put(str(value), parts, length)


def _put(piece: str, parts: list[str], length: list[int]) -> None:
    length[0] += len(piece)
    check_length(length[0], "string", "characters")
    parts.append(piece)
