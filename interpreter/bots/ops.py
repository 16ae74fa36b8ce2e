"""What a bot that looks ahead does with a game, on either engine: the moves of the seat to play,
a move played on a copy, guesses of what a seat cannot see, and how good a position is for a seat.

``ReferenceOps`` works on the reference's states and moves; ``LeanOps`` on the lean engine's
states and actions (ints). Both draw the same guesses and reach the same positions, so a bot
decides the same on either; on the lean engine it can afford several times the look-ahead.
A move that cannot be played raises ``RulesError`` on both.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..engine import apply_move, legal_moves
from ..engine.rng import seed_state
from ..engine.state import State
from ..errors import RulesError
from ..lean import lean_game
from ..lean.budget import OverBudget
from .bot import seat_value, seat_values
from .determinize import sample_state

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.moves import Move
    from ..lean.engine import LeanGame


class ReferenceOps:
    def __init__(self, game: Game):
        self.game = game
        self.hint = game.hint is not None

    def legal(self, world: State) -> list:
        return legal_moves(self.game, world, world.current)

    def play(self, world: State, move: Move, seat: int | None = None) -> None:
        apply_move(self.game, world, move, checked=False)       # the move names its seat

    def clone(self, world: State) -> State:
        return world.clone()

    def guess(self, world: State, seat: int, seed: int) -> State:
        return sample_state(self.game, world, seat, seed)

    def value(self, world: State, seat: int) -> float:
        return seat_value(self.game, world, seat)

    def look(self, world: State, move: Move, seat: int, seed: int) -> tuple[float, State | None]:
        """``rollout.looked_at`` of a drawn seed: ``move`` played in a copy of ``world`` whose
        chance comes from ``seed``, the hint of ``seat`` there, and the copy, given back the
        generator of ``world``, unless the move drew chance (then None)."""
        copy = world.clone()
        copy.rng = fresh = seed_state(seed)
        apply_move(self.game, copy, move, checked=False)
        value = seat_value(self.game, copy, seat)
        if copy.rng != fresh:       # the move threw dice or shuffled: the policy's guess of chance
            return value, None
        copy.rng = world.rng
        return value, copy

    def values(self, world: State) -> list[float]:
        return seat_values(self.game, world)

    def team_of(self, world: State, seat: int) -> int:
        return self.game.team_of(world, seat)

    def key(self, move: Move) -> str:
        return move.text

    def text(self, move: Move) -> str:
        return move.text


class LeanOps:
    """The same, on a game's lean engine (``lean.LeanGame``): a move that fails is refused at
    once (the reference's own error, which a bot only counts, is not worked out)."""

    def __init__(self, lean: LeanGame):
        self.lean = lean
        self.game = lean.game
        self.hint = self.game.hint is not None
        self.sign = 1 if self.game.score_order == "high" else -1
        program = lean.program
        self._legal, self._step, self.clone, self._hint, self._scores = (
            program.legal, program.step, program.clone, program.hint, program.scores)

    def legal(self, world: Any) -> list[int]:
        try:
            return self._legal(world)
        except OverBudget:      # the lean count of work ran out: the engine's face lists them
            return self.lean.legal(world)

    def play(self, world: Any, action: int, seat: int | None = None) -> None:
        """``action`` played for ``seat`` (in free play; else the seat to play)."""
        try:
            self._step(world, action, seat)
        except OverBudget:      # the lean count of work ran out: the reference plays the move
            self.lean.step_over_budget(world, action, seat)
        except Exception:       # noqa: BLE001  (the reference raises a RulesError here)
            raise RulesError("the move cannot be played in this guess") from None

    def look(self, world: Any, action: int, seat: int, seed: int) -> tuple[float, Any]:
        """``ReferenceOps.look``, its calls written in (a rollout makes one for each move it
        looks at)."""
        copy = self.clone(world)
        copy.rng = fresh = seed_state(seed)
        try:
            self._step(copy, action, None)
        except OverBudget:
            self.lean.step_over_budget(copy, action, None)
        except Exception:       # noqa: BLE001  (as ``play``)
            raise RulesError("the move cannot be played in this guess") from None
        value = self.value(copy, seat)
        if copy.rng != fresh:
            return value, None
        copy.rng = world.rng
        return value, copy

    def guess(self, world: Any, seat: int, seed: int) -> Any:
        from .lean_guess import guess
        return guess(self.lean, world, seat, seed)

    def value(self, world: Any, seat: int) -> float:
        if self.hint:
            try:
                return float(self._hint(world, seat))
            except Exception:   # noqa: BLE001  (the reference's error, or the value counted afresh)
                return float(self.lean.hint(world, seat))
        return self.values(world)[seat]

    def values(self, world: Any) -> list[float]:
        if self.hint:
            return [self.value(world, seat) for seat in range(world.players)]
        return [self.sign * float(score) for score in self.lean.scores(world)]

    def team_of(self, world: Any, seat: int) -> int:
        return seat if world.teams is None else world.teams[seat]

    def key(self, action: int) -> int:
        return action

    def text(self, action: int) -> str:
        return self.lean.action_text(action)


def decided(game: Game, state: State, moves: list, decide: Callable[[Any, Any, list], Any]) -> Move:
    """``decide(ops, world, choices)`` over the lean engine where it runs the game (the state
    converted; its actions are the moves, in their order), else over the reference; the move."""
    lean = lean_game(game)
    if lean is not None and state.presets is None and moves:
        try:
            world = lean.from_state(state)
            actions = lean.legal(world, moves[0].seat)      # in free play, the seat the moves name
        except Exception:       # noqa: BLE001  (a state the lean engine cannot hold: the reference decides)
            actions = None
        if actions is not None and len(actions) == len(moves):
            return moves[actions.index(decide(lean_ops(lean), world, actions))]
    return decide(ReferenceOps(game), state, moves)


def lean_ops(lean: Any) -> LeanOps:
    """The ops of a lean engine, made once for it."""
    ops = getattr(lean, "bot_ops", None)
    if ops is None:
        ops = lean.bot_ops = LeanOps(lean)
    return ops
