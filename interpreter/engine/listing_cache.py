"""Each seat's legal moves kept from one listing to the next while nothing they read changes.

In free play every seat is asked whether it may act after every move, and the seat that acts
has its moves listed; most of what a seat's moves read (its own piles) has not changed since the
last time. ``reads.move_reads`` says, for each move, which parts of a state its listing reads.
For each seat this cache keeps the moves found for each move name, and a copy of the parts they
read taken when they were found. When the seat is listed again, each part is compared with its
copy; the moves of a name whose parts all compare equal are given again, the others are listed
afresh (their parts copied again). A comparison, not a record of changes: whatever changed the
state (a move, the flow, a scenario's start, a test writing into it), an equal part is an equal
part, and the listing of a move depends on nothing but the parts it reads.

The cache lives on the state (``State.listings``: never cloned, serialised or compared), so it
ends with it. ``MODE`` (a context variable: ``with listing_cache.mode("all"):``) says where it is
used: ``"free"`` (phases without turns, the default), ``"all"`` (every listing: the tests use it
to check the reads of every game) or ``"off"``.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Callable

from .reads import ME, move_reads
from .values import ZoneRef, copy_value

if TYPE_CHECKING:
    from .state import State

MODES = ("free", "all", "off")
MODE: ContextVar[str] = ContextVar("listing_cache_mode", default="free")
_MISSING = object()


@contextlib.contextmanager
def mode(name: str) -> Iterator[None]:
    """The cache used in ``name``'s way (one of ``MODES``) while the block runs, in this context."""
    if name not in MODES:
        raise ValueError(f"the listing cache's mode is one of {', '.join(MODES)}, not '{name}'")
    token = MODE.set(name)
    try:
        yield
    finally:
        MODE.reset(token)


def enabled(state: State) -> bool:
    used = MODE.get()
    return used == "all" or used == "free" and state.current is None


def for_seat(game: Any, state: State, seat: int, compare: bool = True) -> "SeatCache":
    """The cache of ``seat``'s listings in ``state``, its stale entries dropped. ``compare=False``:
    the caller compared this seat's parts in this very state a moment ago (``acting_seats``, then
    the acting seat's listing), and nothing has changed since: they are not compared again."""
    tables = state.listings
    if tables is None or tables.game is not game:
        tables = state.listings = _StateCache(game, state.players)
    cache = tables.seats[seat]
    if cache is None:
        cache = tables.seats[seat] = SeatCache(game, state, seat)
        compare = True
    if compare:
        cache.refresh(state)
    return cache


class _StateCache:
    __slots__ = ("game", "seats")

    def __init__(self, game: Any, players: int):
        self.game = game
        self.seats: list[SeatCache | None] = [None] * players

    def __reduce__(self):
        # A state pickled or deep-copied goes without its cache (made again when needed).
        return _no_cache, ()


def _no_cache() -> None:
    return None


class SeatCache:
    """One seat's moves by move name, and the parts of the state they were found in."""

    def __init__(self, game: Any, state: State, seat: int):
        plan = move_reads(game)
        parts: dict[tuple, int] = {}
        self.getters: list[Callable[[Any], Any]] = []
        self.strict: list[bool] = []            # compared by ``same_value``, else by ``==``
        self.copies: list[Callable[[Any], Any]] = []
        self.users: list[list[str]] = []        # for each part, the move names that read it
        self.bounded: set[str] = set()          # the moves whose reads are known
        for name, reads in plan.items():
            if reads is None:
                continue
            self.bounded.add(name)
            for key in sorted(reads, key=str):
                concrete = _concrete(game, key, seat)
                if concrete not in parts:
                    parts[concrete] = len(self.getters)
                    get, strict, copy = _part(game, concrete, state.players)
                    self.getters.append(get)
                    self.strict.append(strict)
                    self.copies.append(copy)
                    self.users.append([])
                self.users[parts[concrete]].append(name)
        self.saved: list[Any] = [_MISSING] * len(self.getters)
        self.seen = False       # whether every part has a copy (none is ``_MISSING``)
        self.strict_parts = [i for i, strict in enumerate(self.strict) if strict]
        self.entries: dict[str, tuple[bool, list]] = {}    # name -> (all of them, the moves)

    def refresh(self, state: State) -> None:
        """Drop the entries of every move that reads a part that is not what it was."""
        saved = self.saved
        now = [get(state) for get in self.getters]
        if self.seen and now == saved:
            # Every part equal by ``==`` (compared at once): those compared strictly (``1`` and
            # ``1.0`` are equal) are compared again one by one.
            for i in self.strict_parts:
                if not same_value(now[i], saved[i]):
                    self._changed(i, now[i])
            return
        strict = self.strict
        for i, value in enumerate(now):
            before = saved[i]
            if before is _MISSING or (not same_value(value, before) if strict[i] else value != before):
                self._changed(i, value)
        self.seen = True        # every part has its copy now

    def _changed(self, i: int, value: Any) -> None:
        """Part ``i`` is now ``value``: copied, and the entries of the moves that read it dropped."""
        self.saved[i] = self.copies[i](value)
        entries = self.entries
        for name in self.users[i]:
            entries.pop(name, None)

    def get(self, name: str, first_only: bool) -> list | None:
        """The moves of ``name`` found before (one of them is enough with ``first_only``), or None."""
        entry = self.entries.get(name)
        if entry is None or not (entry[0] or first_only):
            return None
        return entry[1]

    def put(self, name: str, moves: list, complete: bool) -> None:
        """The moves of ``name`` just found: all of them, or (not ``complete``) the first one."""
        if name in self.bounded:
            self.entries[name] = (complete, moves)


