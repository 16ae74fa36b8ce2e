"""A piece of generated code and what it gives, and the names an expression sees: shared by the
writers of the lean module."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from ..limits import MAX_COLLECTION
from .ltypes import BOOL, INT, NONE, NUM, STR, LType, ListT, MapT, Unsupported, join_all

SAFE_BITS = 59          # an int of fewer bits stays within the language's 18 digits (10**18 > 2**59)
UNBOUNDED = 64
# A range whose ends take fewer bits has fewer items than a list may hold (2 * 2**15 < 100,000).
RANGE_BITS = (MAX_COLLECTION.bit_length() - 1) - 1


@dataclass(frozen=True)
class Code:
    """A Python expression and what it gives: its type, whether it is a list the state holds (to
    copy before the state changes), and how many bits its magnitude may take (ints)."""
    text: str
    type: LType
    live: bool = False
    bits: int = UNBOUNDED       # of a number's magnitude (ints and floats); of a list's, its items'
    size: int | None = None     # a list's most items, when known at load (a zone's cards...)
    unique: bool = False        # a list whose items are all different (a zone's cards, the players...)
    origin: str | None = None   # a card's (or cards') pile when it was read: where a move looks first
    # A list of the cards of whole piles, each of a zone of its own: (zone, pile) each, in order.
    piles: tuple = ()


@dataclass(frozen=True)
class Env:
    """What an expression sees: its locals (a name -> its ``Code``), and the acting seat: a Python
    expression (None where no seat acts) and whether it is known to be a seat (not none)."""
    names: dict = field(default_factory=dict)
    me: str | None = "me"
    me_sure: bool = True

    def bind(self, name: str, code: Code) -> "Env":
        return replace(self, names={**self.names, name: code})


def magnitude_bits(value: int | float) -> int:
    """The bits of a number's magnitude (a float's, its whole part's and one more)."""
    if isinstance(value, int):
        return abs(value).bit_length()
    return int(abs(value)).bit_length() + 1 if math.isfinite(value) else UNBOUNDED


def const_code(value: Any, module: Any) -> Code:
    """A constant: ints, bools and none written as themselves, any other value bound."""
    if value is None:
        return Code("None", NONE, bits=0)      # no magnitude: arithmetic on it fails in any case
    if isinstance(value, bool):
        return Code(repr(value), BOOL)
    if isinstance(value, int):
        return Code(repr(value) if value >= 0 else f"({value!r})", INT, bits=abs(value).bit_length())
    if isinstance(value, float):
        return Code(module.const(value), NUM, bits=magnitude_bits(value))
    if isinstance(value, str):
        return Code(module.const(value), STR)
    if isinstance(value, list):
        items = [const_code(v, module) for v in value]
        kind = join_all([c.type for c in items])
        if kind is None:
            raise Unsupported("a list holds values of several kinds")
        distinct = all(type(v) in (int, str) for v in value) and len(set(value)) == len(value)
        bits = max((c.bits for c in items if c.type != STR), default=0)
        return Code(module.const(value), ListT(kind), live=True, size=len(value), unique=distinct, bits=bits)   # shared: copied where stored
    if isinstance(value, dict):
        keys = join_all([const_code(k, module).type for k in value])
        values = join_all([const_code(v, module).type for v in value.values()])
        if keys is None or values is None:
            raise Unsupported("a map holds values of several kinds")
        return Code(module.const(value), MapT(keys, values), live=True)
    raise Unsupported(f"a constant of type {type(value).__name__}")
