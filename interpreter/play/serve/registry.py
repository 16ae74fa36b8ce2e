"""The tables of a server: made from a game file and its settings, or restored from a record.

Each table loads its own copy of the game (a session attaches its log to the game it plays).
Beside a table's record, ``RECORD.seats`` (``seats_file``, readable by its owner only) keeps how
the table was made and its seats' tokens, so that after a restart the same links take the same
seats.

A served table's record is the host's full record: its header (with the seed) and every move are
written in place as they happen, each move before it is played (``record_file``), so that
``--resume`` (``resume``) finds them after a crash; it is never written over the game file or over
a file that is not a record (``record_writer.check_target``), nor over a record another server
is writing.
"""
from __future__ import annotations

import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ...bots.agents import parse_kind
from ...engine.core import players_text
from ...engine.loaded import load_game
from ...errors import OptionError
from ...load.bundled import resolve_game
from ..record_writer import check_target
from ..records import Record, relative_game_path
from .clock import FakeClock, RealClock
from .hosted import HostedTable, TableSetup
from .hosted_session import session_for
from .record_file import LiveWriter, open_record
from .resume import restore
from .seats_file import setup_path, write_setup
from .tokens import new_table_id

if TYPE_CHECKING:
    from ...engine.loaded import LoadedGame

__all__ = ["MAX_TABLES", "Tables", "check_seats", "new_table_id", "setup_path"]

MAX_TABLES = 200


class Tables:
    def __init__(self) -> None:
        self.tables: dict[str, HostedTable] = {}

    def get(self, table_id: str) -> HostedTable | None:
        return self.tables.get(table_id)

    def add(self, table: HostedTable) -> HostedTable:
        if len(self.tables) >= MAX_TABLES:
            raise OptionError(f"a server holds at most {MAX_TABLES} tables")
        self.tables[table.id] = table
        return table

    def close(self) -> None:
        """Let every table's record go (the server stops)."""
        for table in self.tables.values():
            table.close()

    def create(self, file: str, options: dict | None = None, players: int | None = None,
               bots: set[int] | None = None, bot_kind: str | None = None, bot_speed: float = 2.0,
               seed: int | None = None, fake_clock: float | None = None, record_path: str | None = None,
               table_id: str | None = None, tokens: dict[int, str] | None = None) -> HostedTable:
        loaded = load_game(resolve_game(file), options or {})     # a file, or a bundled game by name
        players = players or loaded.game.default_players
        check_seats(loaded, players, bots or set())
        if bot_kind:
            parse_kind(bot_kind)
        seed = random.SystemRandom().randrange(1, 10**9) if seed is None else seed
        setup = TableSetup(file, dict(loaded.options), players, seed, sorted(bots or ()),
                           bot_kind or ("priority" if loaded.game.bot_priority else "greedy"), bot_speed,
                           dict(tokens or {}))
        writer = None
        if record_path:
            check_target(record_path, loaded.spec.file)
            record = Record(loaded.name, loaded.digest(), file, loaded.options, seed, players,
                            file_abs=str(Path(loaded.spec.file).resolve()),
                            file_rel=relative_game_path(loaded.spec.file, record_path))
            fd = open_record(record_path, new=True)
            try:
                writer = LiveWriter(record_path, fd, record)
            except BaseException:
                os.close(fd)
                raise
        try:
            session = session_for(loaded, setup, writer)
            if session.humans and any(phase.turns is None for phase in loaded.game.phases):
                session.paused = True       # in real time the bots wait for every person's "ready"
            table = HostedTable(table_id or new_table_id(), session, _clock(fake_clock), setup)
            if record_path:
                write_setup(record_path, table)
            return self.add(table)
        except BaseException:
            if writer is not None:
                writer.close()
            raise

    def rematch(self, table: HostedTable) -> HostedTable:
        """The next game of a table whose game is over: the same game, seats, bots and tokens (every
        link takes its seat there too), a seed drawn from the last one's, the same clock, and a
        record of its own beside the last one's (when that had one)."""
        setup, new_id = table.setup, new_table_id()
        record = table.session.record
        record_path = str(Path(record.path).with_name(f"rules-table-{new_id}.jsonl")) if record else None
        fake = table.clock.step if table.clock.fake else None
        new = self.create(setup.file, setup.options, setup.players, set(setup.bots), setup.bot_kind, setup.bot_speed,
                          random.Random(setup.seed).randrange(1, 10**9), fake, record_path, new_id, setup.tokens)
        new.names = dict(table.names)
        table.next_table = new.id
        return new

    def resume(self, record_path: str, fake_clock: float | None = None,
               warn: Callable[[str], None] | None = None) -> HostedTable:
        """The table of a record, exactly as it was after its last move; new moves go on the record
        (``resume.restore``); ``warn`` is told what was dropped (a torn last line)."""
        return self.add(restore(record_path, fake_clock, warn))


def check_seats(loaded: LoadedGame, players: int, bots: set[int]) -> None:
    low, high = loaded.game.min_players, loaded.game.max_players
    if not low <= players <= high:
        raise OptionError(f"{loaded.name} is for {players_text(loaded.game)}, not {players}")
    for seat in bots:
        if not 0 <= seat < players:
            raise OptionError(f"--bots: there is no seat {seat + 1} at a table of {players}")


def _clock(fake_step: float | None) -> FakeClock | RealClock:
    return FakeClock(fake_step) if fake_step is not None else RealClock()