def _concrete(game: Any, key: tuple, seat: int) -> tuple:
    """A key of ``reads`` for this seat: the part of a state it names."""
    kind = key[0]
    if kind == "pile":
        _pile, zone, owner = key
        if owner == ME and game.zones[zone].per == "seat":
            return ("own", zone, seat)
        return ("zone", zone)
    if kind == "seatvar":
        return ("seatvar", key[1], seat) if key[2] == ME else ("seatvars", key[1])
    if kind == "teamvar":
        return ("teamvars", key[1])
    return key


def _part(game: Any, key: tuple, players: int) -> tuple[Callable, bool, Callable]:
    """How to read a part of a state, whether it is compared strictly (``same_value``) or by
    ``==``, and how to copy it. Piles hold card ids (and None for a grid's empty slot), the
    face-up set card ids, the dice ints: ``==`` is exact for them."""
    kind = key[0]
    if kind == "own":
        zone, seat = key[1], key[2]
        if zone not in game.pile_counts:        # one pile per seat: compared as it is
            return (lambda state: state.zones[zone][seat]), False, list

        def own(state):
            piles = state.zones[zone]
            each = len(piles) // players
            return piles[seat * each:(seat + 1) * each]
        return own, False, _copy_piles
    if kind == "zone":
        zone = key[1]
        return (lambda state: state.zones[zone]), False, _copy_piles
    if kind == "allpiles":
        return (lambda state: state.zones), False, (lambda zones: {k: _copy_piles(v) for k, v in zones.items()})
    if kind == "var":
        name = key[1]
        return (lambda state: state.vars.get(name, _MISSING)), True, copy_value
    if kind == "seatvar":
        name, seat = key[1], key[2]
        return (lambda state: state.seat_vars[seat].get(name, _MISSING)), True, copy_value
    if kind in ("seatvars", "teamvars"):
        name, field = key[1], "seat_vars" if kind == "seatvars" else "team_vars"
        return (lambda state: [v.get(name, _MISSING) for v in getattr(state, field)]), True, copy_value
    if kind == "flow":
        attribute = key[1]
        return (lambda state: getattr(state, attribute)), True, copy_value
    if kind == "face":
        return (lambda state: state.face_up), False, set
    if kind == "dice":
        return (lambda state: state.dice), False, list
    raise ValueError(f"unknown part of a state {key!r}")


def _copy_piles(piles: list) -> list:
    return [list(pile) for pile in piles]


def same_value(a: Any, b: Any) -> bool:
    """Whether two stored values are the same: equal, and of the same types all through (``1``,
    ``1.0`` and ``true`` are equal in Python, but not the same value to an expression)."""
    if type(a) is not type(b):
        return False
    if type(a) is int or type(a) is str:        # the common case, first
        return a == b
    if type(a) is list:
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        # In order: a map's keys are listed in the order they were set.
        return len(a) == len(b) and all(same_value(k, j) and same_value(v, w)
                                        for (k, v), (j, w) in zip(a.items(), b.items()))
    if type(a) is ZoneRef:      # its numbering is part of its text, not of its equality
        return a == b and a.numbered == b.numbered
    return a == b
