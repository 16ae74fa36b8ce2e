"""Wild cards that match within a set: ``set_value``, the common value a set of items makes when
some of them (the wild ones) may stand for any value."""
from __future__ import annotations

from typing import Any

from ..errors import EvalError
from .ops import SEQUENCES, as_function, truth
from .registry import Param, Registry
from .types import ANY, FUNC, ListOf, type_of_value


def set_value(xs: Any, is_wild: Any, value_of: Any, all_wild: Any = None) -> Any:
    """The value v that every item has, the wild items standing for v; none when two items
    differ, when an item (not wild) has the value none, or when the list is empty or holds none;
    ``all_wild`` when every item is wild."""
    if not isinstance(xs, SEQUENCES):
        raise EvalError(f"set_value() needs a list, got {type_of_value(xs)}")
    if not xs or any(x is None for x in xs):
        return None
    is_wild, value_of = as_function(is_wild), as_function(value_of)
    values = [value_of(x) for x in xs if not truth(is_wild(x), "is_wild of set_value()")]
    if not values:
        return all_wild
    first = values[0]
    if first is None or any(v != first for v in values[1:]):
        return None
    return first


def register_wild(r: Registry) -> None:
    r.register("set_value", [Param("xs", ListOf(ANY)), Param("is_wild", FUNC), Param("value_of", FUNC),
                             Param("all_wild", ANY, optional=True)], ANY,
               "The value every item has, wild items standing for it; none if any differ or the list is empty "
               "(all_wild, default none, when every item is wild).",
               set_value, applies_to=0, example="set_value([5, 0, 5], x => x == 0, x => x) → 5")
