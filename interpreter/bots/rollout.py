"""What the search bot does after the move it tries: play a guessed position on with a cheap
policy, and value the position reached for each seat.

The policy is the greedy bot's, with one guess of the chance a move meets where the greedy bot
makes four: the seat to move looks at its moves (at most ``CANDIDATES``, drawn at random) and
takes the one after which its hint values its position most. A policy as good as the greedy bot
makes the search an improvement on it: a rollout that plays worse than greedy values the moves
the search compares by lines no greedy player would follow. (Epsilon-greedy, ``GREEDY_SHARE``
below 1, plays any legal move now and then.) Each move is looked at in a copy of the position
whose random generator is drawn afresh, so the dice a move throws are guessed, never read from
the guess being played on: the policy cannot know which throw will come.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .ops import ReferenceOps

if TYPE_CHECKING:
    from ..engine.game import Game
    from .ops import LeanOps

GREEDY_SHARE = 1.0      # how often a rollout move is the best by the hint of those looked at (else any move)
CANDIDATES = 64         # moves looked at for such a move (all: a bundled game offers 42 at most)
SHARE_STEPS = 1000


class Rollout:
    """Plays guessed positions on, drawing its choices from ``draw``, through ``ops`` (the engine:
    ``ops.ReferenceOps`` or ``ops.LeanOps``)."""

    def __init__(self, ops: ReferenceOps | LeanOps | Game, draw: Callable[[int], int],
                 greedy_share: float = GREEDY_SHARE, candidates: int = CANDIDATES):
        self.ops = as_ops(ops)
        self.draw = draw
        self.greedy_share = greedy_share
        self.candidates = candidates
        self.last_phase = len(self.ops.game.phases) - 1

    def play_on(self, world: Any, hand: int, moves_left: int, through_phases: bool = False) -> Any:
        """``world`` played on, at most ``moves_left`` moves, stopping at the end of the game or of
        the hand (the round ``hand``), where free play would begin, or just before a new phase of
        the hand (``begins_a_phase``) unless ``through_phases``. ``world`` is the rollout's own: a
        move is played on it in place where the position before the move is not needed again
        (through the phases, or in the hand's last phase, where no move begins another phase of
        the hand: a hand's phases come in order)."""
        ops = self.ops
        for _ in range(moves_left):
            if world.over or world.current is None or world.round != hand:
                return world
            moves = ops.legal(world)
            if not moves:
                return world
            move, after = self._pick(world, moves)
            if after is None and (through_phases or world.phase == self.last_phase):
                ops.play(world, move)
                continue
            if after is None:
                after = played(ops, world, move)
            if not through_phases and begins_a_phase(world, after, hand):
                return world
            world = after
        return world

    def _pick(self, world: Any, moves: list) -> tuple[Any, Any]:
        """The move the policy plays, and the position after it where looking at the move made
        it already (else None)."""
        if len(moves) == 1:
            return moves[0], None
        if self.draw(SHARE_STEPS) >= self.greedy_share * SHARE_STEPS:
            return moves[self.draw(len(moves))], None
        pool = list(moves)
        looked = [pool.pop(self.draw(len(pool))) for _ in range(min(self.candidates, len(pool)))]
        seat, best, best_value, best_after = world.current, None, 0.0, None
        look, draw = self.ops.look, self.draw
        for move in looked:     # the first of the best, as ``max`` takes it
            value, after = look(world, move, seat, draw(1 << 30))      # ``looked_at``
            if best is None or value > best_value:
                best, best_value, best_after = move, value, after
        return best, best_after


def begins_a_phase(world: Any, after: Any, hand: int) -> bool:
    """Whether the move from ``world`` to ``after`` begins another phase of the hand. A game's
    hint may value the phases of a hand on different scales (an auction by the contract's risk,
    the play by the cards, the contract forgotten): values are compared within one phase, or at
    the end of the hand, where the hand's result stands."""
    return after.round == hand and not after.over and after.phase != world.phase


def played(ops: ReferenceOps | LeanOps, world: Any, move: Any) -> Any:
    """A copy of ``world`` after ``move``."""
    after = ops.clone(world)
    ops.play(after, move)
    return after


def value_after(ops: ReferenceOps | LeanOps | Game, world: Any, move: Any, seat: int,
                draw: Callable[[int], int]) -> float:
    """The hint of ``seat`` after ``move``, in a copy of ``world`` whose chance is drawn afresh."""
    return looked_at(as_ops(ops), world, move, seat, draw)[0]


def looked_at(ops: ReferenceOps | LeanOps, world: Any, move: Any, seat: int,
              draw: Callable[[int], int]) -> tuple[float, Any]:
    """``value_after``, and the copy it played the move in when the move drew no chance (then
    the copy is ``played(ops, world, move)``, its generator given back), else None."""
    return ops.look(world, move, seat, draw(1 << 30))


def seat_rewards(ops: ReferenceOps | LeanOps, world: Any, seats: set[int]) -> dict[int, float]:
    """How good ``world`` is for each of ``seats``: its bot hint, which a game writes as the seat's
    standing; without one, its score minus the best score of another team."""
    if ops.hint:
        return {seat: ops.value(world, seat) for seat in seats}
    values = ops.values(world)
    teams = [ops.team_of(world, s) for s in range(world.players)]
    rewards = {}
    for seat in seats:
        others = [v for s, v in enumerate(values) if teams[s] != teams[seat]]
        rewards[seat] = values[seat] - max(others) if others else values[seat]
    return rewards


def as_ops(ops_or_game: Any) -> ReferenceOps | LeanOps:
    """The ops given, or a compiled game's reference ops."""
    return ops_or_game if hasattr(ops_or_game, "play") else ReferenceOps(ops_or_game)
