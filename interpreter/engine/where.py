"""Where in a game an error happened, in the players' words: what the engine was doing (a move
being played, the legal moves being listed...) and the position (moves made, round, phase).

The engine adds this to an error at its boundaries (a move, a listing, the setup, the scores),
never per evaluation: the success path pays nothing. ``fault`` first turns a Python failure that
escaped the language's own checks into an ``EvalError`` in plain words.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import RulesError, StalledGame
from ..expr.runtime import fault

if TYPE_CHECKING:
    from .state import State


def position(game: Any, state: State) -> str:
    """``round 2, phase 'play'`` (or ``before the first round``)."""
    if state.round == 0:
        return "before the first round"
    return f"round {state.round}, phase '{game.phase_names[state.phase]}'"


def moves_made(state: State) -> str:
    count = state.moves
    return "before the first move" if count == 0 else f"after {count} move{'s' if count != 1 else ''}"


def in_game(error: Exception, game: Any, state: State, doing: str, when: str | None = None) -> RulesError:
    """``error`` as a ``RulesError``, with a line saying what was happening and where: ``when``
    (default: how many moves were made; "" for nothing) and the round and phase."""
    error = fault(error, None)
    when = moves_made(state) if when is None else when
    return error.within(f"while {doing} ({when}{'; ' if when else ''}{position(game, state)})")


def seat_name(seat: int | None) -> str:
    return "no seat" if seat is None else f"P{seat + 1}"


def stalled(game: Any, state: State) -> StalledGame:
    """The error of a game that is not over while no seat may move (the seat whose turn it is,
    or in free play any seat): at the phase's place in the file."""
    phase = game.phases[state.phase]
    if state.current is not None:
        who = f"{seat_name(state.current)} is to move but has no legal move"
    else:
        who = "no seat has a legal move"
    return StalledGame(
        f"the game is stalled in phase '{phase.name}': {who}, and the game is not over",
        phase.pos,
        hint="check the 'when' of the phase's moves, or end the phase with 'until' or an effect "
             "(end_turn, end_phase...)",
    ).within(f"in round {state.round}, {moves_made(state)}")


def never_ends_turn(game: Any, state: State, moves: int) -> StalledGame:
    """The error of a seat whose turn has lasted ``moves`` moves: it can never end it."""
    phase = game.phases[state.phase]
    return StalledGame(
        f"the game is stalled in phase '{phase.name}': {seat_name(state.current)}'s turn has not "
        f"ended after {moves} moves",
        phase.pos,
        hint="a move of this phase should end the turn (end_turn) or the phase",
    ).within(f"in round {state.round}, {moves_made(state)}")
