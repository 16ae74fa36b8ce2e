"""A trick's suit and rank of a card, worked out under a guard (tricks.py uses these).

The ``tricks:`` section's ``suit``, ``rank`` and ``trump`` are evaluated under a guard: one that
asks about tricks itself would never end, so it is stopped.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from ..errors import EvalError
from ..expr.runtime import MEMO
from .context import Ctx
from .values import Card


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


class Values:
    """A card's suit (or rank) as ``suit_of`` gives it, for the cards one function looks at while
    nothing changes (they share one ``memo``)."""

    __slots__ = ("ctx", "expression", "memo")

    def __init__(self, ctx: Ctx, kind: str, memo: dict | None):
        rules = ctx.game.tricks
        self.ctx, self.memo = ctx, memo
        self.expression = rules.suit if kind == "suit" else rules.rank

    def of(self, card: Card) -> Any:
        return guarded(self.ctx, self.expression, card_env(card, self.memo))
