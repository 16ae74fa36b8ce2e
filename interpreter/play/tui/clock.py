"""The clocks of the full-screen table: the real one, or a fake one that moves only when the
person acts (``--fake-clock SECONDS``), or one a test sets by hand.

The game's time stands still between hands: ``pause`` when a hand ends, ``resume`` at "Go"
(the time spent reading the hand's scores is not play)."""
from __future__ import annotations

import time


class RealClock:
    def __init__(self, monotonic=time.monotonic) -> None:
        self.monotonic = monotonic
        self.started = monotonic()
        self.paused_at: float | None = None

    def now(self) -> float:
        moment = self.paused_at if self.paused_at is not None else self.monotonic()
        return moment - self.started

    def acted(self) -> None:
        """The person did something (a fake clock moves on)."""

    def pause(self) -> None:
        if self.paused_at is None:
            self.paused_at = self.monotonic()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.started += self.monotonic() - self.paused_at     # the pause is not play
            self.paused_at = None


class StepClock:
    """Each action of the person takes ``step`` seconds; nothing else moves the clock (and no
    action while it is paused, between hands)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.time = 0.0
        self.paused = False

    def now(self) -> float:
        return self.time

    def acted(self) -> None:
        if not self.paused:
            self.time += self.step

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False


class SetClock:
    """A clock for tests: it shows whatever time was last set (pauses are the test's business)."""

    def __init__(self, time: float = 0.0) -> None:
        self.time = time

    def now(self) -> float:
        return self.time

    def acted(self) -> None:
        pass

    def pause(self) -> None:
        pass

    def resume(self) -> None:
        pass
