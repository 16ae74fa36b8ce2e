"""The table's one clock: seconds since the table started, read when a message arrives.

``RealClock`` is the machine's monotonic clock; ``FakeClock`` advances a fixed step each time it
is read, so a game played through the server is exactly reproducible (tests, scripted games).
"""
from __future__ import annotations

import time


class RealClock:
    fake = False

    def __init__(self, start: float = 0.0):
        self._origin = time.monotonic() - start

    def now(self) -> float:
        return time.monotonic() - self._origin


class FakeClock:
    """Each reading is ``step`` seconds after the one before."""
    fake = True

    def __init__(self, step: float = 1.0, start: float = 0.0):
        self.step = step
        self.time = start

    def now(self) -> float:
        self.time += self.step
        return self.time
