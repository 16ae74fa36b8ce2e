"""One table on the server: its session, its clock, its seats and what each seat is sent.

Everything a connection asks goes through here and happens at once, on the server's clock: a
move is stamped when it arrives, the bot actions due by then come first, and the move is played
if it is still possible, else refused with why (who was first, and how much earlier). Nothing
here waits or touches the network; ``app`` calls it and sends what it returns.

A table that meets an error while it plays (the game's rules fail, its record cannot be written,
a fault of the server) stops: ``stopped`` says why in words a seat may read (nothing of the game's
hidden state), the host's console gets the whole error, and nothing more is played. A move that
could not be written to the record was not played (``hosted_session``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, cast

from ...engine.views import dice_seen
from ...errors import IllegalMove, RecordError, RulesError
from ..preview import move_previews
from ..realtime import Action
from ..scores import ScoreWatch
from .console import console
from .hints import move_spots
from .hosted_session import HostedSession
from .protocol import ProtocolError, refused
from .tokens import SeatTokens

if TYPE_CHECKING:
    from ...engine.loaded import LoadedGame
    from ...engine.state import State

LOG_ON_JOIN = 200          # log lines a new connection receives at first
SEEN_KEPT = 64             # recent positions kept, to name the action that made a late move impossible

__all__ = ["HostedSession", "HostedTable", "TableSetup"]


@dataclass
class TableSetup:
    """How a table was made: kept beside its record so that a restart restores it."""
    file: str
    options: dict
    players: int
    seed: int
    bots: list[int]
    bot_kind: str
    bot_speed: float
    tokens: dict[int, str] = field(default_factory=dict)


class HostedTable:
    def __init__(self, table_id: str, session: HostedSession, clock: Any, setup: TableSetup):
        self.id = table_id
        self.session = session
        self.loaded = session.loaded
        self.clock = clock
        self.setup = setup
        self.tokens = SeatTokens(sorted(session.humans), setup.tokens)
        setup.tokens = dict(self.tokens.tokens)
        self.version = 0
        self.history: list[tuple[int, Action]] = []     # every action with the version it made
        self.ready: set[int] = set()
        self.seen: dict[int, Any] = {}                  # version -> the position sent at it (recent ones)
        self.scores = ScoreWatch(self.loaded)
        self.connected: dict[int, int] = {}             # seat -> open connections
        self.names: dict[int, str] = {}                 # seat -> the name its person gave
        self.rematch: set[int] = set()                  # seats that would play again (game over)
        self.next_table: str | None = None              # the rematch's table, once everyone agreed
        self.stopped: str | None = None                 # why the table stopped, for its seats
        self._advance()                                 # an error here is the caller's: no table

    # -- seats -------------------------------------------------------------------------------------
    @property
    def people(self) -> list[int]:
        return sorted(self.session.humans)

    def seat_for(self, token: str | None) -> int | None:
        """The seat of a join's token (None: a spectator); ProtocolError for a token of no seat."""
        if token is None or token == "":
            return None
        seat = self.tokens.seat_of(token)
        if seat is None:
            raise ProtocolError("this token is not one of this table's seats")
        return seat

    def connect(self, seat: int | None, change: int) -> None:
        if seat is not None:
            self.connected[seat] = self.connected.get(seat, 0) + change

    def connected_seats(self) -> list[int]:
        return sorted(k for k, n in self.connected.items() if n > 0)

    def set_name(self, seat: int | None, name: str) -> bool:
        """The name a seat's person gave ("" takes it away); whether it changed (ProtocolError
        for a spectator, who has no seat to name)."""
        if seat is None:
            raise ProtocolError("a spectator has no seat to name")
        before = self.names.get(seat)
        if name:
            self.names[seat] = name
        else:
            self.names.pop(seat, None)
        changed = self.names.get(seat) != before
        self.version += changed
        return changed

    def want_rematch(self, seat: int | None) -> bool:
        """A seat would play again once the game is over; whether that changed anything
        (ProtocolError while the game goes on, or for a spectator)."""
        if seat is None:
            raise ProtocolError("a spectator does not choose to play again")
        if not self.session.state.over or self.stopped:
            raise ProtocolError("a rematch comes once the game is over")
        if seat in self.rematch or self.next_table:
            return False
        self.rematch.add(seat)
        self.version += 1
        return True

    @property
    def rematch_agreed(self) -> bool:
        """Every person wants to play again, and the next table is not made yet."""
        return self.next_table is None and bool(self.rematch) and self.rematch >= self.session.humans

    # -- what happens ------------------------------------------------------------------------------
    def advance(self) -> bool:
        """Bots act up to now (in turns: until a person is to act); True when anything changed
        (the table stopping included)."""
        if self.stopped:
            return False
        changed = self._guarded(self._advance)
        return True if changed is None else changed

    def move(self, seat: int | None, text: str, version: int | None) -> tuple[bool, dict | None]:
        """A seat's move, stamped now: (whether the table changed, a refusal to send back or None)."""
        if self.stopped:
            return False, refused(text, self.stopped)
        result = self._guarded(lambda: self._move(seat, text, version))
        # None: the move's error stopped the table, and ``stopped`` says why.
        return (True, refused(text, cast(str, self.stopped))) if result is None else result

    def set_ready(self, seat: int | None) -> bool:
        """A person is ready for the next hand; when everyone is, it starts ("Go")."""
        if self.stopped:
            return False
        changed = self._guarded(lambda: self._set_ready(seat))
        return True if changed is None else changed

    def stop(self, error: BaseException) -> None:
        """Stop the table for good: nothing more is played or written; its seats are told why (in
        ``stopped``, words a seat may read), the host's console the whole error."""
        if self.stopped:
            return
        writer = self.session.record
        self.stopped = _report(self.id, error, writer.path if writer else "RECORD")
        if writer is not None:
            try:
                writer.retract()            # a move written ahead but not played
            except RecordError as again:
                console.error("table %s: %s", self.id, again.message)
            writer.close()
        self.version += 1

    def close(self) -> None:
        """The server is stopping: nothing more is played; the record is let go (every move
        played is on it), for the next server to go on with."""
        self.stopped = self.stopped or "the table has stopped: the server is shutting down"
        if self.session.record is not None:
            self.session.record.close()

    def _guarded(self, step: Callable[[], Any]) -> Any:
        """``step()``, or None when it failed: any error stops the table, none is lost."""
        try:
            return step()
        except Exception as error:      # noqa: BLE001
            self.stop(error)
            return None

    def _advance(self) -> bool:
        s = self.session
        if s.paused and not s.humans and not s.state.over:
            s.resume(self.clock.now())          # nobody to wait for between hands
            self._changed([])
        return self._changed(s.advance(until=self.clock.now()))

    def _move(self, seat: int | None, text: str, version: int | None) -> tuple[bool, dict | None]:
        s = self.session
        if seat is None:
            return False, refused(text, "a spectator does not move")
        if s.state.over:
            return False, refused(text, "the game is over")
        if s.paused:
            return False, refused(text, "the hand is over: press Ready for the next one")
        if s.state.current is not None and s.state.current != seat:
            return False, refused(text, f"it is P{s.state.current + 1}'s turn")
        now = self.clock.now()
        changed = self._changed(s.advance(until=now))
        try:
            move = s.resolve(seat, text)
        except IllegalMove as error:
            return changed, refused(text, self._too_slow(seat, text, version, now) or _reason(error))
        # In turns the session stamps a move with the table's time: the moment it arrived, here too.
        s.table.now = max(s.table.now, now)
        submitted = s.submit(seat, move, now)
        changed = self._changed(submitted.before + ([submitted.action] if submitted.action else [])) or changed
        if submitted.refusal:
            return changed, refused(text, submitted.refusal)
        self._changed(s.advance(until=now))
        return True, None

    def _set_ready(self, seat: int | None) -> bool:
        s = self.session
        if seat is None or not s.paused or seat in self.ready:
            return False
        self.ready.add(seat)
        if self.ready >= s.humans:
            self.ready.clear()
            s.resume(self.clock.now())
            self._advance()
        self.version += 1
        return True

    def _changed(self, actions: list[Action]) -> bool:
        for action in actions:
            self.version += 1
            self.history.append((self.version, action))
        return bool(actions)

    def _too_slow(self, seat: int, text: str, version: int | None, now: float) -> str | None:
        """When the move the seat chose was possible in the position it saw (``version``), the
        action since then that made it impossible, named; None when it never was (the engine's
        reason is given), or when that position is no longer kept."""
        seen = self.seen.get(version) if version is not None else None
        if seen is None:
            return None
        assert version is not None          # a position seen has its version
        position, loaded = seen.clone(), self.loaded
        if not _legal(loaded, position, seat, text):
            return None
        for made, action in self.history:
            if made <= version:
                continue
            loaded.apply(position, action.move, action.seat)
            if not _legal(loaded, position, seat, text):
                if action.seat == seat:
                    return None
                took = self.session.words.move(action.move, seat)
                return f"too slow: P{action.seat + 1} played '{took}' {max(0.0, now - action.time):.1f} s earlier"
        return None

    # -- what a seat is sent -----------------------------------------------------------------------
    def state_message(self, seat: int | None, log_from: int | None) -> dict:
        """The table as ``seat`` may see it; the log from line ``log_from`` (None: the last lines)."""
        s = self.session
        state = s.state
        self._keep_seen()
        view = s.view(seat)
        legal = s.legal(seat) if seat is not None and not state.over and not self.stopped else []
        view["moves"] = [m.text for m in legal]
        words = [s.words.move(m, seat) for m in legal]      # each move as the seat reads it
        mover = cast(int, seat)         # moves are listed for a seat only
        previews = move_previews(s, self.scores, view, mover, legal) if legal and s.game.score is not None else []
        if log_from is None:
            log_from = max(0, len(s.log) - LOG_ON_JOIN)
        message = {
            "type": "state", "version": self.version, "view": view,
            "spots": move_spots(s.game, state, mover, legal) if legal else {},
            "move_words": words,
            # What each move would score now, where that tells the seat nothing new (else null).
            "previews": previews,
            "log": [s.entry_text(e, seat) for e in s.log[log_from:]], "log_from": log_from,
            "paused": s.paused and not state.over, "ready": sorted(self.ready),
            "people": self.people, "bots": self.setup.bots,
            "connected": self.connected_seats(), "names": {str(k): v for k, v in sorted(self.names.items())},
            "rematch": sorted(self.rematch),
            # The trick just taken (its plays and who took it), for the page to keep it in sight a moment.
            "last_trick": s.last_trick,
            # Between hands: the hand's last position as this seat saw it (not the game's score,
            # which may read cards the seat never saw).
            "hand_end": s.hand_end_view(seat) if s.paused and not state.over else None,
            # With a cup per seat: the cups as this seat saw them when the last hand ended (lifted
            # at its end), kept in sight once the next hand has thrown them again.
            "last_dice": _last_dice(s, seat),
            "final": self.final() if state.over else None,
            # The named parts of the hand that just ended (between hands and at the end).
            "hand_parts": s.hand_parts if (s.paused or state.over) else {},
            "stopped": self.stopped,
        }
        return message

    def _keep_seen(self) -> None:
        """The position at this version, kept a while: a move chosen in it and refused later is
        told which action since made it impossible."""
        if self.version not in self.seen:
            self.seen[self.version] = self.session.state.clone()
            while len(self.seen) > SEEN_KEPT:
                del self.seen[next(iter(self.seen))]

    def final(self) -> list[dict]:
        state = self.session.state
        scores, results, places = self.loaded.scores(state), self.loaded.results(state), self.loaded.ranking(state)
        return [{"seat": seat, "place": places[seat], "score": scores[seat], "result": results[seat]}
                for seat in sorted(range(state.players), key=lambda s: places[s])]

    def welcome(self, seat: int | None) -> dict:
        return {"type": "welcome", "table": self.id, "seat": seat, "game": self.loaded.name,
                "players": self.session.players, "people": self.people, "bots": self.setup.bots,
                "free_play": any(p.turns is None for p in self.session.game.phases),
                "layout": self.session.game.layout, "words": self.session.words.for_players()}


