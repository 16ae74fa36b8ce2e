"""A small seeded random number generator whose whole state is one integer.

SplitMix64: fast, good enough for games, and trivially cloned and written to JSON, which
Python's ``random.Random`` (a 625-word state) is not. All randomness in a game comes from here.
"""
from __future__ import annotations

import functools
import struct
import threading
from collections.abc import Callable

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15         # the step between states
LANE = 128                          # the bits of one draw among many worked out at once
DRAWN_AT_ONCE = 64                  # the outputs ``draws`` works out at a time
TOP = 1 << 64
# The largest multiple of n below 2**64 for the bounds draws meet most (the draws below it are
# kept: no modulo bias), worked out once.
LIMITS = [0] + [TOP - TOP % n for n in range(1, 1025)]


class _Drawing(threading.local):
    """While ``source`` is set (``draws_from``), every draw of ``below`` comes from this function of
    the bound instead of the generator, whose state is then left as it was: how chance is made
    explicit (each draw an outcome) for researchers' adapters. None in ordinary play. One per
    thread, as the states being evaluated (``context.evaluating``)."""

    source = None


_drawing = _Drawing()


class draws_from:
    """``with draws_from(pick):`` makes ``pick(n)`` (an integer in [0, n)) decide every draw."""

    __slots__ = ("pick", "saved")

    def __init__(self, pick):
        self.pick = pick

    def __enter__(self):
        self.saved, _drawing.source = _drawing.source, self.pick
        return self

    def __exit__(self, *exc) -> None:
        _drawing.source = self.saved


def seed_state(seed: int) -> int:
    """The generator state for a user's seed (any integer)."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """One 64-bit output and the new state."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) without modulo bias, and the new state."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    source = _drawing.source
    if source is not None:
        return source(n), state
    limit = LIMITS[n] if n <= 1024 else TOP - TOP % n
    while True:
        state = (state + GOLDEN) & MASK         # next_u64 written out: a bot draws at every move
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n, state


def belows(state: int, count: int, n: int) -> tuple[list[int], int]:
    """``count`` draws of ``below(state, n)`` one after another, and the new state (``below``'s
    steps written out: dice are thrown several at a time)."""
    if _drawing.source is not None or not 0 < n <= 1024:
        out = []
        for _ in range(count):
            value, state = below(state, n)
            out.append(value)
        return out, state
    limit, out = LIMITS[n], []
    for _ in range(count):
        while True:
            state = (state + GOLDEN) & MASK         # next_u64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            value = z ^ (z >> 31)
            if value < limit:
                break
        out.append(value % n)
    return out, state


def draws(state: int) -> Callable[[int], int]:
    """``draw(n)``: the draws ``below`` makes from ``state`` on, one after another, the generator's
    outputs worked out a block at a time (``_outputs``): for many draws whose generator no one
    reads after them (a bot's rollout)."""
    block: list[int] = []
    taken = 0

    def draw(n: int) -> int:
        nonlocal block, taken, state
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        source = _drawing.source
        if source is not None:
            return source(n)
        limit = LIMITS[n] if n <= 1024 else TOP - TOP % n
        while True:
            if taken == len(block):
                block, taken = _outputs(state, DRAWN_AT_ONCE), 0
                state = (state + DRAWN_AT_ONCE * GOLDEN) & MASK
            value = block[taken]
            taken += 1
            if value < limit:
                return value % n
    return draw


def shuffled(state: int, items: list) -> tuple[list, int]:
    """A Fisher-Yates shuffled copy of items, and the new state: the draws of ``below``, one for
    each place from the last down (a whole deck is shuffled at every deal, so the draws are worked
    out all at once where none is turned down; ``_one_by_one`` where one is)."""
    out = list(items)
    count = len(out) - 1
    if _drawing.source is not None or not 0 < count < len(LIMITS) - 1:
        return _one_by_one(state, out)
    values = _outputs(state, count)
    # A draw is turned down (no modulo bias) only when it is within 1024 of 2**64: almost never.
    if max(values) >= TOP - 1024 and any(v >= LIMITS[count + 1 - k] for k, v in enumerate(values)):
        return _one_by_one(state, out)
    for i, j in zip(range(count, 0, -1), map(int.__mod__, values, range(count + 1, 1, -1))):
        out[i], out[j] = out[j], out[i]
    return out, (state + count * GOLDEN) & MASK


def _one_by_one(state: int, out: list) -> tuple[list, int]:
    """``shuffled`` with each draw made in turn (``below``'s steps written out)."""
    if _drawing.source is not None:
        for i in range(len(out) - 1, 0, -1):
            j, state = below(state, i + 1)
            out[i], out[j] = out[j], out[i]
        return out, state
    limits = LIMITS
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = limits[n] if n <= 1024 else TOP - TOP % n
        while True:
            state = (state + GOLDEN) & MASK         # next_u64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            value = z ^ (z >> 31)
            if value < limit:
                break
        j = value % n
        out[i], out[j] = out[j], out[i]
    return out, state


def _outputs(state: int, count: int) -> list[int]:
    """The next ``count`` outputs of the generator from ``state``: ``next_u64``'s steps made on
    one integer holding every state, each in a lane of ``LANE`` bits (a product of two 64-bit
    numbers never reaches the next lane; what a shift brings in from the next lane is masked off)."""
    ones, steps, low = _lanes(count)
    z = (state * ones + steps) & low
    z = ((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
    z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
    z = (z ^ (z >> 31)) & low
    return list(struct.unpack(f"<{count * LANE // 64}Q", z.to_bytes(count * LANE // 8, "little"))[::LANE // 64])


@functools.lru_cache(maxsize=64)
def _lanes(count: int) -> tuple[int, int, int]:
    """For ``count`` lanes: a 1 in each, the k-th step (k * GOLDEN) in the k-th, 64 ones in each."""
    ones = sum(1 << (LANE * k) for k in range(count))
    steps = sum((k + 1) * GOLDEN << (LANE * k) for k in range(count))
    return ones, steps, MASK * ones
