"""The game values that expressions handle besides numbers, text and lists: seats, cards, zones.

They are small immutable values (an index, a card id, a zone name and owner), so they can be
stored in variables, compared, and written to JSON. What depends on the state of play (a seat's
variables, a zone's cards) is read through ``runtime.active_state()`` at the time of access.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import LimitError
from ..limits import MAX_VALUE_DEPTH, MAX_VARIABLE_ITEMS

if TYPE_CHECKING:
    from ..errors import Position

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTERS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S", "joker": "*"}
SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "joker": "★"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


@dataclass(frozen=True)
class Seat:
    """A seat at the table, numbered from 0 clockwise."""

    index: int

    def __str__(self) -> str:
        return f"P{self.index + 1}"


@dataclass(frozen=True, eq=False)
class Card:
    """One physical card: an id unique in the game and its printed attributes."""

    id: int
    label: str
    attrs: dict = field(repr=False)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("card", self.id))

    def __lt__(self, other: "Card") -> bool:
        return self.id < other.id

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class ZoneRef:
    """A zone: its name and, for a zone each seat (or team) has, the owner's index."""

    name: str
    owner: int | None = None
    index: int = 0            # which pile, in a zone of several piles
    # One pile of a zone of several: always written with its number (work[P1]#1), so that no
    # pile's name is the beginning of another's.
    numbered: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        text = self.name if self.owner is None else f"{self.name}[P{self.owner + 1}]"
        return f"{text}#{self.index + 1}" if self.numbered or self.index else text


# Seats and zones are read on every move and are immutable: each distinct one is made once.
# (A frozen dataclass costs about a microsecond to make.)
@functools.lru_cache(maxsize=256)
def seat(index: int) -> Seat:
    return Seat(index)


@functools.lru_cache(maxsize=64)
def seats(count: int) -> tuple[Seat, ...]:
    """Every seat of a table of ``count``, in order (``players``: read on most moves)."""
    return tuple(seat(i) for i in range(count))


@functools.lru_cache(maxsize=4096)
def zone_ref(name: str, owner: int | None = None) -> ZoneRef:
    return ZoneRef(name, owner)


def standard_cards(jokers: int) -> list[dict]:
    """The attributes of a standard 52-card deck (ace is rank 1) and its jokers."""
    cards = []
    for suit in SUITS:
        color = "red" if suit in ("diamonds", "hearts") else "black"
        for rank in range(1, 14):
            name = RANK_NAMES.get(rank, str(rank))
            cards.append({"rank": rank, "rank_name": name, "suit": suit, "color": color, "joker": False,
                          "label": name + SUIT_LETTERS[suit]})
    for n in range(jokers):
        cards.append({"rank": 0, "rank_name": "Jk", "suit": "joker", "color": "none", "joker": True,
                      "label": f"Jk{n + 1}" if jokers > 1 else "Jk"})
    return cards


_PLAIN = frozenset({bool, int, float, str, type(None)})


def to_json(value: Any) -> Any:
    """A stored value as JSON data; seats and cards are tagged so they read back exactly."""
    if type(value) in _PLAIN or isinstance(value, (int, float, str)):
        return value
    if isinstance(value, Seat):
        return {"$seat": value.index}
    if isinstance(value, Card):
        return {"$card": value.id}
    if isinstance(value, ZoneRef):
        return {"$zone": value.name, "owner": value.owner, "index": value.index, "numbered": value.numbered}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {"$map": {k: to_json(v) for k, v in value.items()}}
        return {"$pairs": [[to_json(k), to_json(v)] for k, v in value.items()]}
    raise TypeError(f"cannot store a value of type {type(value).__name__}")


def from_json(data: Any, cards: list[Card]) -> Any:
    """The inverse of ``to_json``."""
    if isinstance(data, list):
        return [from_json(v, cards) for v in data]
    if not isinstance(data, dict):
        return data
    if "$seat" in data:
        return Seat(data["$seat"])
    if "$card" in data:
        return cards[data["$card"]]
    if "$zone" in data:
        return ZoneRef(data["$zone"], data["owner"], data.get("index", 0), data.get("numbered", False))
    if "$map" in data:
        return {k: from_json(v, cards) for k, v in data["$map"].items()}
    if "$pairs" in data:
        return {from_json(k, cards): from_json(v, cards) for k, v in data["$pairs"]}
    raise ValueError(f"unknown stored value {data!r}")


def copy_value(value: Any) -> Any:
    """A deep copy of a stored value (lists and maps copied, immutable values shared)."""
    if isinstance(value, list):
        return [copy_value(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    return value


def stored_copy(value: Any, target: str, levels: int = MAX_VALUE_DEPTH) -> Any:
    """The copy of a value that an effect stores in the variable ``target``, refused when the
    lists and maps in it hold more than ``MAX_VARIABLE_ITEMS`` items in all, or nest more than
    ``levels`` deep (``MAX_VALUE_DEPTH``; one less for a value stored at a key of a variable). A
    list that holds another twice (``[a, a]``) counts it twice: stored, the copy is twice as large.
    Every stored value is so kept shallow enough for whatever copies, writes or draws it."""
    if not isinstance(value, (list, dict)):
        return value
    try:
        return _copy_counting(value, [MAX_VARIABLE_ITEMS], levels)
    except _TooMany:
        raise LimitError(f"{target} would hold more than {MAX_VARIABLE_ITEMS} items "
                         "(counting those of the lists and maps inside it)",
                         hint="keep fewer values, or a count of them") from None
    except _TooDeep:
        raise too_deep(f"{target} would nest") from None


def too_deep(what: str, pos: Position | None = None) -> LimitError:
    """``what`` ("x would nest") lists and maps deeper than the limit."""
    return LimitError(f"{what} lists and maps more than {MAX_VALUE_DEPTH} levels deep", pos,
                      hint="keep values side by side in one list rather than each inside the next")


def check_depth(value: Any, what: str, pos: Position | None) -> Any:
    """``value``, refused at ``pos`` when its lists and maps nest more than ``MAX_VALUE_DEPTH`` deep."""
    if isinstance(value, (list, dict)) and _deeper(value, MAX_VALUE_DEPTH):
        raise too_deep(what, pos)
    return value


def _deeper(value: Any, levels: int) -> bool:
    if levels <= 0:
        return True
    items = value if isinstance(value, list) else value.values()
    return any(isinstance(v, (list, dict)) and _deeper(v, levels - 1) for v in items)


class _TooMany(Exception):
    pass


class _TooDeep(Exception):
    pass


def _copy_counting(value: Any, left: list[int], levels: int) -> Any:
    left[0] -= len(value)
    if left[0] < 0:
        raise _TooMany
    if levels <= 0:
        raise _TooDeep
    inner = levels - 1
    if isinstance(value, list):
        return [_copy_counting(v, left, inner) if isinstance(v, (list, dict)) else v for v in value]
    return {k: _copy_counting(v, left, inner) if isinstance(v, (list, dict)) else v for k, v in value.items()}
