"""Chance made explicit: the random draws of a step of play (the setup, or a move and whatever
follows it: a roll, a shuffle, a deal, a ``choose_random``) as outcomes with probabilities.

A step is run once with every draw 0 to learn the bounds of its draws. When their product is
small (a roll of five dice: 6^5) each combination of draws is one outcome, all equally likely,
exactly as the generator would draw them. When it is large (a shuffle of 52 cards) the step is
one sampled chance step: ``SAMPLED`` equally likely outcomes, each a fresh generator state
mixed from the state's own and the outcome's number.
"""
from __future__ import annotations

from typing import Any, Callable, cast

from ..errors import RulesError
from . import rng

MAX_EXPLICIT = 10_000       # more combinations of draws than this: a sampled chance step
SAMPLED = 1024              # the outcomes of a sampled chance step


class ChanceStep:
    """The outcomes of one random step: ``count`` of them, each of probability ``1 / count``."""

    def __init__(self, bounds: list[int], sampled_outcomes: int = SAMPLED, max_explicit: int = MAX_EXPLICIT):
        self.bounds = bounds
        total = 1
        for n in bounds:
            total *= n
            if total > max_explicit:
                break
        self.explicit = total <= max_explicit
        self.count = total if self.explicit else sampled_outcomes
        self._outcomes: list[tuple[int, float]] | None = None

    def probability(self) -> float:
        return 1.0 / self.count

    def outcomes(self) -> list[tuple[int, float]]:
        """Every outcome with its probability (made once: a roll of five dice has 7776)."""
        if self._outcomes is None:
            p = self.probability()
            self._outcomes = [(o, p) for o in range(self.count)]
        return self._outcomes

    def draws(self, outcome: int) -> list[int]:
        """The draws of an explicit outcome, the first draw the most significant digit."""
        digits = []
        for n in reversed(self.bounds):
            outcome, d = divmod(outcome, n)
            digits.append(d)
        return digits[::-1]

    def run(self, step: Callable[[int | None], Any], base: int, outcome: int) -> Any:
        """Run the step with the draws of ``outcome`` and return what it returns. ``step(seed)``
        plays the step; ``seed``, when not None, is the generator state it must draw from (a
        sampled step: mixed from ``base``, the generator state before the step, and the outcome)."""
        if not 0 <= outcome < self.count:
            raise RulesError(f"chance: {outcome} is not an outcome (0 to {self.count - 1})")
        if not self.explicit:
            return step(rng.seed_state((base * 1_000_003 + outcome) & rng.MASK))
        draws = iter(zip(self.draws(outcome), self.bounds))

        def pick(n: int) -> int:
            value, bound = next(draws, (None, None))
            if bound != n:
                raise RulesError("chance: this step's draws depend on its earlier draws; "
                                 "it cannot be split into outcomes")
            return cast(int, value)     # a draw of the outcome: its bound is n
        with rng.draws_from(pick):
            result = step(None)
        if next(draws, None) is not None:
            raise RulesError("chance: this step's draws depend on its earlier draws; it cannot be split into outcomes")
        return result


def bounds_of(step: Callable[[int | None], Any]) -> tuple[list[int], Any]:
    """The bounds of the draws ``step(None)`` makes with every draw 0, and what it returned."""
    bounds: list[int] = []

    def record(n: int) -> int:
        bounds.append(n)
        return 0
    with rng.draws_from(record):
        result = step(None)
    return bounds, result
