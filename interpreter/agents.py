"""Bots. Each decides from its seat's view and legal moves only, with its own seeded generator.

- ``random``: any legal move, uniformly.
- ``greedy``: the move that maximises the game's bot hint (``bot.hint``), else the immediate gain
  in score, averaged over a few states sampled from what the seat sees (so dice not yet thrown
  and cards not yet seen are guessed, never read).
- ``priority``: a move of the first kind in the game's ``bot.priority`` list it can play.
"""
from __future__ import annotations

from typing import Any, Callable

from . import rng
from .engine import apply_move, evaluate_hint, scores
from .moves import Move
from .state import State
from .views import sample_state

GREEDY_SAMPLES = 4


class Bot:
    """A bot for one seat; ``choose`` picks one of the legal moves."""

    kind = "bot"

    def __init__(self, game: Any, seat: int, seed: int = 0):
        self.game = game
        self.seat = seat
        self.rng = rng.seed_state(seed * 1_000_003 + seat)

    def draw(self, n: int) -> int:
        value, self.rng = rng.below(self.rng, n)
        return value

    def choose(self, state: State, moves: list[Move]) -> Move:
        raise NotImplementedError


class RandomBot(Bot):
    kind = "random"

    def choose(self, state: State, moves: list[Move]) -> Move:
        return moves[self.draw(len(moves))]


class GreedyBot(Bot):
    kind = "greedy"

    def choose(self, state: State, moves: list[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        value = self._value_function()
        best, best_value = [], None
        for move in moves:
            total = 0.0
            for _ in range(GREEDY_SAMPLES):
                sample = sample_state(self.game, state, self.seat, self.draw(1 << 30))
                apply_move(self.game, sample, move, checked=False)
                total += value(sample)
            if best_value is None or total > best_value + 1e-9:
                best, best_value = [move], total
            elif abs(total - best_value) <= 1e-9:
                best.append(move)
        return best[self.draw(len(best))]

    def _value_function(self) -> Callable[[State], float]:
        game, seat = self.game, self.seat
        sign = 1 if game.score_order == "high" else -1
        if game.hint is not None:
            return lambda s: float(evaluate_hint(game, s, seat))
        return lambda s: sign * float(scores(game, s)[seat])


class PriorityBot(Bot):
    """Plays a move of the first kind the game's ``bot.priority`` lists that it can (any of them,
    at random); quick enough for real-time play."""

    kind = "priority"

    def choose(self, state: State, moves: list[Move]) -> Move:
        order = self.game.bot_priority
        rank = {name: i for i, name in enumerate(order)}
        best = min(rank.get(m.name, len(order)) for m in moves)
        preferred = [m for m in moves if rank.get(m.name, len(order)) == best]
        return preferred[self.draw(len(preferred))]


BOTS = {"random": RandomBot, "greedy": GreedyBot, "priority": PriorityBot}


def make_bot(kind: str, game: Any, seat: int, seed: int = 0) -> Bot:
    return BOTS[kind](game, seat, seed)
