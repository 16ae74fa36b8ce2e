"""Moves as values, their short text notation, and the enumeration of parameter choices."""
from __future__ import annotations

import functools
import itertools
from typing import Any

from ..errors import EvalError
from ..limits import MAX_COLLECTION
from .values import Card, Seat

# Distinct collections of plain values (dice...) whose sub-collections are kept: they come back often.
SUB_COLLECTION_CACHE = 4096


class Move:
    """A move a seat may play: its name, its argument values, and its text notation.

    Treated as immutable. A plain class with slots, not a frozen dataclass: moves are made by
    the thousand while legal moves are listed, and a frozen dataclass costs three times as much
    to make."""

    __slots__ = ("seat", "name", "args", "text")

    def __init__(self, seat: int, name: str, args: tuple, text: str):
        self.seat, self.name, self.args, self.text = seat, name, args, text

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, Move) and self.text == other.text and self.seat == other.seat
                and self.name == other.name and self.args == other.args)

    def __hash__(self) -> int:
        return hash((self.seat, self.text))

    def __repr__(self) -> str:
        return f"Move(seat={self.seat!r}, name={self.name!r}, args={self.args!r}, text={self.text!r})"

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict:
        return {"seat": self.seat, "move": self.text}


def notation(name: str, args: tuple) -> str:
    """``throw 2 5 5``: the move's name then each argument; a none argument is left out. The
    engine builds the same text piece by piece while it lists moves (engine._choose);
    tests/test_move_text.py holds the two to each other."""
    words = [name]
    for arg in args:
        if arg is not None:
            word = show(arg)
            if word != "":
                words.append(word)
    return " ".join(words)


def show(value: Any) -> str:
    kind = type(value)
    if kind is int or kind is str:      # the common case, first and fast
        return str(value)
    if kind is bool:
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(map(show, value))
    return str(value)


def sub_collections(values: list) -> tuple[list[list], tuple[str, ...] | None]:
    """Every distinct non-empty sub-collection of ``values`` (repeats count as often as they
    occur), smallest first; and when they are plain values, each one's ``show`` (kept with
    them: the same dice come back often), else None."""
    if all(type(v) in _PLAIN for v in values):
        # Typed keys, so that 1, 1.0 and true (equal in Python) never share an entry.
        cached, shown = _cached_sub_collections(tuple((type(v), v) for v in values))
        return [list(subset) for subset in cached], shown
    return _sub_collections(values), None


_PLAIN = (int, str, float, bool, type(None))


@functools.lru_cache(maxsize=SUB_COLLECTION_CACHE)
def _cached_sub_collections(key: tuple) -> tuple[tuple[tuple, ...], tuple[str, ...]]:
    subsets = _sub_collections([v for _, v in key])
    return tuple(tuple(subset) for subset in subsets), tuple(show(subset) for subset in subsets)


def _sub_collections(values: list) -> list[list]:
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
    if total == 1 << len(values):
        # All distinct (cards): each size's combinations of the sorted values come already in order.
        ordered = sorted(values, key=order_key)
        return [list(chosen) for size in range(1, len(ordered) + 1)
                for chosen in itertools.combinations(ordered, size)]
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
