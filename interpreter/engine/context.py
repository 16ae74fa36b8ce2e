"""The context an expression is evaluated in: the game, the state, and the acting seat.

Seats, cards and zones are plain values; their members that depend on the state of play (a
seat's variables, a zone's cards) read the state being evaluated, which the engine makes
``active`` around each evaluation.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from ..errors import EvalError

if TYPE_CHECKING:
    from .state import State


class Ctx:
    """What a compiled expression or effect sees: ``ctx.state``, ``ctx.me`` and the game."""

    __slots__ = ("game", "state", "me", "signals")

    def __init__(self, game: Any, state: State, me: int | None = None, signals: list | None = None):
        self.game = game
        self.state = state
        self.me = me
        self.signals = [] if signals is None else signals  # flow effects raised, handled after

    def seat(self) -> int:
        if self.me is None:
            raise EvalError("no seat is acting here; name one, for example p.score with 'for: p in players'")
        return self.me


class _Evaluating(threading.local):
    """The (game, state) pairs being evaluated, innermost last: ``evaluating.pairs``. Hot paths
    may read ``evaluating.pairs[-1]`` directly (after checking it is not empty) rather than call
    ``active_game``.

    One stack per thread, so that games may run in several threads at once. Evaluation never
    awaits, so the stack is empty whenever asyncio switches tasks: one per thread is one per
    context, and a thread's attribute is quicker to read than a ``ContextVar``."""

    def __init__(self) -> None:
        self.pairs: list[tuple[Any, Any]] = []


evaluating = _Evaluating()


class active:
    """``with active(game, state):`` makes ``state`` the one that members of seats and zones read
    while the block runs. A class rather than a generator: it is entered twice a move."""

    __slots__ = ("pair",)

    def __init__(self, game: Any, state: State):
        self.pair = (game, state)

    def __enter__(self) -> None:
        evaluating.pairs.append(self.pair)

    def __exit__(self, *exc: Any) -> None:
        evaluating.pairs.pop()


def active_state() -> State:
    return active_pair()[1]


def active_game() -> Any:
    return active_pair()[0]


def active_pair() -> tuple:
    """The (game, state) being evaluated (read on every member read of a zone: no test first)."""
    try:
        return evaluating.pairs[-1]
    except IndexError:
        raise EvalError("a seat's or zone's contents were read outside of a game") from None