def _last_dice(session: HostedSession, seat: int | None) -> dict | None:
    """``{"round": 1, "dice": [[1, 3, 4], [None, None, None]]}``: each seat's cup as ``seat``
    saw it when the last hand ended; None before a hand has ended, or when the dice are the
    table's (they stay on the table in sight)."""
    game, hand_end = session.game, session.hand_end
    if game.dice_per != "seat" or hand_end is None:
        return None
    return {"round": hand_end.round, "dice": dice_seen(game, hand_end, seat)}


def _legal(loaded: LoadedGame, state: State, seat: int, text: str) -> bool:
    return any(m.text == text for m in loaded.legal_moves(state, seat))


def _reason(error: IllegalMove) -> str:
    return error.message + (f" ({error.hint})" if error.hint else "")


def _report(table_id: str, error: BaseException, record: str) -> str:
    """Tell the host's console why table ``table_id`` stopped; what its seats are told."""
    if isinstance(error, RecordError):
        console.error("table %s stopped: %s. The record is whole up to the last move played: make room, "
                      "then go on with: rules serve --resume %s", table_id, error.message, record)
        return f"the table has stopped: the server cannot write its record ({_cause(error)})"
    if isinstance(error, RulesError):
        console.error("table %s stopped: the game met an error:\n%s", table_id, error.render())
        return "the table has stopped: the game met an error (the host has the details)"
    console.error("table %s stopped: an error in the server", table_id, exc_info=error)
    return "the table has stopped: the server met an error (the host has the details)"


def _cause(error: RecordError) -> str:
    """What went wrong with the record, without its path: ``File too large``."""
    return error.message.rsplit(": ", 1)[-1]
