"""One game of a simulation played by the lean engine: the same game ``playout`` plays at a
``realtime.Table`` (the same bots' draws, the same moves, the same outcome, the same errors), on
the lean engine's states and actions.

In a phase with turns the seat to play chooses and the move is played; a seat with no legal
move, or whose turn never ends, stops the game as the table stops it. In free play the seats act
on the table's virtual clock (``realtime.Clock``): the seat whose next action is due first.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.rng import below
from ..engine.where import never_ends_turn, stalled
from ..errors import RulesError
from ..limits import MAX_MOVES_PER_TURN
from ..play.realtime import Clock
from .simulate_report import GameOutcome

if TYPE_CHECKING:
    from ..engine.loaded import LoadedGame
    from ..lean.engine import LeanGame


def play_lean(loaded: LoadedGame, lean: LeanGame, settings: Any, index: int, bots: dict) -> GameOutcome:
    seed = settings.seed + index
    state = lean.new_state(settings.players, seed)
    clock = Clock({seat: bot.speed for seat, bot in bots.items()}, seed)
    legal, step, max_moves = lean.legal, lean.step, settings.max_moves     # looked up once: read at every move
    choose = [bots[seat].choose_action for seat in range(len(bots))]     # bots by seat
    draws = [bots[seat].rng if bots[seat].uniform else None for seat in range(len(bots))]     # drawn for here
    first_seat, last_seat, last_action, turn_moves = None, None, None, 0
    for _ in range(max_moves - state.moves):       # each step makes one move
        if state.over:
            break
        seat = state.current
        try:
            if free := seat is None:        # free play: the seat whose action is due first
                seat = _due_seat(loaded, lean, state, clock)
                actions = legal(state, seat)
            else:
                actions = legal(state)      # the seat to play's: no seat to check
            if not actions:
                raise stalled(loaded.game, lean.to_state(state))
            if (draw := draws[seat]) is not None:
                value, draws[seat] = below(draw, len(actions))
                action = actions[value]
            else:
                action = choose[seat](lean, state, actions)
        except RulesError as error:
            raise _after(lean, last_seat, last_action, error) from None
        round_, phase, turns = state.round, state.phase, state.turns
        step(state, action, seat)
        last_seat, last_action = seat, action
        if first_seat is None:
            first_seat = seat
        if free:
            clock.acted(seat)
            turn_moves = 0
        elif state.turns != turns or state.current != seat or state.phase != phase or state.round != round_:
            turn_moves = 0
        else:
            turn_moves += 1
            if turn_moves >= MAX_MOVES_PER_TURN:
                stuck = never_ends_turn(loaded.game, lean.to_state(state), turn_moves)
                raise _after(lean, last_seat, last_action, stuck)
    for seat, drawn in enumerate(draws):       # each bot's generator where its draws left it
        if drawn is not None:
            bots[seat].rng = drawn
    stop = state.stop_reason
    if not state.over:
        stop = f"not over after {settings.max_moves} moves (the move limit)"
    scores = lean.scores(state)
    return GameOutcome(index, seed, scores, lean.ranking(state, scores), state.moves, state.round, first_seat, stop,
                       None)


def _due_seat(loaded: LoadedGame, lean: LeanGame, state: Any, clock: Clock) -> int:
    """The seat that acts next in free play."""
    seats = lean.free_seats(state)
    if not seats:
        raise stalled(loaded.game, lean.to_state(state))
    return clock.next_seat(seats)


def _after(lean: LeanGame, seat: int | None, action: int | None, error: RulesError) -> RulesError:
    """An error met between moves, with the last move made (as the table reports it)."""
    if seat is not None and action is not None:
        error.within(f"the last move was P{seat + 1}: {lean.action_text(action)}")
    return error
