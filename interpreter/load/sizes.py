"""Components sized by the game's options: the dice (``dice: {count: numdice, faces: sides}``),
a deck's ``jokers``, a card's ``count`` and the ends of an ``each:`` range (``1..numdice``).

Each such place may hold an expression of the options (and numbers) in place of a number. Once
the options of a load are known, each expression is worked out, checked against the bounds a
number written there has, and written into the spec in its place: from there on the game is
exactly the game with those numbers written out (the engines, the deck checks, the digest).
A mistake is reported at the expression, with the options it was worked out with.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ..errors import ErrorList, RulesError, SpecError
from ..expr import compile_expression
from ..expr.scope import Binding, Scope
from ..expr.types import ANY, BOOL, INT, NUMBER, STR
from .yamlio import Document

# The places a number may be an expression of the options, and the numbers allowed there.
DICE = (("count", 1, 100), ("faces", 2, 1000))
JOKERS = (0, 16)
CARD_COUNT = (1, None)
RANGE_END = (-(10 ** 9), 10 ** 9)
RANGE = re.compile(r"^(?P<low>.+?)\.\.(?P<high>.+)$")
WHOLE = re.compile(r"\s*-?[0-9]+\s*")


def size_components(doc: Document, options: dict[str, Any]) -> list[RulesError]:
    """Work out every sizing expression with ``options`` and write its number in; the errors."""
    size = _Sizer(doc, options)
    dice = doc.data.get("dice")
    for key, low, high in DICE:
        if dice is not None:
            size.number(dice, key, ("dice", key), low, high)
    for name, deck in (doc.data.get("decks") or {}).items():
        size.number(deck, "jokers", ("decks", name, "jokers"), *JOKERS)
        for i, entry in enumerate(deck.get("cards") or []):
            path = ("decks", name, "cards", i)
            if "count" in entry and isinstance(entry["count"], str):
                size.number(entry, "count", path + ("count",), *CARD_COUNT)
            for attr, values in (entry.get("each") or {}).items():
                size.range(entry["each"], attr, path + ("each", attr))
    return size.errors


class _Sizer:
    def __init__(self, doc: Document, options: dict[str, Any]):
        self.doc, self.options = doc, options
        self.errors: list[RulesError] = []
        self.scope = Scope(names={name: Binding(_type(value), _constant(value), "an option")
                                  for name, value in options.items()})

    def number(self, holder: dict, key: str, path: tuple, low: int | None, high: int | None) -> None:
        """The expression at ``holder[key]`` (a number stays as it is) replaced by its value."""
        text = holder.get(key)
        if not isinstance(text, str):
            return
        value = self._value(text, path, 0, low, high)
        # A size that failed (its error is kept) stands as its least value: the other checks of
        # the declarations go on, and none reports this place again.
        holder[key] = low if value is None else value

    def range(self, holder: dict, key: str, path: tuple) -> None:
        """An ``each:`` range whose ends are expressions, rewritten with numbers (``1..6``)."""
        text = holder.get(key)
        match = RANGE.match(text) if isinstance(text, str) else None
        if match is None or (WHOLE.fullmatch(match["low"]) and WHOLE.fullmatch(match["high"])):
            return
        ends = [self._value(match[end], path, match.start(end), *RANGE_END) for end in ("low", "high")]
        holder[key] = "1..1" if None in ends else f"{ends[0]}..{ends[1]}"

    def _value(self, text: str, path: tuple, offset: int, low: int | None, high: int | None) -> int | None:
        where = self.doc.pos(path)
        try:
            compiled = compile_expression(text, self.scope, self._locator(path, offset))
            value = compiled.fn(None, {})
        except ErrorList as errors:
            self.errors += [_only_options(e) for e in errors.errors]
            return None
        except RulesError as error:
            self.errors.append(_only_options(error))
            return None
        used = ", ".join(f"{k}={v}" for k, v in self.options.items() if re.search(rf"\b{k}\b", text))
        given = f" (with {used})" if used else ""
        if isinstance(value, bool) or not isinstance(value, int):
            self.errors.append(SpecError(f"'{text.strip()}' gives {value!r}{given}: expected a whole number", where))
        elif (low is not None and value < low) or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"{low} to {high}"
            self.errors.append(SpecError(f"'{text.strip()}' gives {value}{given}: expected {bounds}", where))
        else:
            return value
        return None

    def _locator(self, path: tuple, offset: int) -> Callable:
        return lambda off, width: self.doc.locate(path, off + offset, width)


def _only_options(error: RulesError) -> RulesError:
    """An unknown name here, without a likely one: only the options (and numbers) size a component."""
    if error.message.startswith("unknown name") and not error.hint:
        error.hint = "a component's size is a number or an expression of the game's options"
    return error


def _type(value: Any) -> Any:
    if isinstance(value, bool):
        return BOOL
    return {int: INT, float: NUMBER, str: STR}.get(type(value), ANY)


def _constant(value: Any) -> Callable:
    return lambda ctx: value
