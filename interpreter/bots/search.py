"""The search bot: information-set Monte Carlo tree search, from one seat's point of view.

Each iteration guesses the cards the seat cannot see, dealing them again consistently with what
it has observed (``determinize.sample_state``; dice to come are guessed too), and walks one tree
of moves shared by every guess. At each node the seat to move takes, among the moves legal in
this guess, the one with the best upper confidence bound (UCB1 counting how often each move was
available, since a move legal in one guess may not be in another); the first untried move is
added to the tree (the moves after a node join it only once the node has been visited often
enough), random moves may be played beyond it (none by default), and the position reached is
valued for the seats that moved. The bot plays the move of the root worth most, among those tried
often enough.

A position's value for a seat is its ``bot.hint``, which a game writes as the seat's standing (the
greedy bot maximises the same); without a hint, its score minus the best score of another team.
Values are scaled to [0, 1] by the lowest and highest seen in this search, so that one exploration
constant serves every game.
"""
from __future__ import annotations

import math
import time
from typing import Any

from ..engine import apply_move, legal_moves
from ..engine.moves import Move
from ..engine.state import State
from ..errors import OptionError
from .bot import Bot, seat_value, seat_values
from .determinize import sample_state

DEFAULT_ITERATIONS = 200
ROLLOUT_MOVES = 0       # random moves played beyond the tree before the position is valued
EXPLORATION = 0.25      # the UCB1 constant, for values scaled to [0, 1]
EXPAND_AFTER = 50       # visits a node needs before the moves after it join the tree
SETTLED = 20            # visits after which a continuation's worth stands for its move's
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0


class Node:
    """A move in the tree: who made it, how often it was tried and available, the total value seen
    below it and of the positions right after it."""

    __slots__ = ("seat", "children", "visits", "available", "total", "leaf_visits", "leaf_total")

    def __init__(self, seat: int):
        self.seat = seat
        self.children: dict[tuple[int, str], Node] = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0
        self.leaf_visits = 0        # the values of the positions right after this move
        self.leaf_total = 0.0


class SearchBot(Bot):
    kind = "search"

    def __init__(self, game: Any, seat: int, seed: int = 0, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float | None = None, rollout: int = ROLLOUT_MOVES, expand_after: int = EXPAND_AFTER):
        super().__init__(game, seat, seed)
        if any(phase.turns is None for phase in game.phases):
            raise OptionError(f"the search bot plays games with turns; {game.name} has free play",
                              hint="use the priority or greedy bot")
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.expand_after = expand_after
        self.low = self.high = 0.0      # the lowest and highest value seen in this search

    def choose(self, state: State, moves: list[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        root = Node(self.seat)
        self.low = self.high = 0.0
        allowed = {move.text for move in moves}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self._budget_left(done, deadline):
            world = sample_state(self.game, state, self.seat, self.draw(1 << 30))
            self._iterate(root, world, allowed)
            done += 1
        return self._best(root, moves)

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        """Another iteration? Under a time budget, always at least one."""
        if deadline is None:
            return done < self.iterations
        return done == 0 or time.perf_counter() < deadline

    def _best(self, root: Node, moves: list[Move]) -> Move:
        """The move worth most among those tried at least a quarter as often as the most tried
        (a move tried once or twice may look better than it is)."""
        tried = {m.text: root.children[(self.seat, m.text)] for m in moves if (self.seat, m.text) in root.children}
        most = max((child.visits for child in tried.values()), default=0)
        candidates = [m for m in moves if m.text in tried and 4 * tried[m.text].visits >= most]
        if not candidates:
            return moves[0]
        return max(candidates, key=lambda m: worth(tried[m.text]))     # ties: the first in the legal order

    def _iterate(self, root: Node, world: State, allowed: set[str]) -> None:
        path = self._descend(root, world, allowed)
        self._play_out(world)
        rewards = self._rewards(world, {node.seat for node in path})
        for node in path:
            node.visits += 1
            node.total += rewards[node.seat]
        if path:
            path[-1].leaf_visits += 1
            path[-1].leaf_total += rewards[path[-1].seat]

    def _descend(self, root: Node, world: State, allowed: set[str]) -> list[Node]:
        """Walk down the tree, playing its moves in ``world``, and add one node."""
        node, path, game = root, [], self.game
        while not world.over and world.current is not None:
            mover = world.current
            moves = legal_moves(game, world, mover)
            if node is root:
                moves = [m for m in moves if m.text in allowed]
            if not moves:
                break
            untried = []
            for move in moves:
                child = node.children.get((mover, move.text))
                if child is None:
                    untried.append(move)
                else:
                    child.available += 1
            if untried:
                move = untried[self.draw(len(untried))]
                child = node.children[(mover, move.text)] = Node(mover)
                apply_move(game, world, move, checked=False)
                path.append(child)
                return path
            move, node = self._select(node, mover, moves)
            apply_move(game, world, move, checked=False)
            path.append(node)
            if node.visits < self.expand_after:
                break
        return path

    def _select(self, node: Node, mover: int, moves: list[Move]) -> tuple[Move, Node]:
        """The move with the best upper confidence bound for the seat making it."""
        span = (self.high - self.low) or 1.0
        best, best_bound = None, -math.inf
        for move in moves:
            child = node.children[(mover, move.text)]
            mean = (worth(child) - self.low) / span
            bound = mean + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if bound > best_bound:
                best, best_bound = (move, child), bound
        return best

    def _play_out(self, world: State) -> None:
        for _ in range(self.rollout):
            if world.over or world.current is None:
                return
            moves = legal_moves(self.game, world, world.current)
            if not moves:
                return
            apply_move(self.game, world, moves[self.draw(len(moves))], checked=False)

    def _rewards(self, world: State, seats: set[int]) -> dict[int, float]:
        """How good ``world`` is for each of ``seats``: its bot hint, which a game writes as the
        seat's standing; without one, its score minus the best score of another team."""
        game = self.game
        if game.hint is not None:
            rewards = {seat: seat_value(game, world, seat) for seat in seats}
        else:
            values = seat_values(game, world)
            teams = [game.team_of(world, s) for s in range(world.players)]
            rewards = {}
            for seat in seats:
                others = [v for s, v in enumerate(values) if teams[s] != teams[seat]]
                rewards[seat] = values[seat] - max(others) if others else values[seat]
        if rewards:
            self.low = min(self.low, min(rewards.values()))
            self.high = max(self.high, max(rewards.values()))
        return rewards


def worth(node: Node) -> float:
    """What a move is worth to the seat that made it. When that seat moves again next (throwing
    again, say), it will take its best continuation: the move is worth what the most tried of
    them is worth, once that one has been tried often enough, and until then what the positions
    right after the move were worth. When another seat moves next, it is the mean of every value
    seen below the move."""
    tried = [child for child in node.children.values() if child.visits]
    if tried and all(child.seat == node.seat for child in tried):
        top = max(tried, key=lambda child: child.visits)
        return worth(top) if top.visits >= SETTLED else node.leaf_total / node.leaf_visits
    return node.total / node.visits


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
