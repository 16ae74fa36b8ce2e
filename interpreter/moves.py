"""Moves as values, their short text notation, and the enumeration of parameter choices."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from .errors import EvalError
from .limits import MAX_COLLECTION
from .values import Card, Seat, ZoneRef


@dataclass(frozen=True)
class Move:
    """A move a seat may play: its name, its argument values, and its text notation."""

    seat: int
    name: str
    args: tuple
    text: str

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict:
        return {"seat": self.seat, "move": self.text}


def notation(name: str, args: tuple) -> str:
    """``throw 2 5 5``: the move's name then each argument; a none argument is left out."""
    words = [name] + [show(a) for a in args if a is not None]
    return " ".join(w for w in words if w != "")


def show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(show(v) for v in value)
    if isinstance(value, (Card, Seat, ZoneRef)):
        return str(value)
    return str(value)


def sub_collections(values: list) -> list[list]:
    """Every distinct non-empty sub-collection of ``values`` (repeats count as often as they
    occur), smallest first."""
    distinct: list = []
    counts: list[int] = []
    for value in values:
        if value in distinct:
            counts[distinct.index(value)] += 1
        else:
            distinct.append(value)
            counts.append(1)
    total = 1
    for c in counts:
        total *= c + 1
    if total > MAX_COLLECTION:
        raise EvalError(f"subset_of: {total} choices is more than the limit of {MAX_COLLECTION}")
    subsets = []
    for picks in itertools.product(*(range(c + 1) for c in counts)):
        chosen = [v for v, k in zip(distinct, picks) for _ in range(k)]
        if chosen:
            subsets.append(sorted(chosen, key=order_key))
    return sorted(subsets, key=lambda s: (len(s), [order_key(v) for v in s]))


def order_key(value: Any) -> tuple:
    """A sort key that orders numbers, texts, cards and lists of them without mixing types badly."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, (int, float)):
        return (2, value)
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, Card):
        return (4, value.id)
    if isinstance(value, Seat):
        return (5, value.index)
    if isinstance(value, (list, tuple)):
        return (6, len(value), tuple(order_key(v) for v in value))
    return (7, str(value))
