"""The session of a served table: every move written to the record before it is played.

``Session`` records a move after the table has played it; a served table must never show a move
its record lacks (a restart would lose it). Here each move's line is written first, by the
table's ``before_move`` (a bot's once it has chosen, a person's once it is resolved); the
session's own ``_record`` then keeps it (``LiveWriter.add``). When the line cannot be written,
the RecordError comes before the move, which is not played.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import apply_move
from ..realtime import Action
from ..session import Session
from .record_file import LiveWriter

if TYPE_CHECKING:
    from ...engine.loaded import LoadedGame


def session_for(loaded: LoadedGame, setup: Any, writer: LiveWriter | None) -> "HostedSession":
    """The session of a table made as ``setup`` (a ``TableSetup``) says, recording with ``writer``."""
    humans = set(range(setup.players)) - set(setup.bots)
    return HostedSession(loaded, setup.players, setup.seed, setup.bot_kind, humans, setup.bot_speed, writer)


class HostedSession(Session):
    """A session whose moves are written to its record first, and that can take a recorded move
    as it was (to restore a table)."""

    record: LiveWriter | None

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.table.before_move = lambda seat, move, when: self.write_ahead(seat, move.text, when)

    def write_ahead(self, seat: int, text: str, when: float) -> None:
        if self.record is not None:
            self.record.write_ahead(seat, text, when)

    def replay(self, seat: int, text: str, when: float) -> None:
        state = self.state
        round_before, free = state.round, state.current is None
        bot = self.table.bots.get(seat)
        if bot is not None:     # the bot draws as it did, so it goes on as it would have
            bot.choose(state, self.loaded.legal_moves(state, seat))
        before = self._before_trick()
        move = apply_move(self.game, state, text, seat)
        self.table.now = max(self.table.now, when)
        self._record(Action(seat, move, when), before)
        self.paused = False            # a move was made after it: everyone had been ready
        self._pause_if_hand_ended(free, round_before)
