"""The built-in functions every game may use, registered in ``BUILTINS``.

Each one checks what it is given and raises ``EvalError`` in the language's own words.
Functions passed in (``key``) are lambdas; results are fresh lists, inputs are never changed.
"""
from __future__ import annotations

import math
from typing import Any, Callable

from .. import limits
from ..errors import EvalError
from .ops import (
    SEQUENCES,
    as_function,
    check_length,
    checked_number,
    is_number,
    show,
    text_of,
    truth,
)
from .registry import Param, Registry
from .types import (
    ANY,
    BOOL,
    FUNC,
    INT,
    NUMBER,
    STR,
    ListOf,
    MapOf,
    OneOf,
    Type,
    element_type,
    join_all,
    type_of_value,
)
from .wild import register_wild

LIST = ListOf(ANY)
NUMBERS = ListOf(NUMBER)
MAP = MapOf(ANY, ANY)


# --- return-type rules -------------------------------------------------------------------

# Each rule's docstring is how the documentation names the result.

def _same_as_first(types: list[Type]) -> Type:
    """the type of its first argument"""
    return types[0]


def _element_of_first(types: list[Type]) -> Type:
    """an item of xs"""
    return element_type(types[0])


def _number_like_elements(types: list[Type]) -> Type:
    """int for a list of ints, else number"""
    return INT if element_type(types[0]) == INT else NUMBER


def _extreme_type(types: list[Type]) -> Type:
    """an item"""
    return element_type(types[0]) if len(types) == 1 else join_all(types)


def _counts_type(types: list[Type]) -> Type:
    """map of item to int"""
    return MapOf(element_type(types[0]), INT)


def _keys_type(types: list[Type]) -> Type:
    """list of the keys"""
    return ListOf(types[0].key if isinstance(types[0], MapOf) else ANY)


def _values_type(types: list[Type]) -> Type:
    """list of the values"""
    return ListOf(types[0].value if isinstance(types[0], MapOf) else ANY)


def _flattened_type(types: list[Type]) -> Type:
    """list of the inner items"""
    inner = element_type(types[0])
    return inner if isinstance(inner, ListOf) else LIST


# --- helpers -----------------------------------------------------------------------------

def _sequence(name: str, value: Any) -> Any:
    if not isinstance(value, SEQUENCES):
        raise EvalError(f"{name}() needs a list, got {type_of_value(value)}")
    return value


def _non_empty(name: str, value: Any) -> Any:
    if not _sequence(name, value):
        raise EvalError(f"{name}() of an empty list")
    return value


def _number(name: str, value: Any) -> Any:
    if not is_number(value):
        raise EvalError(f"{name}() needs a number, got {type_of_value(value)}")
    return value


