"""Bots. Each decides from its seat's view and legal moves only, with its own seeded generator.

- ``random``: any legal move, uniformly.
- ``greedy``: the move that maximises the game's bot hint (``bot.hint``), else the immediate gain
  in score, averaged over a few states sampled from what the seat sees (so dice not yet thrown
  and cards not yet seen are guessed, never read).
- ``priority``: a move of the first kind in the game's ``bot.priority`` list it can play.
- ``search``: Monte Carlo search (``search.py``): its best moves compared by rollouts on the same
  guesses and halved round by round, with a budget of rollouts (``search:200``) or of seconds per
  decision (``search:1.5s``).

The levels ``easy``, ``medium`` and ``hard`` are for players: in a game with turns, the search
bot with a budget and a share of careless moves (``LEVELS``); in free play, where speed counts,
the priority bot with a speed (seconds per action) and a share of careless moves
(``FREE_PLAY_LEVELS``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import rng
from ..engine.loaded import compiled_game
from ..engine.moves import Move
from ..engine.state import State
from ..errors import OptionError, did_you_mean
from .bot import Bot
from .ops import decided, lean_ops
from .search import SearchBot, search_budget

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.loaded import LoadedGame
    from ..lean.engine import LeanGame
    from .ops import LeanOps, ReferenceOps

GREEDY_SAMPLES = 4


class RandomBot(Bot):
    kind = "random"
    plays_lean = True

    def decide(self, state: State, moves: list[Move]) -> Move:
        return moves[self.draw(len(moves))]

    def decide_action(self, lean: LeanGame, state: Any, actions: list[int]) -> int:
        return actions[self.draw(len(actions))]

    @property
    def uniform(self) -> bool:
        return not self.mistakes        # a careless move draws first

    def choose_action(self, lean: LeanGame, state: Any, actions: list[int]) -> int:
        if self.mistakes:       # a mistake is a random move too, but draws first whether to make one
            return super().choose_action(lean, state, actions)
        value, self.rng = rng.below(self.rng, len(actions))      # ``draw``, written in: at every move
        return actions[value]


class GreedyBot(Bot):
    kind = "greedy"
    plays_lean = True

    def decide(self, state: State, moves: list[Move]) -> Move:
        return decided(self.game, state, moves, self._greedy)

    def decide_action(self, lean: LeanGame, state: Any, actions: list[int]) -> int:
        return self._greedy(lean_ops(lean), state, actions)

    def _greedy(self, ops: ReferenceOps | LeanOps, state: Any, moves: list) -> Any:
        if len(moves) == 1:
            return moves[0]
        best, best_value = [], None
        for move in moves:
            total = 0.0
            for _ in range(GREEDY_SAMPLES):
                sample = ops.guess(state, self.seat, self.draw(1 << 30))
                ops.play(sample, move, self.seat)
                total += ops.value(sample, self.seat)
            if best_value is None or total > best_value + 1e-9:
                best, best_value = [move], total
            elif abs(total - best_value) <= 1e-9:
                best.append(move)
        return best[self.draw(len(best))]


class PriorityBot(Bot):
    """Plays a move of the first kind the game's ``bot.priority`` lists that it can (any of them,
    at random); quick enough for real-time play."""

    kind = "priority"
    plays_lean = True

    def decide(self, state: State, moves: list[Move]) -> Move:
        return self._preferred([m.name for m in moves], moves)

    def decide_action(self, lean: LeanGame, state: Any, actions: list[int]) -> int:
        return self._preferred([lean.move_name(a) for a in actions], actions)

    def _preferred(self, names: list[str], choices: list) -> Any:
        order = self.game.bot_priority
        rank = {name: i for i, name in enumerate(order)}
        best = min(rank.get(name, len(order)) for name in names)
        preferred = [c for c, name in zip(choices, names) if rank.get(name, len(order)) == best]
        return preferred[self.draw(len(preferred))]


BOTS = {"random": RandomBot, "greedy": GreedyBot, "priority": PriorityBot, "search": SearchBot}

# The levels in a game with turns: the search bot's rollouts per decision and its share of
# careless moves (any legal move, at random). Each is measured against the one below in docs/bots.md.
# A player waits for hard at most HARD_SECONDS (and one rollout): on a busy machine it stops
# there, before its rollouts are done.
HARD_SECONDS = 1.2
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"iterations": 10, "mistakes": 0.2},
    "medium": {"iterations": 30, "mistakes": 0.05},
    "hard": {"iterations": 100, "seconds": HARD_SECONDS, "mistakes": 0.0},
}
# The levels in free play: the priority bot's seconds per action (the table's default is 1) and
# its share of careless moves; a beginner, a club player and a fast player.
FREE_PLAY_LEVELS = {
    "easy": {"speed": 2.0, "mistakes": 0.3},
    "medium": {"speed": 1.2, "mistakes": 0.1},
    "hard": {"speed": 0.6, "mistakes": 0.0},
}


def parse_kind(kind: str) -> tuple[str, dict]:
    """A bot kind as written (``greedy``, ``search:200``, ``search:1.5s``): its name and the
    budget it was given, as keyword arguments of its class."""
    name, _, budget = kind.partition(":")
    if name not in BOTS and name not in LEVELS:
        hint = did_you_mean(name, [*BOTS, *LEVELS]) or "kinds: " + ", ".join(sorted(BOTS)) + "; levels: " \
            + ", ".join(LEVELS)
        raise OptionError(f"there is no bot kind '{name}'", hint=hint)
    if not budget:
        return name, {}
    if name in LEVELS:
        raise OptionError(f"the level {name} sets its own budget: write '{name}', not '{kind}'")
    if name != "search":
        raise OptionError(f"the {name} bot takes no budget: write '{name}', not '{kind}'")
    return name, search_budget(budget)


def make_bot(kind: str, game: Game | LoadedGame, seat: int, seed: int = 0) -> Bot:
    """A bot of this kind for ``seat`` of ``game`` (what ``load_game`` returns, or its compiled game)."""
    game = compiled_game(game)
    name, budget = parse_kind(kind)
    if name in LEVELS:
        return level_bot(name, game, seat, seed)
    return BOTS[name](game, seat, seed, **budget)


def level_bot(level: str, game: Game, seat: int, seed: int) -> Bot:
    """The bot of a level: a search in a game with turns, a quick priority bot in free play."""
    bot: Bot
    if any(phase.turns is None for phase in game.phases):
        settings = FREE_PLAY_LEVELS[level]
        bot = PriorityBot(game, seat, seed, mistakes=settings["mistakes"])
        bot.speed = settings["speed"]
    else:
        bot = SearchBot(game, seat, seed, **LEVELS[level])
    bot.kind = level
    return bot
