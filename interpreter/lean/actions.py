"""Actions of the lean engine: each move with its arguments as one int.

``action = move index + moves * code``, the code of the arguments a mixed-radix number: a card is
its id, a seat its index (where none may be one: + 1, none 0), a pile its number (or its place,
where it may be a pile of any zone), a bool 1 or 2 (none 0), a sub-collection of cards (``subset_of``,
always in the order of their ids) the bits of their ids; the arguments of any other kind (texts,
numbers, lists of them) are kept together, once each, in a table of the module (``values``), and
their index there is the number's last, most significant, digit. So an action is made and read
with a little arithmetic, and the table grows only with the distinct plain values a game meets.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ltypes import BOOL, CARD, INT, SEAT, STR, LType, ListT, Opt, Zone, strip
from .shape import PILE_BITS


@dataclass(frozen=True)
class Codec:
    """How one parameter's value is written in an action: ``kind`` card, seat, bool, cards (a
    sub-collection), or plain (in the values' table); ``radix`` the size of its digit."""
    kind: str
    radix: int


def codec(kind_of_param: str, value_type: LType, cards: int, zones: int) -> Codec:
    inner = strip(value_type)
    nullable = isinstance(value_type, Opt)
    if isinstance(inner, Zone) and kind_of_param == "from":
        radix = 1 << PILE_BITS if inner.name is not None else zones << PILE_BITS
        return Codec("pile?", radix + 1) if nullable else Codec("pile", radix)
    if inner == CARD and kind_of_param == "from":
        return Codec("card?", cards + 1) if nullable else Codec("card", cards)
    if inner == SEAT and kind_of_param == "from":
        return Codec("seat?", 65) if nullable else Codec("seat", 64)
    if inner == BOOL and kind_of_param == "from":
        return Codec("bool", 3)
    if kind_of_param == "subset_of" and isinstance(inner, ListT) and strip(inner.elem) == CARD:
        return Codec("cards", 1 << cards)
    return Codec("plain", 0)


class Actions:
    """The actions of one module: the codecs of each move's parameters and the plain values met."""

    def __init__(self, moves: int):
        self.moves = moves
        self.codecs: dict[int, list[Codec]] = {}
        self.values: list = [None]      # from 1: a lookup's miss (0, None) is never an index
        self.value_of: dict = {}
        self.raw: dict = {}             # the same indexes by ints, texts and tuples of ints as they are

    def intern(self, values: tuple) -> int:
        """The index of these plain values in the table, added the first time they are met (1,
        1.0 and true are three values: they show differently)."""
        key = frozen(values)
        index = self.value_of.get(key)
        if index is None:
            index = self.value_of[key] = len(self.values)
            self.values.append(values)
        return index

    def intern_raw(self, key: tuple, values: tuple) -> int:
        """``intern``, by a key that is the values themselves where they are ints, texts or lists
        of ints (of a parameter known to be one of those: they never meet a bool or a float)."""
        index = self.intern(values)
        self.raw[key] = index
        return index

    def decode(self, action: int) -> tuple[int, tuple]:
        """(move index, its arguments) of an action."""
        move, code = action % self.moves, action // self.moves
        args: list[Any] = []
        plain: list[int] = []
        for position, c in enumerate(self.codecs.get(move, ())):
            if c.kind == "plain":
                plain.append(position)
                args.append(None)
                continue
            digit, code = code % c.radix, code // c.radix
            args.append(_value(c.kind, digit))
        if plain:
            for position, value in zip(plain, self.values[code]):
                args[position] = value
        return move, tuple(args)


def _value(kind: str, digit: int) -> Any:
    if kind == "cards":
        return bits(digit)
    if kind in ("card", "seat", "pile"):
        return digit
    if digit == 0:
        return None
    if kind == "bool":
        return digit == 2
    return digit - 1


def bits(mask: int) -> list[int]:
    """The ids whose bits are set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def encode_text(codecs: list[Codec], names: list[str], types: list[LType]) -> str:
    """The code of a move's arguments (``names``: their Python names, ``types`` their types) as a
    Python expression."""
    digits, radix = [], 1
    plain = [name for name, c in zip(names, codecs) if c.kind == "plain"]
    for name, c, kind in zip(names, codecs, types):
        if c.kind == "plain":
            continue
        digit = {"card": name, "seat": name, "pile": name,
                 "card?": f"({name} + 1 if {name} is not None else 0)",
                 "pile?": f"({name} + 1 if {name} is not None else 0)",
                 "seat?": f"({name} + 1 if {name} is not None else 0)",
                 "bool": f"(0 if {name} is None else 2 if {name} else 1)",
                 "cards": f"_mask({name})"}[c.kind]
        digits.append(digit if radix == 1 else f"{digit} * {radix}")
        radix *= c.radix
    if plain:
        digits.append(f"{_plain_index(plain, [k for n, c, k in zip(names, codecs, types) if c.kind == 'plain'])}"
                      f" * {radix}")
    return " + ".join(digits) or "0"


def _plain_index(names: list[str], types: list[LType]) -> str:
    """The index of a move's plain arguments in the values' table: looked up by the values
    themselves where their types allow it, else interned."""
    values = f"({', '.join(names)},)"
    keys = []
    for name, kind in zip(names, types):
        if kind in (INT, STR):
            keys.append(name)
        elif isinstance(kind, ListT) and kind.elem == INT:
            keys.append(f"tuple({name})")
        else:
            return f"_intern_values({values})"
    key = f"({', '.join(keys)},)"
    return f"(_RAW.get({key}) or _intern_raw({key}, {values}))"


def decode_lines(codecs: list[Codec], names: list[str], types: list[LType], indent: str) -> list[str]:
    """The lines that read a move's arguments from ``code`` (its part of the action)."""
    lines = []
    plain = [name for name, c in zip(names, codecs) if c.kind == "plain"]
    digits = [(name, c) for name, c in zip(names, codecs) if c.kind != "plain"]
    for k, (name, c) in enumerate(digits):
        last = k == len(digits) - 1 and not plain
        target = name if c.kind in ("card", "seat", "pile") else "digit"     # the digit is the value itself
        lines.append(f"{indent}{target} = code" if last else f"{indent}code, {target} = divmod(code, {c.radix})")
        if c.kind == "cards":
            lines.append(f"{indent}{name} = _bits(digit)")
        elif c.kind == "bool":
            lines.append(f"{indent}{name} = None if digit == 0 else digit == 2")
        elif c.kind in ("card?", "seat?", "pile?"):
            lines.append(f"{indent}{name} = digit - 1 if digit else None")
    if plain:
        lines.append(f"{indent}{', '.join(plain)}, = _VALUES[code]")
    return lines


def frozen(value: Any) -> Any:
    """A plain value as a key of the values' table: its kind beside it (1, 1.0 and true differ),
    lists and maps as tuples."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(frozen(v) for v in value))
    if isinstance(value, dict):
        return ("map", tuple((frozen(k), frozen(v)) for k, v in value.items()))
    return (type(value).__name__, value)


def mask(cards: list[int]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out
