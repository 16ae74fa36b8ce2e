"""A game being played by people and bots: what every front end (the line mode, the full-screen
table) shares.

It owns the table (``realtime.Table``) and the log, and answers the questions a front end asks:
what may this person do now (``look``), what happened up to this moment (``advance``), and is the
move this person chose still possible at the moment it is submitted (``submit``). A refusal says
what happened: the hand ended, or which seat took the move first and how much earlier.

The log holds the moves, the game's own ``log:`` lines and who took each trick; a front end
reads it for one seat (``log_lines``), where the other seats' private moves are in public form.
Between hands (in free play) the session pauses: no bot acts and no move is taken until the front
end calls ``resume`` (everyone ready, "Go").

The seed is not shown while the game runs (anyone who knows it can work out every hidden card):
a front end shows ``seed_line`` when the game ends or stops, after ``close_record``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..bots.agents import make_bot
from ..engine.views import move_text, score_parts
from ..errors import IllegalMove
from .card_text import cards_in_text
from .hand_events import finished_trick, hand_summary
from .realtime import Action, Table
from .record_writer import RecordWriter
from .records import Record
from .typed import cards_of, find_typed
from .undo import UndoLog
from .words import Words

if TYPE_CHECKING:
    from ..engine.loaded import LoadedGame
    from ..engine.moves import Move
    from ..engine.state import State


class Recorder(Protocol):
    """What a session writes its record with: a ``RecordWriter``, or a served table's ``LiveWriter``."""
    path: str
    record: Record

    def add(self, seat: int, text: str, when: float = 0.0) -> None: ...

    def close(self) -> None: ...

    def discard(self) -> None: ...


@dataclass(frozen=True)
class Entry:
    """One line of the log: a move (``move`` set) or a text of the game (``text``)."""
    time: float
    seat: int | None = None
    move: Any = None
    text: str = ""


@dataclass
class Submitted:
    """What became of a person's move: played (``action``) or refused (``refusal``), and the bot
    actions that came first."""
    action: Action | None
    before: list[Action] = field(default_factory=list)
    refusal: str | None = None


