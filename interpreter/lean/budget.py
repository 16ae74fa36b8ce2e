"""The work of an evaluation the lean engine could not bound at load, counted as it runs
(``work.Counted`` writes the calls): never less than the reference counts, so that the lean
engine fails wherever the reference runs out of its budget.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..limits import MAX_EVAL_STEPS
from .runtime import Failed


class OverBudget(Failed):
    """An evaluation counted more work than the reference allows (``Budget``)."""


SIZED = (list, str, dict, tuple)
UNLIMITED = 1 << 62


class Budget:
    """The work of an evaluation whose work is not bounded at load, counted as it runs: never
    less than the reference counts (every loop's items, every call, every item a built-in is
    handed or makes, every list or text made), so that the lean engine fails wherever the
    reference runs out; where it fails and the reference does not, the reference plays that
    step (``engine.LeanGame``). One a module: its evaluations do not overlap."""

    __slots__ = ("left", "full", "memo")

    def __init__(self) -> None:
        self.left = self.full = MAX_EVAL_STEPS
        self.memo: dict = {}

    def fill(self) -> None:
        """A new evaluation: the whole budget, and nothing remembered."""
        self.left = self.full
        self.memo.clear()

    def spend(self, amount: int) -> None:
        self.left -= amount
        if self.left < 0:
            raise OverBudget

    def charged(self, value: Any) -> Any:
        """``value``, its items spent when it is a list, a text or a map."""
        if type(value) in SIZED:
            self.left -= len(value)
            if self.left < 0:
                raise OverBudget
        return value

    def recall(self, function: Any, cost: int, s: Any, *args: Any) -> Any:
        """``function(s, *args)``, worked out once an evaluation for the same arguments (none a
        list or a map), where the reference's memo keeps it; a call found there spends ``cost``
        steps, as the reference's does (one for a call with arguments, none without)."""
        key = (function, args)
        found = self.memo.get(key, self)
        if found is self:
            found = self.memo[key] = function(s, *args)
        else:
            self.spend(cost)
        return found

    @contextmanager
    def unlimited(self) -> Iterator[None]:
        """Work counted without end: once the reference has done the same within its budget."""
        self.full = UNLIMITED
        try:
            yield
        finally:
            self.full = MAX_EVAL_STEPS
