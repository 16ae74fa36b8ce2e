"""A small seeded random number generator whose whole state is one integer.

SplitMix64: fast, good enough for games, and trivially cloned and written to JSON, which
Python's ``random.Random`` (a 625-word state) is not. All randomness in a game comes from here.
"""
from __future__ import annotations

import threading

MASK = (1 << 64) - 1
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
        state = (state + 0x9E3779B97F4A7C15) & MASK         # next_u64 written out: a bot draws at every move
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n, state


def shuffled(state: int, items: list) -> tuple[list, int]:
    """A Fisher-Yates shuffled copy of items, and the new state: the draws of ``below``, with its
    steps written out (a whole deck is shuffled at every deal)."""
    out = list(items)
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
            state = (state + 0x9E3779B97F4A7C15) & MASK         # next_u64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            value = z ^ (z >> 31)
            if value < limit:
                break
        j = value % n
        out[i], out[j] = out[j], out[i]
    return out, state
