"""The search bot: Monte Carlo search from one seat's point of view, its budget spent by
sequential halving over the seat's moves, every move compared on the same guesses.

1. **First look.** Each legal move is valued as the greedy bot values it: the hint after the move,
   added up over ``LOOK_SAMPLES`` guesses of what the seat cannot see (``determinize.sample_state``;
   dice to come are guessed too), the same guesses for every move. The best moves by that look
   are the candidates: as many as the budget can tell apart, the largest ``n`` with
   ``n * ceil(log2 n)`` rollouts at most the budget, so that a large set of moves (every subset
   of dice to throw again) is not spread thin.
2. **Sweeps.** A sweep makes one guess and plays each candidate in it: the move, then the game
   played on (``rollout.play_on``) to the end of the hand (the round), to the end of the game, or
   to ``horizon`` moves from the root (the game's ``bot.phase_horizons`` for the phase of the
   decision, else its ``bot.horizon``, else ``HORIZON``), each seat playing as the greedy bot
   does; a horizon of ``HAND`` plays the hand out through its phases. The position reached is
   valued by the seat's own standing (``rollout.seat_rewards``). Every candidate of a sweep
   meets the same guess and the same rollout generator (common random numbers): what tells two
   moves apart is more what they do and less the luck each one met.
3. **Halving.** The budget is spent in ``ceil(log2 n)`` rounds, each shared evenly among the
   candidates left (a round spends at most a ``ceil(log2 n)``-th of the budget, so a little of it
   may be left unspent); after a round the worse half of them, by their mean value over every
   sweep so far, is dropped (sequential halving: Karnin, Koren and Somekh, 2013). The rollouts
   go to telling the best moves apart, not to confirming that the worst are bad.

The bot plays the candidate left worth most. Under a time budget, the first rollout's time sets
how many rollouts fit in it; the search stops at the deadline in any case. A guess that the rules
cannot play a candidate on (a redeal the rules would not have dealt, met only far down a line)
is given up for that candidate and counts in the budget.
"""
from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any, Callable, cast

from ..engine import rng
from ..engine.moves import Move
from ..engine.state import State
from ..errors import OptionError, RulesError
from .bot import Bot
from .ops import decided, lean_ops
from .rollout import Rollout, seat_rewards

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.loaded import LoadedGame
    from ..lean.engine import LeanGame
    from .ops import LeanOps, ReferenceOps

DEFAULT_ITERATIONS = 200
HORIZON = 3             # moves from the root after which a rollout stops (unless the hand ends first),
                        # where the game's ``bot.horizon`` does not say
HAND = "hand"           # a horizon: the rollout plays to the end of the hand, through its phases,
HAND_MOVES = 1000       # at most this many moves (a longer hand is valued where the rollout stops)
LOOK_SAMPLES = 4        # guesses the first look adds the hint over, as the greedy bot does
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0


class Arm:
    """A candidate move: the total value its rollouts reached, and how many they were."""

    __slots__ = ("total", "count")

    def __init__(self):
        self.total, self.count = 0.0, 0

    def mean(self) -> float:
        return self.total / self.count if self.count else -math.inf


