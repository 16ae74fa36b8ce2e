"""A trick's suit and rank of a card, worked out under a guard and, where they read only game
variables, kept (tricks.py uses these).

The ``tricks:`` section's ``suit``, ``rank`` and ``trump`` are evaluated under a guard: one that
asks about tricks itself would never end, so it is stopped. When ``suit`` or ``rank`` reads only
``card`` and game variables (variable_reads.py), its value for a card cannot differ while those
variables hold the same values: the values are kept in the game's trick rules (``rules.kept``:
(kind, number of seats, the variables' values) -> {card id: value}), for every state of the game
(the options and the cards' printed attributes are the game's own; a card's id names the same
card for the same number of seats).
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable

from ..errors import EvalError
from ..expr.runtime import MEMO
from .context import Ctx
from .values import Card

if TYPE_CHECKING:
    from .state import State

# At most this many tables of kept values a game (variables of many values: they are dropped).
MOST_KEPT = 64
MISSING = object()


class _Guard(threading.local):
    """How deep in the section's own ``suit``, ``rank`` or ``trump`` expressions evaluation is:
    one that asks about tricks itself would never end, so it is stopped. Per thread: games played
    in other threads are elsewhere in their own evaluations."""

    depth = 0


Guard = _Guard()


def guarded(ctx: Ctx, expression: Callable, env: dict) -> Any:
    """Evaluate one of the section's expressions under the guard (no context manager: this runs
    for every card looked at)."""
    if Guard.depth:
        guard_error()
    Guard.depth += 1
    try:
        return expression(ctx, env)
    finally:
        Guard.depth -= 1


def guard_error() -> None:
    raise EvalError("the tricks: section's suit, rank and trump may not use led_suit, trick_winner, "
                    "trick_leader, playable, suit_of, rank_of or played_by")


def card_env(card: Card, memo: dict | None) -> dict:
    return {"card": card} if memo is None else {"card": card, MEMO: memo}


def kept_value(ctx: Ctx, kind: str, expression: Callable, reads: Callable, card: Card, memo: dict | None) -> Any:
    """The value of ``suit`` or ``rank`` (which read only ``card`` and the game variables
    ``reads``) for ``card``, kept. A value that cannot be a key (a list) is not kept."""
    if Guard.depth:
        guard_error()
    kept = kept_values(ctx.game.tricks, ctx.state, kind, reads)
    if kept is None:
        return guarded(ctx, expression, card_env(card, memo))
    return _kept_or_worked_out(kept, ctx, expression, card, memo)


def _kept_or_worked_out(kept: dict, ctx: Ctx, expression: Callable, card: Card, memo: dict | None) -> Any:
    found = kept.get(card.id, MISSING)
    if found is MISSING:
        found = kept[card.id] = guarded(ctx, expression, card_env(card, memo))
    return found


def kept_values(rules: Any, state: State, kind: str, reads: Callable) -> dict | None:
    """The values of ``kind`` kept for the current values of the variables it reads (card id ->
    value), found once for all the cards a function looks at (nothing changes in between); None
    when one of those values cannot be a key (a list)."""
    key = (kind, state.players, reads(state.vars))
    kept_by = rules.kept
    try:
        kept = kept_by.get(key)
    except TypeError:
        return None
    if kept is None:
        if len(kept_by) >= MOST_KEPT:     # variables of many values: the memory stays bounded
            kept_by.clear()
        kept = kept_by[key] = {}
    return kept


class Values:
    """A card's suit (or rank) as ``suit_of`` gives it, for the cards one function looks at while
    nothing changes: the kept values are found once, and a card's value is then a dict's lookup."""

    __slots__ = ("ctx", "expression", "kept", "memo")

    def __init__(self, ctx: Ctx, kind: str, memo: dict | None):
        rules = ctx.game.tricks
        reads = rules.suit_key if kind == "suit" else rules.rank_key
        self.ctx, self.memo = ctx, memo
        self.expression = rules.suit if kind == "suit" else rules.rank
        if reads is not None and Guard.depth:
            guard_error()
        self.kept = None if reads is None else kept_values(rules, ctx.state, kind, reads)

    def of(self, card: Card) -> Any:
        if self.kept is not None:
            return _kept_or_worked_out(self.kept, self.ctx, self.expression, card, self.memo)
        return guarded(self.ctx, self.expression, card_env(card, self.memo))
