"""The clocks of the full-screen table: the real one, or a fake one that moves only when the
person acts (``--fake-clock SECONDS``), or one a test sets by hand."""
from __future__ import annotations

import time


class RealClock:
    def __init__(self) -> None:
        self.started = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.started

    def acted(self) -> None:
        """The person did something (a fake clock moves on)."""


class StepClock:
    """Each action of the person takes ``step`` seconds; nothing else moves the clock."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.time = 0.0

    def now(self) -> float:
        return self.time

    def acted(self) -> None:
        self.time += self.step


class SetClock:
    """A clock for tests: it shows whatever time was last set."""

    def __init__(self, time: float = 0.0) -> None:
        self.time = time

    def now(self) -> float:
        return self.time

    def acted(self) -> None:
        pass
