"""The flow of a match: rounds of phases of turns, and the end of the game.

Effects never change the flow directly; they raise signals (``end_turn``, ``end_phase``,
``end_round``, ``end_game``) which ``settle`` handles after a move, together with triggers and
the phases' ``until`` conditions, until the state is quiet again.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..errors import EvalError, LimitError
from ..expr.ops import show
from ..limits import MAX_ROUNDS, MAX_TRIGGER_CASCADE
from . import interrupts
from .context import Ctx
from .effects import nothing
from .legal import has_move
from .values import Seat

if TYPE_CHECKING:
    from .state import State

SIGNAL_ORDER = ("end_game", "end_round", "end_phase", "end_turn")


def start_match(game: Any, state: State) -> None:
    ctx = Ctx(game, state)
    game.setup(ctx, {})
    _start_round(ctx)
    settle(ctx)


def settle(ctx: Ctx) -> None:
    """Fire triggers and handle flow signals until nothing more happens."""
    fired = None
    for _ in range(MAX_TRIGGER_CASCADE):
        if ctx.state.over:
            return
        trigger = _fire_triggers(ctx) if ctx.game.triggers else None
        if trigger is not None:
            fired = trigger
            continue
        if interrupts.pending(ctx.state):
            if interrupts.advance(ctx.state, ctx.signals, lambda seat: _has_move(ctx, seat)):
                return          # a seat of the interrupt is to move
            continue
        if ctx.signals:
            _handle(ctx, _strongest(ctx.signals))
            continue
        phase = ctx.game.phases[ctx.state.phase]
        if phase.until is not None and phase.until(_at(ctx, ctx.state.current), {}):
            _end_phase(ctx)
            continue
        return
    raise LimitError(f"the game did not settle after {MAX_TRIGGER_CASCADE} automatic steps "
                     "(a trigger whose effects do not make its condition false?)",
                     fired.pos if fired is not None else None)


def _has_move(ctx: Ctx, seat: int) -> bool:
    return has_move(ctx.game, ctx.state, seat)


def _strongest(signals: list[str]) -> str:
    word = min(signals, key=SIGNAL_ORDER.index)
    signals.clear()
    return word


def _handle(ctx: Ctx, word: str) -> None:
    if word == "end_game":
        _finish(ctx, None)
    elif word == "end_round":
        _end_round(ctx)
    elif word == "end_phase":
        _end_phase(ctx)
    else:
        _end_turn(ctx)


def _fire_triggers(ctx: Ctx) -> Any:
    """The condition of the trigger that fired, or None when none did."""
    for when, run in ctx.game.triggers:
        if when(_at(ctx, ctx.state.current), {}):
            run(_at(ctx, ctx.state.current), {})
            return when
    return None


def _at(ctx: Ctx, seat: int | None) -> Ctx:
    """The same context with another acting seat (signals are shared)."""
    return Ctx(ctx.game, ctx.state, seat, ctx.signals)


def _start_round(ctx: Ctx) -> None:
    ctx.state.round += 1
    ctx.game.round_start(ctx, {})
    _start_phase(ctx, 0)


def _start_phase(ctx: Ctx, index: int) -> None:
    state, phase = ctx.state, ctx.game.phases[index]
    state.phase, state.turns = index, 0
    state.current = None
    phase.start(ctx, {})
    if phase.turns is not None:
        state.current = _seat_value(phase.first(ctx, {}), state, phase.first) if phase.first else 0
        if phase.turn_start is not nothing:
            phase.turn_start(_at(ctx, state.current), {})


def _end_turn(ctx: Ctx) -> None:
    state = ctx.state
    phase = ctx.game.phases[state.phase]
    if phase.turns is None:
        return
    if phase.turn_end is not nothing:
        phase.turn_end(_at(ctx, state.current), {})
    state.turns += 1
    if phase.turns.get("each") == "once" and state.turns >= state.players:
        ctx.signals.append("end_phase")
        return
    if phase.next is not None:
        state.current = _seat_value(phase.next(_at(ctx, state.current), {}), state, phase.next)
    else:
        step = -1 if phase.turns.get("order") == "counterclockwise" else 1
        state.current = (cast(int, state.current) + step) % state.players     # a phase with turns has one
    if phase.turn_start is not nothing:
        phase.turn_start(_at(ctx, state.current), {})


def _end_phase(ctx: Ctx) -> None:
    state = ctx.state
    ctx.game.phases[state.phase].end(ctx, {})
    ctx.signals[:] = [s for s in ctx.signals if s != "end_turn"]
    if state.phase + 1 < len(ctx.game.phases):
        _start_phase(ctx, state.phase + 1)
    else:
        _end_round(ctx)


def _end_round(ctx: Ctx) -> None:
    game, state = ctx.game, ctx.state
    game.round_end(ctx, {})
    ctx.signals.clear()
    # The watcher (a front end) keeps the hand's last position to show it: the next round's
    # start clears the table.
    if state.watcher is not None:
        state.watcher.round_ended(state)
    if state.over:
        return
    if game.rounds is not None and state.round >= _count(game.rounds(ctx, {}), game.rounds):
        _finish(ctx, None)
    elif game.match_until is not None and game.match_until(ctx, {}):
        _finish(ctx, None)
    elif state.round >= (cap := _max_rounds(ctx)):
        _finish(ctx, f"stopped after {cap} round{'s' if cap != 1 else ''} (the game's max_rounds)")
    else:
        _start_round(ctx)


def _max_rounds(ctx: Ctx) -> int:
    cap = ctx.game.max_rounds(ctx, {})
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_ROUNDS:
        raise EvalError(f"flow.max_rounds must be a whole number from 1 to {MAX_ROUNDS}, not {cap!r}")
    return cap


def _finish(ctx: Ctx, reason: str | None) -> None:
    ctx.state.over = True
    ctx.state.current = None
    ctx.state.stop_reason = reason
    ctx.signals.clear()


def _seat_value(value: Any, state: State, expr: Any) -> int:
    """The seat a flow step gives (a seat, or a number taken round the table), or an error at
    the step's expression."""
    if isinstance(value, Seat):
        return value.index
    if isinstance(value, int) and not isinstance(value, bool):
        return value % state.players
    raise EvalError(f"expected a seat, got {show(value)}", expr.pos)


def _count(value: Any, expr: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise EvalError(f"the number of rounds must be an int, not {show(value)}", expr.pos)
