"""The search bot: information-set Monte Carlo tree search, from one seat's point of view.

Each iteration guesses the cards the seat cannot see, dealing them again consistently with what
it has observed (``determinize.sample_state``; dice to come are guessed too), and walks one tree
of moves shared by every guess:

1. **Select.** At each node the seat to move takes, among the moves legal in this guess, the one
   with the best upper confidence bound (UCB1 counting how often each move was *available*, since
   a move legal in one guess may not be in another).
2. **Expand.** A move not yet in the tree is added, and the walk stops there. A node takes a new
   move only while it has fewer than ``WIDEN * visits ** 0.5`` of them (progressive widening), so
   that a large set of moves (every subset of dice to throw again) is not spread thin: at the root
   the moves come in the order of a first look at the hint after each, elsewhere at random. Below
   the root the tree grows only under nodes visited ``expand_after`` times.
3. **Roll out.** From there the game is played on (``rollout.play_on``) to the end of the hand
   (the round), to the end of the game, or to ``horizon`` moves from the root (the game's
   ``bot.horizon``, else ``HORIZON``), each seat taking the move its hint values most, as the
   greedy bot does (``rollout.py``), with chance sampled as it comes.
4. **Back up.** The position reached is valued for each seat that moved on the way down, by the
   seat's own standing: the game's ``bot.hint`` (without a hint, its score minus the best score of
   another team). The bound measures values in standard deviations of those seen in the search,
   so that one exploration constant serves every game, and one outlier (a hint of -100 for a hand
   that makes nothing) does not flatten every difference.

The bot plays the root move worth most among those tried at least a quarter as often as the most
tried one. A guess that the rules cannot play on (a redeal the
rules would not have dealt, met only far down a line) is given up and counts in the budget.
"""
from __future__ import annotations

import math
import time
from typing import Any

from ..engine import apply_move, legal_moves
from ..engine.moves import Move
from ..engine.state import State
from ..errors import OptionError, RulesError
from .bot import Bot
from .determinize import sample_state
from .rollout import Rollout, first_look, seat_rewards, within_phase

DEFAULT_ITERATIONS = 200
HORIZON = 3             # moves from the root after which a rollout stops (unless the hand ends first),
                        # where the game's ``bot.horizon`` does not say
EXPLORATION = 0.5       # the UCB1 constant, for values in standard deviations of those seen
EXPAND_AFTER = 8        # visits a node below the root needs before moves after it join the tree
WIDEN = 2.0             # a node of n visits holds at most WIDEN * sqrt(n) moves (at least one)
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0


class Node:
    """A move in the tree: who made it, how often it was tried and available, the total value seen
    below it."""

    __slots__ = ("seat", "children", "visits", "available", "total")

    def __init__(self, seat: int):
        self.seat = seat
        self.children: dict[tuple[int, str], Node] = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0


