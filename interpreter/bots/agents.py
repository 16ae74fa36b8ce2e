"""Bots. Each decides from its seat's view and legal moves only, with its own seeded generator.

- ``random``: any legal move, uniformly.
- ``greedy``: the move that maximises the game's bot hint (``bot.hint``), else the immediate gain
  in score, averaged over a few states sampled from what the seat sees (so dice not yet thrown
  and cards not yet seen are guessed, never read).
- ``priority``: a move of the first kind in the game's ``bot.priority`` list it can play.
- ``search``: information-set Monte Carlo tree search (``search.py``), with a budget of iterations
  (``search:200``) or of seconds per decision (``search:1.5s``).
"""
from __future__ import annotations

from typing import Any

from ..engine import apply_move
from ..engine.moves import Move
from ..engine.state import State
from ..errors import OptionError, did_you_mean
from .bot import Bot, seat_value
from .determinize import sample_state
from .search import SearchBot, search_budget

GREEDY_SAMPLES = 4


class RandomBot(Bot):
    kind = "random"

    def choose(self, state: State, moves: list[Move]) -> Move:
        return moves[self.draw(len(moves))]


class GreedyBot(Bot):
    kind = "greedy"

    def choose(self, state: State, moves: list[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        best, best_value = [], None
        for move in moves:
            total = 0.0
            for _ in range(GREEDY_SAMPLES):
                sample = sample_state(self.game, state, self.seat, self.draw(1 << 30))
                apply_move(self.game, sample, move, checked=False)
                total += seat_value(self.game, sample, self.seat)
            if best_value is None or total > best_value + 1e-9:
                best, best_value = [move], total
            elif abs(total - best_value) <= 1e-9:
                best.append(move)
        return best[self.draw(len(best))]


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


BOTS = {"random": RandomBot, "greedy": GreedyBot, "priority": PriorityBot, "search": SearchBot}


def parse_kind(kind: str) -> tuple[str, dict]:
    """A bot kind as written (``greedy``, ``search:200``, ``search:1.5s``): its name and the
    budget it was given, as keyword arguments of its class."""
    name, _, budget = kind.partition(":")
    if name not in BOTS:
        hint = did_you_mean(name, BOTS) or "kinds: " + ", ".join(sorted(BOTS))
        raise OptionError(f"there is no bot kind '{name}'", hint=hint)
    if not budget:
        return name, {}
    if name != "search":
        raise OptionError(f"the {name} bot takes no budget: write '{name}', not '{kind}'")
    return name, search_budget(budget)


def make_bot(kind: str, game: Any, seat: int, seed: int = 0) -> Bot:
    name, budget = parse_kind(kind)
    return BOTS[name](game, seat, seed, **budget)
