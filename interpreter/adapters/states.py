"""The engine states an ``ActionSession`` plays: the lean engine's where it runs the game, else the
reference's. Both give the same moves, states, observations and returns; the lean engine plays
a move several times faster, and what a seat sees is read from the reference state equal to it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..bots.determinize import sample_state
from ..engine import acting_seats, apply_move, legal_moves, new_state, ranking, results
from ..engine.moves import Move
from ..engine.state import State
from ..lean import lean_game

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..lean.engine import LeanGame


class ReferenceStates:
    """The reference's states (``engine.State``) and moves."""

    def __init__(self, game: Game, players: int):
        self.game = game
        self.table = game.card_table(players)

    def new(self, players: int, seed: int) -> Any:
        return new_state(self.game, players, seed)

    def after(self, before: Any, move: Move, seed: int | None) -> Any:
        """A copy of ``before`` with ``move`` played (drawing from ``seed`` when given)."""
        after = before.clone()
        if seed is not None:
            after.rng = seed
        apply_move(self.game, after, move, move.seat, checked=False)
        return after

    def chance_done(self, state: Any) -> None:
        """Where chance was decided by outcomes, not by the state's generator."""

    def moves(self, state: Any, seat: int) -> list[Move]:
        return legal_moves(self.game, state, seat)

    def acting(self, state: Any) -> list[int]:
        return acting_seats(self.game, state)

    def reference(self, state: Any) -> State:
        return state

    def from_reference(self, state: State) -> Any:
        return state

    def results(self, state: Any) -> list:
        return results(self.game, state)

    def ranking(self, state: Any) -> list[int]:
        return ranking(self.game, state)

    def sample(self, state: Any, seat: int, seed: int) -> Any:
        return sample_state(self.game, state, seat, seed)

    def from_json(self, data: dict) -> Any:
        return State.from_json(data, self.table)


class ActionMove(Move):
    """A lean engine's move: the reference's ``Move`` and its action."""

    __slots__ = ("action",)
    action: int


class LeanStates(ReferenceStates):
    """The lean engine's states; a move is its ``Move`` with its action."""

    def __init__(self, game: Game, players: int, lean: LeanGame):
        super().__init__(game, players)
        self.lean = lean
        self._converted: tuple = (None, None)       # the last state converted, and its reference state

    def new(self, players: int, seed: int) -> Any:
        return self.lean.new_state(players, seed)

    def after(self, before: Any, move: Move, seed: int | None) -> Any:
        lean = self.lean
        after = lean.clone(before)
        if seed is not None:
            after.rng = seed
        action = getattr(move, "action", None)
        if action is None:          # a move read back from JSON: its action found again
            action = next(a for a in lean.legal(before, move.seat) if lean.action_text(a) == move.text)
        lean.step(after, action, move.seat)
        return after

    def chance_done(self, state: Any) -> None:
        # A failure later is replayed from here: the outcomes chosen are not the state's generator's.
        state.origin, state.hist = self.lean.to_state(state), None

    def moves(self, state: Any, seat: int) -> list[Move]:
        lean = self.lean
        out: list[Move] = []
        for action in lean.legal(state, seat):
            move = lean.move(state, action)
            made = ActionMove(seat, move.name, move.args, move.text)
            made.action = action
            out.append(made)
        return out

    def acting(self, state: Any) -> list[int]:
        return self.lean.acting_seats(state)

    def reference(self, state: Any) -> State:
        if self._converted[0] is not state:
            self._converted = (state, self.lean.to_state(state))
        return self._converted[1]

    def from_reference(self, state: State) -> Any:
        return self.lean.from_state(state)

    def results(self, state: Any) -> list:
        return self.lean.results(state)

    def ranking(self, state: Any) -> list[int]:
        return self.lean.ranking(state)

    def sample(self, state: Any, seat: int, seed: int) -> Any:
        return self.lean.from_state(sample_state(self.game, self.reference(state), seat, seed))

    def from_json(self, data: dict) -> Any:
        return self.lean.from_state(State.from_json(data, self.table))


def states_for(game: Game, players: int, engine: str = "lean") -> ReferenceStates:
    """The states a session of ``game`` plays: the lean engine's where it runs the game for these
    players (and ``engine`` is ``lean``), else the reference's."""
    lean = lean_game(game) if engine == "lean" else None
    return ReferenceStates(game, players) if lean is None else LeanStates(game, players, lean)