def _integer(name: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise EvalError(f"{name}() needs an int, got {type_of_value(value)}")
    return value


def _ordered(name: str, items: list, key: Callable | None = None) -> list:
    try:
        return sorted(items, key=key)
    except TypeError:
        raise EvalError(f"{name}() cannot order values of different kinds") from None


def _tally(items: Any) -> dict:
    tally: dict = {}
    for item in items:
        tally[item] = tally.get(item, 0) + 1
    return tally


# --- implementations ---------------------------------------------------------------------

def _len(value: Any) -> int:
    if not isinstance(value, (list, tuple, dict, str)):
        raise EvalError(f"len() needs a list, map or str, got {type_of_value(value)}")
    return len(value)


def _sum(xs: Any) -> Any:
    total = 0
    for x in _sequence("sum", xs):
        total += _number("sum", x)
    return checked_number(total)


def _product(xs: Any) -> Any:
    result = 1
    for x in _sequence("product", xs):
        result = checked_number(result * _number("product", x))
    return result


def _extreme(name: str, pick: Callable) -> Callable:
    def impl(*values: Any) -> Any:
        items = values[0] if len(values) == 1 and isinstance(values[0], SEQUENCES) else values
        if not items:
            raise EvalError(f"{name}() of an empty list")
        try:
            return pick(items)
        except TypeError:
            raise EvalError(f"{name}() cannot compare values of different kinds") from None
    return impl


def _abs(x: Any) -> Any:
    return abs(_number("abs", x))


def _count(xs: Any, value: Any) -> int:
    return sum(1 for x in _sequence("count", xs) if x == value)


def _sorted_by(xs: Any, key: Any) -> list:
    return _ordered("sorted_by", list(_sequence("sorted_by", xs)), as_function(key))


def _unique(xs: Any) -> list:
    out: list = []
    seen: set = set()
    for x in _sequence("unique", xs):
        try:
            if x in seen:
                continue
            seen.add(x)
        except TypeError:  # unhashable (a list): compare with what was kept so far
            if x in out:
                continue
        out.append(x)
    return out


def _any(xs: Any) -> bool:
    return any(truth(x, "each item of any()") for x in _sequence("any", xs))


def _all(xs: Any) -> bool:
    return all(truth(x, "each item of all()") for x in _sequence("all", xs))


def _range(low: Any, high: Any) -> list:
    low, high = _integer("range", low), _integer("range", high)
    check_length(high - low, "range")
    return list(range(low, high))


def _by(name: str, pick: Callable) -> Callable:
    def impl(xs: Any, key: Any) -> Any:
        key = as_function(key)
        items = _non_empty(name, xs)
        keys = [key(x) for x in items]
        try:
            best = pick(range(len(items)), key=keys.__getitem__)  # the first of equal keys wins
        except TypeError:
            raise EvalError(f"{name}() cannot compare values of different kinds") from None
        return items[best]
    return impl


def _sum_by(xs: Any, key: Any) -> Any:
    key = as_function(key)
    return _sum([key(x) for x in _sequence("sum_by", xs)])


def _counts(xs: Any) -> dict:
    return _tally(_sequence("counts", xs))


def _mapping(name: str, m: Any) -> dict:
    if not isinstance(m, dict):
        raise EvalError(f"{name}() needs a map, got {type_of_value(m)}")
    return m


def _rounded(name: str, how: Callable) -> Callable:
    def impl(x: Any) -> int:
        return checked_number(how(_number(name, x)))
    return impl


def _round_half_up(x: float) -> int:
    """Halves round away from zero, as people round (2.5 -> 3, -2.5 -> -3)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def _int(x: Any) -> int:
    if isinstance(x, str):
        digits = x.strip()
        if not (digits.lstrip("+-").isdigit() and digits.isascii()) or len(digits) > limits.MAX_INT_DIGITS + 1:
            raise EvalError(f"int() cannot convert {show(x)}")
        return checked_number(int(digits))
    return checked_number(int(_number("int", x)))


def _join(xs: Any, sep: Any = "") -> str:
    if not isinstance(sep, str):
        raise EvalError(f"join() needs a str separator, got {type_of_value(sep)}")
    pieces = [x if isinstance(x, str) else text_of(x) for x in _sequence("join", xs)]
    check_length(sum(map(len, pieces)) + len(sep) * max(0, len(pieces) - 1), "string", "characters")
    return sep.join(pieces)


def _index_of(xs: Any, value: Any) -> int:
    items = _sequence("index_of", xs)
    for i, x in enumerate(items):
        if x == value:
            return i
    raise EvalError(f"index_of(): {show(value)} is not in the list")


def _without(xs: Any, ys: Any) -> list:
    remove = _tally(_sequence("without", ys))
    out = []
    for x in _sequence("without", xs):
        if remove.get(x, 0) > 0:
            remove[x] -= 1
        else:
            out.append(x)
    return out


def _is_subset(xs: Any, ys: Any) -> bool:
    have = _tally(_sequence("is_subset", ys))
    need = _tally(_sequence("is_subset", xs))
    return all(have.get(x, 0) >= n for x, n in need.items())


def _flatten(xss: Any) -> list:
    out: list = []
    for xs in _sequence("flatten", xss):
        out.extend(_sequence("flatten", xs))
        check_length(len(out))
    return out


# --- the registry ------------------------------------------------------------------------

def _register_all(r: Registry) -> Registry:
    xs, key = Param("xs", LIST), Param("key", FUNC)
    r.register("len", [Param("x", OneOf(LIST, MAP, STR))], INT, "Number of items in a list or map, or characters in a string.",
               _len, example="len([3, 5, 5]) → 3")
    r.register("sum", [Param("xs", NUMBERS)], _number_like_elements, "Sum of a list of numbers (0 for an empty list).",
               _sum, example="sum([1, 2, 3]) → 6")
    r.register("product", [Param("xs", NUMBERS)], _number_like_elements, "Product of a list of numbers (1 for an empty list).",
               _product, example="product([2, 3, 4]) → 24")
    r.register("min", [Param("values")], _extreme_type, "Smallest item of a list, or smallest of several arguments.",
               _extreme("min", min), variadic=True, example="min([4, 2, 6]) → 2")
    r.register("max", [Param("values")], _extreme_type, "Largest item of a list, or largest of several arguments.",
               _extreme("max", max), variadic=True, example="max(3, 8, 5) → 8")
    r.register("abs", [Param("x", NUMBER)], _same_as_first, "Absolute value of a number.", _abs, example="abs(-4) → 4")
    r.register("count", [xs, Param("value")], INT, "How many items of a list equal a value.",
               _count, example="count([6, 1, 6], 6) → 2")
    r.register("counts", [xs], _counts_type, "Map from each distinct item to how often it occurs.",
               _counts, example='counts(["a", "b", "a"]) → {"a": 2, "b": 1}')
    r.register("sorted", [xs], _same_as_first, "The items in ascending order.",
               lambda v: _ordered("sorted", list(_sequence("sorted", v))), example="sorted([3, 1, 2]) → [1, 2, 3]")
    r.register("sorted_by", [xs, key], _same_as_first, "The items in ascending order of key(item); ties keep their order.",
               _sorted_by, applies_to=0, example='sorted_by(["ccc", "a", "bb"], s => len(s)) → ["a", "bb", "ccc"]')
    r.register("reversed", [xs], _same_as_first, "The items in reverse order.",
               lambda v: list(reversed(_sequence("reversed", v))), example="reversed([1, 2, 3]) → [3, 2, 1]")
    r.register("unique", [xs], _same_as_first, "The items without repeats, keeping first occurrences.",
               _unique, example="unique([3, 1, 3, 2, 1]) → [3, 1, 2]")
    r.register("any", [Param("xs", ListOf(BOOL))], BOOL, "True when at least one item is true.",
               _any, example="any(d == 6 for d in [1, 6, 3]) → true", decided_by=True)
    r.register("all", [Param("xs", ListOf(BOOL))], BOOL, "True when every item is true (also for an empty list).",
               _all, example="all(d > 2 for d in [3, 4]) → true", decided_by=False)
    r.register("range", [Param("start", INT), Param("stop", INT)], ListOf(INT),
               "The ints from start up to, but not including, stop.", _range, example="range(2, 5) → [2, 3, 4]")
    r.register("first", [xs], _element_of_first, "The first item of a non-empty list.",
               lambda v: _non_empty("first", v)[0], example="first([7, 8, 9]) → 7")
    r.register("last", [xs], _element_of_first, "The last item of a non-empty list.",
               lambda v: _non_empty("last", v)[-1], example="last([7, 8, 9]) → 9")
    r.register("max_by", [xs, key], _element_of_first, "The first item with the largest key(item).",
               _by("max_by", max), applies_to=0, example='max_by(["bb", "a", "cc"], s => len(s)) → "bb"')
    r.register("min_by", [xs, key], _element_of_first, "The first item with the smallest key(item).",
               _by("min_by", min), applies_to=0, example='min_by(["bb", "a", "c"], s => len(s)) → "a"')
    r.register("sum_by", [xs, key], NUMBER, "Sum of key(item) over the items.",
               _sum_by, applies_to=0, example="sum_by([1, 2, 3], d => d * 10) → 60")
    r.register("keys", [Param("m", MAP)], _keys_type,
               "The keys of a map, in insertion order.", lambda m: list(_mapping("keys", m)),
               example='keys({"a": 1, "b": 2}) → ["a", "b"]')
    r.register("values", [Param("m", MAP)], _values_type,
               "The values of a map, in insertion order.", lambda m: list(_mapping("values", m).values()),
               example='values({"a": 1, "b": 2}) → [1, 2]')
    r.register("floor", [Param("x", NUMBER)], INT, "The largest int not above x.",
               _rounded("floor", math.floor), example="floor(2.7) → 2")
    r.register("ceil", [Param("x", NUMBER)], INT, "The smallest int not below x.",
               _rounded("ceil", math.ceil), example="ceil(2.1) → 3")
    r.register("round", [Param("x", NUMBER)], INT, "The nearest int; halves round away from zero.",
               _rounded("round", _round_half_up), example="round(2.5) → 3")
    r.register("int", [Param("x", OneOf(NUMBER, STR))], INT, "A number without its fraction, or the int a string spells.",
               _int, example='int("42") → 42')
    r.register("str", [Param("x")], STR, "A value written as text.", text_of, example='str(12) → "12"')
    r.register("join", [Param("xs", LIST), Param("sep", STR, optional=True)], STR,
               "The items written as text, with sep between them.", _join, example='join(["a", "b"], "-") → "a-b"')
    r.register("index_of", [xs, Param("value")], INT, "Position of the first item equal to value (an error if absent).",
               _index_of, example="index_of([4, 5, 6], 5) → 1")
    r.register("without", [xs, Param("ys", LIST)], _same_as_first,
               "xs with one occurrence removed for each item of ys (multiset difference).",
               _without, example="without([1, 1, 2, 3], [1, 3]) → [1, 2]")
    r.register("is_subset", [xs, Param("ys", LIST)], BOOL,
               "True when ys holds every item of xs, as many times (multiset inclusion).",
               _is_subset, example="is_subset([1, 1], [1, 2, 1]) → true")
    r.register("flatten", [Param("xss", ListOf(LIST))], _flattened_type, "The items of several lists, in one list.",
               _flatten, example="flatten([[1, 2], [3]]) → [1, 2, 3]")
    register_wild(r)
    return r


BUILTINS = _register_all(Registry())
