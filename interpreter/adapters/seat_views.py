"""What a seat of an ``ActionSession`` sees: its observation (the view's text and tensor), and its
information state (a digest of everything it observed and chose, and a tensor of its views and
actions over its last events). A part of ``ActionSession``, kept apart as its own job."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from ..engine.observe import TEXT_FORMAT, observation_text, observation_view
from ..engine.state import State

# The most information states a setup remembers by history; past it, it forgets them all (a
# solver that walks the tree again meets the same histories, a long sampled game rarely does).
KNOWN_STATES = 1 << 16


def _digest(chain: str, text: str) -> str:
    return hashlib.sha256((chain + "\n" + text).encode()).hexdigest()


class SeatViews:
    """The seats' observations and information states of a session (``ActionSession`` holds the
    attributes named here)."""

    setup: Any         # the session's ``Setup`` (its module imports this one)
    world: Any
    seat: int | None
    prefix: tuple[int, ...]
    history: list[tuple[int, int]]
    resampled_at: Any
    chains: list[str]
    folded: list[int]
    trail: list[tuple]
    recalled: list[tuple[tuple[float, ...], ...]]

    def _reference(self) -> State:
        """The game as the reference engine keeps it (``ActionSession.state``), once it is dealt."""
        return self.setup.states.reference(self.world)

    def _digest_of(self, seat: int) -> str:
        """``_fold``, remembered by the history where the history decides it."""
        if self.resampled_at is not None:
            return self._fold(seat)
        known = self.setup.known_digests
        key = (seat, *self.history)
        digest = known.get(key)
        if digest is None:
            if len(known) >= KNOWN_STATES:
                known.clear()
            digest = known[key] = self._fold(seat)
        return digest

    def _fold(self, seat: int) -> str:
        """The seat's digest of every event so far: each state it saw (as its observation) and
        the actions of each move it chose."""
        trail, start, chain = self.trail, self.folded[seat], self.chains[seat]
        for k in range(len(trail) - 1, start - 1, -1):       # the newest digest a copy has made
            made = trail[k][-1].get(seat)
            if made is not None:
                start, chain = k + 1, made
                break
        for event in trail[start:]:
            if event[0] == "seen":
                chain = _digest(chain, observation_text(self.setup.game, self.setup.states.reference(event[1]), seat))
            elif event[1] == seat:
                chain = _digest(chain, json.dumps(event[2]))
            event[-1][seat] = chain
        self.chains[seat], self.folded[seat] = chain, len(trail)
        return chain

    # -- what a seat sees --------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        seen = observation_view(self.setup.game, self._reference(), seat)
        if seat is not None and seat == self.seat and self.prefix:
            seen["choosing"] = [self.setup.actions.text(a) for a in self.prefix]
        return seen

    def observation_string(self, seat: int | None) -> str:
        if self.world is None:
            return json.dumps({"setup": "to be drawn"}, **TEXT_FORMAT)
        return json.dumps(self.view(seat), **TEXT_FORMAT)

    def information_state_string(self, seat: int) -> str:
        mine = [self.setup.actions.text(a) for a in self.prefix] if seat == self.seat else []
        return f"{self._digest_of(seat)} {json.dumps(mine, **TEXT_FORMAT)}"

    def observation_tensor(self, seat: int | None) -> list[float]:
        if self.world is None:
            return [0.0] * self.setup.observation_size
        return self._layout_tensor(self._reference(), seat) + self._choosing(seat)

    def information_state_tensor(self, seat: int) -> list[float]:
        """The seat's row of each of its last ``history`` events (a state the game settled in:
        the setup, each move with its chance step), oldest first, zeros for events not yet
        happened; then its choices in progress as in the observation tensor. A row is the layout
        part of the seat's observation tensor after the event, then the actions of the event's
        move when the seat made it."""
        rows = self._recent_rows(seat)
        out = [x for row in rows for x in row]
        out += [0.0] * ((self.setup.history_events - len(rows)) * self.setup.event_size)
        return out + self._choosing(seat)

    def _layout_tensor(self, state: State, seat: int | None) -> list[float]:
        return self.setup.layout.encode(observation_view(self.setup.game, state, seat), seat)

    def _choosing(self, seat: int | None) -> list[float]:
        """1 for each action of the seat's move in progress."""
        choosing = [0.0] * self.setup.choosing_size
        if seat == self.seat:
            for a in self.prefix:
                choosing[a] = 1.0
        return choosing

    def _recent_rows(self, seat: int) -> list[tuple[float, ...]]:
        """The seat's rows of its last ``history`` events, oldest first: those of the trail,
        after those recalled from before it."""
        keep, trail = self.setup.history_events, self.trail
        rows: list[tuple[float, ...]] = []
        for k in range(len(trail) - 1, -1, -1):
            if len(rows) == keep:
                break
            if trail[k][0] == "seen":
                rows.append(self._event_row(k, seat))
        rows.reverse()
        missing = keep - len(rows)
        return rows if missing == 0 else [*self.recalled[seat][-missing:], *rows]

    def _event_row(self, k: int, seat: int) -> tuple[float, ...]:
        """The seat's row of the trail's state event ``k``, made once for every copy holding it:
        its view after the event, then the actions of the move that led to it if the seat chose
        them (the ``chose`` event just before)."""
        event = self.trail[k]
        made = event[2].get(seat)
        if made is None:
            mine = [0.0] * self.setup.actions.size
            before = self.trail[k - 1] if k else None
            if before is not None and before[0] == "chose" and before[1] == seat:
                for action in before[2]:
                    mine[action] = 1.0
            view = self._layout_tensor(self.setup.states.reference(event[1]), seat)
            made = event[2][seat] = tuple(view + mine)
        return made