class SearchBot(Bot):
    kind = "search"
    plays_lean = True

    def __init__(self, game: Game | LoadedGame, seat: int, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, horizon: int | None = None, mistakes: float = 0.0):
        super().__init__(game, seat, seed, mistakes)
        game = self.game
        if any(phase.turns is None for phase in game.phases):
            raise OptionError(f"the search bot plays games with turns; {game.name} has free play",
                              hint="use the priority or greedy bot")
        # Iterations, seconds, or both (whichever runs out first); seconds alone: as many as fit.
        if iterations is None:
            iterations = DEFAULT_ITERATIONS if seconds is None else MAX_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        # A horizon given here holds in every phase; else the game's, phase by phase.
        self.horizon = horizon or game.bot_horizon or HORIZON
        self.phase_horizons = {} if horizon else game.bot_phase_horizons
        self.done = 0                   # rollouts of the last search (given-up guesses included)
        self.given_up = 0               # of which guesses the rules could not play on
        self.arms: dict = {}            # the last search's rollouts of each move, by its text (an action, lean)
        self.ops: Any = None            # the engine it searches with (``ops``)

    def decide(self, state: State, moves: list[Move]) -> Move:
        return decided(self.game, state, moves, self._search)

    def decide_action(self, lean: LeanGame, state: Any, actions: list[int]) -> int:
        return self._search(lean_ops(lean), state, actions)

    def _search(self, ops: ReferenceOps | LeanOps, state: Any, moves: list) -> Any:
        self.done = self.given_up = 0
        self.arms = {}
        if len(moves) == 1:
            return moves[0]
        self.ops = ops
        started = time.perf_counter()   # the first look counts in a time budget
        order = self._first_look(state, moves)
        arms = self.arms = {ops.key(move): Arm() for move in order}
        first_sweep = self._new_sweep(state)
        began = time.perf_counter()
        self._roll(state, order[0], first_sweep, arms)
        budget = self._budget_fitting(started, time.perf_counter() - began)
        candidates = order[:candidate_count(budget, len(order))]
        self._halve(state, candidates, arms, budget, first_sweep, started)
        self.arms = {ops.text(move): arms[ops.key(move)] for move in order}      # by the moves' texts
        return max(candidates, key=lambda move: arms[ops.key(move)].mean())

    def horizon_at(self, phase: int) -> int | str:
        """The horizon of a decision in ``phase`` (an index of ``game.phases``): moves, or ``HAND``."""
        return self.phase_horizons.get(phase, self.horizon)

    def _first_look(self, state: Any, moves: list) -> list:
        """``moves`` from the most promising to the least, by the hint after each over the same
        ``LOOK_SAMPLES`` guesses; a move that a guess cannot play comes last."""
        ops = self.ops
        guesses = [ops.guess(state, self.seat, self.draw(1 << 30)) for _ in range(LOOK_SAMPLES)]
        values = {}
        for move in moves:
            try:
                values[ops.key(move)] = sum(self._hint_after(guess, move) for guess in guesses)
            except RulesError:
                values[ops.key(move)] = -math.inf
        return sorted(moves, key=lambda move: -values[ops.key(move)])

    def _hint_after(self, guess: Any, move: Any) -> float:
        after = self.ops.clone(guess)
        self.ops.play(after, move)
        return self.ops.value(after, self.seat)

    def _budget_fitting(self, started: float, pace: float) -> int:
        """The rollouts of this search: its ``iterations``, or fewer where they would not fit in
        what is left of its seconds at ``pace``, the time of the first rollout."""
        if self.seconds is None:
            return self.iterations
        left = self.seconds - (time.perf_counter() - started)
        return max(1, min(self.iterations, self.done + int(left / max(pace, 1e-9))))

    def _halve(self, state: Any, candidates: list, arms: dict, budget: int,
               sweep: tuple[Any, int], started: float) -> None:
        """Spend ``budget`` in rounds over ``candidates``, keeping the better half after each;
        ``candidates`` is left holding the moves still in. ``sweep`` is the first sweep, whose
        rollout of the first candidate is made."""
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        deadline = None if self.seconds is None else started + self.seconds
        made = candidates[0]
        while len(candidates) > 1 and self.done < budget:
            # Karnin's share: each round may spend a ``rounds``-th of the budget (some is left over).
            for _ in range(max(1, budget // (len(candidates) * rounds))):
                if self.done >= budget:
                    break
                if made is None:
                    sweep = self._new_sweep(state)
                for move in candidates:
                    if deadline is not None and time.perf_counter() >= deadline:
                        return
                    if move is not made:
                        self._roll(state, move, sweep, arms)
                made = None
            if self.done < budget:
                candidates.sort(key=lambda move: -arms[self.ops.key(move)].mean())
                del candidates[math.ceil(len(candidates) / 2):]

    def _new_sweep(self, state: Any) -> tuple[Any, int]:
        """A sweep: its guess (made once, copied for each candidate), and its rollouts' seed."""
        return self.ops.guess(state, self.seat, self.draw(1 << 30)), self.draw(1 << 30)

    def _roll(self, state: Any, move: Any, sweep: tuple[Any, int], arms: dict) -> None:
        """One rollout of ``move`` in the sweep's guess, added to the move's arm."""
        guess, choice_seed = sweep
        ops = self.ops
        self.done += 1
        try:
            world = ops.clone(guess)
            ops.play(world, move)       # valued wherever it leads, as greedy does
            policy, horizon = Rollout(ops, seeded_draw(choice_seed)), self.horizon_at(state.phase)
            if horizon == HAND:
                world = policy.play_on(world, state.round, HAND_MOVES, through_phases=True)
            else:
                world = policy.play_on(world, state.round, cast(int, horizon) - 1)     # a number of moves
            value = seat_rewards(ops, world, {self.seat})[self.seat]
        except RulesError:
            self.given_up += 1
            return
        arm = arms[ops.key(move)]
        arm.total += value
        arm.count += 1


def candidate_count(budget: int, moves: int) -> int:
    """How many of ``moves`` a budget of rollouts can halve down to one: the largest ``n`` with
    ``n * ceil(log2 n)`` at most ``budget`` (two at least, when there are two)."""
    n = 2
    while n < moves and (n + 1) * math.ceil(math.log2(n + 1)) <= budget:
        n += 1
    return min(n, moves)


def seeded_draw(seed: int) -> Callable[[int], int]:
    """``draw(n)``: an integer in [0, n) from a generator of its own, seeded with ``seed``."""
    return rng.draws(rng.seed_state(seed))


def search_budget(text: str) -> dict:
    """The budget written after ``search:``: rollouts (``200``) or seconds (``1.5s``)."""
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
                          hint=f"write rollouts (search:200, from 1 to {MAX_ITERATIONS}) or seconds per "
                               f"move (search:1.5s, up to {MAX_SECONDS:g})") from None