class Session:
    def __init__(self, loaded: LoadedGame, players: int, seed: int, bot_kind: str, humans: set[int],
                 bot_speed: float = 2.0, record: Recorder | None = None):
        self.loaded = loaded
        self.game = loaded.game
        self.words = Words(loaded.game)
        self.players = players
        self.seed = seed
        self.humans = humans
        self.state = loaded.new_state(players, seed)
        bots = {s: make_bot(bot_kind, loaded.game, s, seed) for s in range(players) if s not in humans}
        # A bot of a level (easy, medium, hard) plays free play at its own speed.
        speeds = {s: bot_speed if bot.speed is None else bot.speed for s, bot in bots.items()}
        self.table = Table(loaded.game, self.state, bots, speeds, seed)
        self.record = record
        self.log: list[Entry] = []
        self.paused = False            # a hand ended in free play: waiting for everyone's "Go"
        self.pause_every_hand = False   # pause at the end of every hand, with turns too
        self._said: list[str] = []      # the game's log lines of the move being applied
        # The game's log lines and hand ends of this very state, not of the positions a bot
        # imagines while it thinks (a greedy bot plays moves on guessed states): copies of a
        # state have no watcher.
        self.state.watcher = self
        self.hand_end: Any = None       # the position when the last hand ended, before the next began
        self.hand_parts: dict = {}      # the named parts of that hand's score, for each seat
        self.summed_round = 0           # the round of that hand
        self.last_trick: dict | None = None   # the trick last taken: its plays and who took it
        person = next(iter(humans)) if len(humans) == 1 else None
        self.undo_log = UndoLog(self.game, self.state, person, self._no_undo(humans))

    def _no_undo(self, humans: set[int]) -> str | None:
        """Why moves can never be taken back at this table, or None."""
        play = self.game.spec.data.get("play") or {}
        if play.get("undo", True) is False:
            return f"cannot undo: {self.loaded.name} does not allow it"
        if len(humans) > 1:
            return "cannot undo with several people at the table"
        if not humans:
            return "nothing to undo: only bots play"
        if all(phase.turns is None for phase in self.game.phases):
            return "cannot undo in free play: everyone moves at once"
        return None

    def round_ended(self, state: State) -> None:
        """The engine's word that a hand of this table's state has ended (``State.watcher``)."""
        self.hand_end = state.clone()
        self.hand_end.over = True       # a position to look at, no longer to play
        self.summed_round = state.round
        parts = score_parts(self.game, state)
        # A hand where nothing was scored (everyone passed: dealt again) has no breakdown.
        self.hand_parts = parts if any(v for values in parts.values() for v in values) else {}
        self._said += hand_summary(self.hand_parts, state.round, self.teams(state))

    def teams(self, state: State) -> list[int] | None:
        """Each seat's team, or None in a game without teams."""
        return None if self.game.teams is None else [self.game.team_of(state, s) for s in range(state.players)]

    def hand_end_view(self, seat: int | None) -> dict | None:
        """What ``seat`` saw when the last hand ended (before the next deal cleared the table)."""
        return None if self.hand_end is None else self.loaded.view(self.hand_end, seat)

    # -- what a person may see and do ---------------------------------------------------------------
    @property
    def free_play(self) -> bool:
        return not self.state.over and self.state.current is None

    def view(self, seat: int | None) -> dict:
        return self.loaded.view(self.state, seat)

    def legal(self, seat: int) -> list:
        return [] if self.paused else self.loaded.legal_moves(self.state, seat)

    def human_to_act(self) -> int | None:
        """The person to ask now: whose turn it is, or in free play the first person at the table;
        None when a bot is to move."""
        if self.state.over:
            return None
        if self.state.current is not None:
            return self.state.current if self.state.current in self.humans else None
        return min(self.humans) if self.humans else None

    def card_places(self, moves: list, view: dict) -> dict[tuple, Any]:
        """Where the cards of ``moves`` lie on the board of ``view``: ``("card", zone, pile,
        position)`` -> the card, for the places where that view shows that very card (so nothing
        it does not show is told: a card the view hides has no place)."""
        wanted = {card.id: card for move in moves for card in cards_of(move.args)}
        places: dict[tuple, Any] = {}
        if not wanted:
            return places
        for zone, piles in self.state.zones.items():
            shown = view["zones"][zone]
            for i, pile in enumerate(piles):
                for k, card in enumerate(pile):
                    if card in wanted and shown[i][k] == wanted[card].label:
                        places[("card", zone, i, k)] = wanted[card]
        return places

    def resolve(self, seat: int, entry: str) -> Move:
        """The legal move ``entry`` names now (cards may be typed as shown, ``5♠``); IllegalMove
        with the reason otherwise."""
        return find_typed(self.game, self.state, seat, entry, self.words)

    def describe(self, name: str) -> str:
        spec = self.game.spec.data.get("moves", {}).get(name, {})
        return spec.get("description", "") if isinstance(spec, dict) else ""

    def log_lines(self, viewer: int | None, last: int | None = None) -> list[str]:
        entries = self.log if last is None else self.log[-last:]
        return [self.entry_text(e, viewer) for e in entries]

    def entry_text(self, entry: Entry, viewer: int | None) -> str:
        if entry.move is None:
            return cards_in_text(entry.text)
        assert entry.seat is not None       # a move's entry has its seat
        return f"P{entry.seat + 1}: {self.words.move(entry.move, viewer)}"

    # -- time ----------------------------------------------------------------------------------------
    def advance(self, until: float | None = None, watch: tuple[int, str] | None = None,
                turns_only: bool = False, limit: int | None = None) -> list[Action]:
        """Every bot action due by ``until`` (None: until a person must act), stopping when a hand
        ends in free play. With ``watch`` (a seat and a move's text), stops after the action that
        made that move impossible (the caller names it in its refusal). ``turns_only`` stops where
        free play starts, ``limit`` after that many actions."""
        actions: list[Action] = []
        while not self.paused and not self.state.over and (limit is None or len(actions) < limit):
            if turns_only and self.state.current is None:
                break
            round_before, free = self.state.round, self.state.current is None
            action = self._bot_action(until)
            if action is None:
                break
            actions.append(action)
            self._pause_if_hand_ended(free, round_before)
            if watch is not None and not self._still_legal(*watch):
                break
        return actions

    def resume(self, when: float) -> None:
        """Everyone is ready: the next hand starts now; the bots start thinking afresh."""
        self.paused = False
        self.table.restart(when)

    def submit(self, seat: int, move: Move, when: float) -> Submitted:
        """A person's move, chosen in the position they saw, at the moment ``when``: the bot actions
        due before it happen first; then it is played if still possible, else refused with why."""
        if self.paused:
            return Submitted(None, [], "the hand is over: wait for the next one")
        before = self.advance(until=when, watch=(seat, move.text)) if self.free_play else []
        if self.paused:
            return Submitted(None, before, "the hand ended before your move; it was not played")
        if not self._still_legal(seat, move.text):
            return Submitted(None, before, self._too_slow(seat, move.text, before, when))
        round_before, free = self.state.round, self.state.current is None
        if not free:
            self.undo_log.keep(self.table, len(self.log), len(self.record.record.moves) if self.record else 0,
                               self.hand_end)
        shown = self._before_trick()
        action = self._record(self.table.play(seat, move.text, when if free else self.table.now), shown)
        self._pause_if_hand_ended(free, round_before)
        return Submitted(action, before)

    def _pause_if_hand_ended(self, free: bool, round_before: int) -> None:
        if (free or self.pause_every_hand) and self.state.round != round_before and not self.state.over:
            self.paused = True

    def _too_slow(self, seat: int, text: str, before: list[Action], when: float) -> str:
        if before:
            last = before[-1]
            took = self.words.move(last.move, seat)
            return f"too slow: P{last.seat + 1} played '{took}' {when - last.time:.1f} s earlier"
        return f"'{text}' is no longer possible"

    def _still_legal(self, seat: int, text: str) -> bool:
        return any(m.text == text for m in self.loaded.legal_moves(self.state, seat))

    def heard(self, text: str) -> None:
        """A log line of the game said in this table's state (``State.watcher``)."""
        self._said.append(text)

    def _bot_action(self, until: float | None) -> Action | None:
        before = self._before_trick()
        action = self.table.next_bot_action(until=until)
        if action is not None:
            self._record(action, before)
        return action

    def undo(self) -> tuple[bool, str]:
        """Take back the person's last move and the bots' moves after it (``undo.py`` says when
        it may); whether it was done, and what was done or why not."""
        why = self.undo_log.why_not()
        if why is not None:
            return False, why
        last = self.undo_log.take_back(self.table)
        taken = [e for e in self.log[last.log:] if e.move is not None]
        del self.log[last.log:]
        self.hand_end, self.paused, self.last_trick = last.hand_end, False, None
        if self.record:
            # Only one person's session undoes (a served table does not): its writer is a RecordWriter.
            cast(RecordWriter, self.record).take_back(len(self.record.record.moves) - last.record)
        mine = self.words.move(taken[0].move, taken[0].seat)
        after = len(taken) - 1
        return True, f"took back {mine}" + (f" and the {after} move{'s' if after > 1 else ''} after it" if after else "")

    def _before_trick(self) -> State | None:
        """In a game of tricks, the game before a move (to say who took a trick it completes)."""
        return self.state.clone() if self.game.tricks is not None else None

    def _record(self, action: Action, before: Any = None) -> Action:
        self.undo_log.made()
        if self.record:
            self.record.add(action.seat, self.recorded_text(action), action.time)
        self.log.append(Entry(action.time, action.seat, action.move))
        if before is not None:      # who took the trick, before what the end of the round said
            done = finished_trick(self.game, before, self.state, action.move)
            if done is not None:
                self.last_trick = done
                if done["winner"] is not None:
                    self.log.append(Entry(action.time, text=f"P{done['winner'] + 1} took the trick"))
        if self.state.over and self.summed_round != self.state.round:
            self.round_ended(self.state)    # the game ended inside a hand (end_game): the hand is over too
        self.log.extend(Entry(action.time, text=text) for text in self._said)
        self._said.clear()
        return action

    def recorded_text(self, action: Action) -> str:
        """A move as the record keeps it: whole in a full record; in a player's record, the other
        seats' private moves in the public form that player read."""
        assert self.record is not None      # called while recording only
        record = self.record.record
        return action.move.text if record.full else move_text(self.game, action.move, record.seat)

    def check_stalled(self) -> None:
        """A RulesError when the game is not over but nobody can ever move (before waiting for a person)."""
        self.table.check_stalled()

    # -- the end: the record and the seed ----------------------------------------------------------------
    def close_record(self) -> None:
        """Put the record in place (a full one gets its seed now); RecordError when it cannot be written."""
        if self.record:
            self.record.close()

    def kept_text(self) -> str:
        return f"; the record so far is in {self.record.path}" if self.record else ""

    def seed_line(self, ended: bool = False) -> str:
        """The seed, shown once the game is over or stopped; where the record is, at the end."""
        where = f"; the record is in {self.record.path}" if self.record and ended else ""
        return f"seed {self.seed}{where}"

    def record_lost(self) -> str:
        """After a RecordError: the record is given up (the target left as it was); what that means."""
        if self.record:
            self.record.discard()
        return ("the game is over; its record is not kept." if self.state.over else
                "game stopped: without its record it is not played on.")

    def refusal_text(self, error: IllegalMove) -> str:
        return f"error: {error.message}" + (f"\nhint: {error.hint}" if error.hint else "")
