"""Interrupts: some seats each make one move of their own before play goes on.

The ``interrupt`` effect names the seats (in the order they act) and the moves they may make.
While it lasts, the seat at its front is ``current`` and may make only those moves; after its
move the next seat acts. A seat with no legal move among them is skipped. When every seat has
moved, the seat whose turn it was acts again, and the flow signals raised meanwhile (an
``end_turn`` next to the ``interrupt`` effect, or one raised by an interrupting move) take effect.

Everything lives in the state, as the game variable ``$interrupts``: a stack (an interrupting
move may interrupt in turn) of records ``{seats, moves, resume, after, acting}``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..errors import EvalError
from ..expr.ops import show
from .values import Seat

if TYPE_CHECKING:
    from .state import State

KEY = "$interrupts"


def push(state: State, seats: Any, moves: list[str]) -> None:
    """Start an interrupt for these seats (a list of seats or seat numbers), with these moves."""
    order = [_seat_index(s, state.players) for s in (seats if isinstance(seats, list) else [seats])]
    record = {"seats": order, "moves": list(moves), "resume": state.current, "after": [], "acting": False}
    state.vars.setdefault(KEY, []).append(record)


def pending(state: State) -> bool:
    return bool(state.vars.get(KEY))


def move_names(game: Any, state: State) -> list[str]:
    """The moves that may be made now: the interrupt's while one lasts, else the phase's."""
    stack = state.vars.get(KEY)
    return stack[-1]["moves"] if stack else game.phases[state.phase].moves


def advance(state: State, signals: list[str], has_move: Callable[[int], bool]) -> bool:
    """Move the innermost interrupt on after a move (or at its start). True while a seat must
    still act in it; False once it is over, its held signals given back to ``signals``."""
    stack = state.vars[KEY]
    record = stack[-1]
    if record["acting"]:            # the seat at the front has made its move
        record["seats"].pop(0)
        record["acting"] = False
    record["after"] += signals
    signals.clear()
    while record["seats"]:
        state.current = record["seats"][0]
        if has_move(state.current):
            record["acting"] = True
            return True
        record["seats"].pop(0)
    stack.pop()
    if not stack:
        del state.vars[KEY]
    state.current = record["resume"]
    signals += record["after"]
    return False


def _seat_index(value: Any, players: int) -> int:
    if isinstance(value, Seat):
        return value.index
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise EvalError(f"interrupt: expected seats, got {show(value)}")