class SearchBot(Bot):
    kind = "search"

    def __init__(self, game: Any, seat: int, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, horizon: int | None = None, expand_after: int = EXPAND_AFTER,
                 mistakes: float = 0.0):
        super().__init__(game, seat, seed, mistakes)
        if any(phase.turns is None for phase in game.phases):
            raise OptionError(f"the search bot plays games with turns; {game.name} has free play",
                              hint="use the priority or greedy bot")
        # Iterations, seconds, or both (whichever runs out first); seconds alone: as many as fit.
        if iterations is None:
            iterations = DEFAULT_ITERATIONS if seconds is None else MAX_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon or game.bot_horizon or HORIZON
        self.expand_after = expand_after
        self.spread = Spread()          # the values seen in this search
        self.done = 0                   # iterations of the last search (given-up guesses included)
        self.given_up = 0               # of which guesses the rules could not play on

    def decide(self, state: State, moves: list[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        root = Node(self.seat)
        self.spread = Spread()
        self.done = self.given_up = 0
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds    # the first look counts
        rollout = Rollout(self.game, self.draw)
        order = first_look(self.game, sample_state(self.game, state, self.seat, self.draw(1 << 30)), moves,
                           self.seat, self.draw)
        while self._budget_left(deadline):
            world = sample_state(self.game, state, self.seat, self.draw(1 << 30))
            try:
                self._iterate(root, world, order, state.round, rollout)
            except RulesError:
                self.given_up += 1
            self.done += 1
        return self._best(root, moves)

    def _budget_left(self, deadline: float | None) -> bool:
        """Another iteration? Under a time budget, always at least one."""
        if self.done >= self.iterations:
            return False
        return deadline is None or self.done == 0 or time.perf_counter() < deadline

    def _best(self, root: Node, moves: list[Move]) -> Move:
        """The move worth most among those tried at least a quarter as often as the most tried
        (a move tried once or twice may look better than it is); ties go to the first legal."""
        tried = {m.text: root.children[(self.seat, m.text)] for m in moves
                 if root.children.get((self.seat, m.text)) is not None and root.children[(self.seat, m.text)].visits}
        most = max((child.visits for child in tried.values()), default=0)
        candidates = [m for m in moves if m.text in tried and 4 * tried[m.text].visits >= most]
        if not candidates:
            return moves[0]
        return max(candidates, key=lambda m: tried[m.text].total / tried[m.text].visits)

    def _iterate(self, root: Node, world: State, order: list[Move], hand: int, rollout: Rollout) -> None:
        path, world = self._descend(root, world, order, hand)
        world = rollout.play_on(world, hand, self.horizon - len(path))
        rewards = seat_rewards(self.game, world, {node.seat for node in path})
        for value in rewards.values():
            self.spread.add(value)
        root.visits += 1
        for node in path:
            node.visits += 1
            node.total += rewards[node.seat]

    def _descend(self, root: Node, world: State, order: list[Move], hand: int) -> tuple[list[Node], State]:
        """Walk down the tree, playing its moves in ``world``, and add at most one node; below the
        root, the walk stops before a move that begins another phase of the hand (see
        ``rollout.within_phase``). The path and the position reached."""
        node, path, game = root, [], self.game
        while not world.over and world.current is not None:
            mover = world.current
            moves = legal_moves(game, world, mover)
            if node is root:            # the seat's own moves, in the order of the first look
                rank = {move.text: i for i, move in enumerate(order)}
                moves = sorted((m for m in moves if m.text in rank), key=lambda m: rank[m.text])
            if not moves:
                break
            tried, untried = [], []
            for move in moves:
                child = node.children.get((mover, move.text))
                (untried if child is None else tried).append(move if child is None else (move, child))
            for _, child in tried:
                child.available += 1
            widen = untried and (not tried or len(node.children) < WIDEN * math.sqrt(node.visits + 1))
            if widen:
                move = untried[0] if node is root else untried[self.draw(len(untried))]
            else:
                move, child = self._select(tried)
            after = self._play(world, move, hand, node is root)
            if after is None:
                break
            world = after
            if widen:
                path.append(node.children.setdefault((mover, move.text), Node(mover)))
                return path, world
            node = child
            path.append(node)
            if node.visits < self.expand_after:
                break
        return path, world

    def _play(self, world: State, move: Move, hand: int, at_root: bool) -> State | None:
        if at_root:             # the bot's own move: valued wherever it leads, as the greedy bot does
            apply_move(self.game, world, move, checked=False)
            return world
        return within_phase(self.game, world, move, hand)

    def _select(self, tried: list[tuple[Move, Node]]) -> tuple[Move, Node]:
        """The move with the best upper confidence bound for the seat making it."""
        scale = self.spread.deviation() or 1.0
        best, best_bound = tried[0], -math.inf
        for move, child in tried:
            if not child.visits:
                return move, child
            bound = child.total / child.visits / scale + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if bound > best_bound:
                best, best_bound = (move, child), bound
        return best


class Spread:
    """The standard deviation of the values seen so far (Welford's running sums)."""

    __slots__ = ("count", "mean", "squares")

    def __init__(self):
        self.count, self.mean, self.squares = 0, 0.0, 0.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.squares += delta * (value - self.mean)

    def deviation(self) -> float:
        return math.sqrt(self.squares / self.count) if self.count > 1 else 0.0


def search_budget(text: str) -> dict:
    """The budget written after ``search:``: iterations (``200``) or seconds (``1.5s``)."""
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0 < seconds <= MAX_SECONDS:
                raise ValueError
            return {"seconds": seconds}
        iterations = int(text)
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError
        return {"iterations": iterations}
    except ValueError:
        raise OptionError(f"'search:{text}' is not a budget the search bot takes",
                          hint=f"write iterations (search:200, from 1 to {MAX_ITERATIONS}) or seconds per "
                               f"move (search:1.5s, up to {MAX_SECONDS:g})") from None
