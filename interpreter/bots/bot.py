"""What every bot is: a seat of a game, a seeded generator of its own, and a choice of move; and
how bots value a position."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import rng, scores
from ..engine.context import Ctx, active
from ..engine.loaded import compiled_game
from ..engine.moves import Move
from ..engine.state import State
from ..expr.runtime import MEMO

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.loaded import LoadedGame
    from ..lean.engine import LeanGame


MISTAKE_STEPS = 1000


class Bot:
    """A bot for one seat; ``choose`` picks one of the legal moves: the one its kind decides
    (``decide``), but with the chance ``mistakes`` any move at random, as a careless player would."""

    kind = "bot"
    speed: float | None = None      # seconds per action in free play (None: the table's)
    plays_lean = False              # decides over a lean state's actions too (``decide_action``)

    def __init__(self, game: Game | LoadedGame, seat: int, seed: int = 0, mistakes: float = 0.0):
        self.game = compiled_game(game)      # what load_game returns, or its compiled game
        self.seat = seat
        self.rng = rng.seed_state(seed * 1_000_003 + seat)
        self.mistakes = mistakes

    def draw(self, n: int) -> int:
        value, self.rng = rng.below(self.rng, n)
        return value

    def choose(self, state: State, moves: list[Move]) -> Move:
        # No draw without mistakes, so that a bot's games stay those it always played.
        if self.mistakes > 0 and len(moves) > 1 and self.draw(MISTAKE_STEPS) < self.mistakes * MISTAKE_STEPS:
            return moves[self.draw(len(moves))]
        return self.decide(state, moves)

    def decide(self, state: State, moves: list[Move]) -> Move:
        raise NotImplementedError

    def choose_action(self, lean: LeanGame, state: Any, actions: list[int]) -> int:
        """``choose`` over the actions (ints) of a state of the lean engine ``lean``: the same
        draws, so the same choice as over the same moves."""
        if self.mistakes > 0 and len(actions) > 1 and self.draw(MISTAKE_STEPS) < self.mistakes * MISTAKE_STEPS:
            return actions[self.draw(len(actions))]
        return self.decide_action(lean, state, actions)

    def decide_action(self, lean: LeanGame, state: Any, actions: list[int]) -> int:
        raise NotImplementedError

    @property
    def uniform(self) -> bool:
        """Whether its choice is ``actions[rng.below(self.rng, len(actions))]`` and nothing else:
        a loop playing many games may draw for it, without a call a move."""
        return False


def seat_value(game: Game, state: State, seat: int) -> float:
    """How good the position is for ``seat``: the game's bot hint (``bot.hint``), else its score
    (negated where the lowest score wins)."""
    return seat_values(game, state)[seat] if game.hint is None else _hint(game, state, seat)


def seat_values(game: Game, state: State) -> list[float]:
    """``seat_value`` for every seat at once."""
    if game.hint is None:
        sign = 1 if game.score_order == "high" else -1
        return [sign * float(s) for s in scores(game, state)]
    return [_hint(game, state, seat) for seat in range(state.players)]


def _hint(game: Any, state: State, seat: int) -> float:
    # Nothing changes while the hint is worked out: each defined function's result for the same
    # arguments is computed once (the memo is the seat's own, as functions may read `me`).
    with active(game, state):
        return float(game.hint(Ctx(game, state, seat), {MEMO: {}}))
