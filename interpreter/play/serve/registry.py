"""The tables of a server: made from a game file and its settings, or restored from a record.

Each table loads its own copy of the game (a session attaches its log to the game it plays).
Beside a table's record, ``RECORD.seats`` (readable by its owner only) keeps how the table was
made and its seats' tokens, so that after a restart the same links take the same seats.

A served table's record is the host's full record: its header (with the seed) and every move are
written in place as they happen, so that ``--resume`` finds them after a crash; it is never
written over the game file or over a file that is not a record (``record_writer.check_target``).
"""
from __future__ import annotations

import json
import os
import random
import secrets
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ...bots.agents import parse_kind
from ...engine.loaded import load_game
from ...errors import OptionError, RecordError, RulesError
from ...load.bundled import resolve_game
from ..record_writer import check_target
from ..records import Record, read_record
from .clock import FakeClock, RealClock
from .hosted import HostedSession, HostedTable, TableSetup

MAX_TABLES = 200


class LiveWriter:
    """A served table's record, written line by line in place and flushed, so that nothing is lost
    when the server stops; ``header`` false: a record opened again after a restart, appended to."""

    def __init__(self, path: str, stream: Any, record: Record, header: bool = True):
        self.path = str(path)
        self.stream = stream
        self.record = record
        if header:
            self._write(record.header())

    def add(self, seat: int, text: str, when: float = 0.0) -> None:
        line = {"seat": seat, "move": text, "t": round(when, 3)}
        self.record.moves.append(line)
        self._write(line)

    def close(self) -> None:
        self.stream.close()

    def discard(self) -> None:
        self.stream.close()

    def _write(self, data: dict) -> None:
        try:
            self.stream.write(json.dumps(data) + "\n")
            self.stream.flush()
        except OSError as error:
            raise RecordError(f"cannot write the record {self.path}: {error.strerror or error}") from None


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

    def create(self, file: str, options: dict | None = None, players: int | None = None,
               bots: set[int] | None = None, bot_kind: str | None = None, bot_speed: float = 2.0,
               seed: int | None = None, fake_clock: float | None = None, record_path: str | None = None,
               table_id: str | None = None) -> HostedTable:
        loaded = load_game(resolve_game(file), options or {})     # a file, or a bundled game by name
        players = players or loaded.game.default_players
        check_seats(loaded, players, bots or set())
        if bot_kind:
            parse_kind(bot_kind)
        seed = random.SystemRandom().randrange(1, 10**9) if seed is None else seed
        setup = TableSetup(file, dict(loaded.options), players, seed, sorted(bots or ()),
                           bot_kind or ("priority" if loaded.game.bot_priority else "greedy"), bot_speed)
        writer = None
        if record_path:
            check_target(record_path, loaded.spec.file)
            record = Record(loaded.name, loaded.digest(), file, loaded.options, seed, players,
                            file_abs=str(Path(loaded.spec.file).resolve()))
            writer = LiveWriter(record_path, _open(record_path, "w"), record)
        session = _session(loaded, setup, writer)
        table = HostedTable(table_id or new_table_id(), session, _clock(fake_clock), setup)
        if record_path:
            write_setup(record_path, table)
        return self.add(table)

    def resume(self, record_path: str, fake_clock: float | None = None) -> HostedTable:
        """The table of a record, exactly as it was after its last move; new moves go on the record."""
        record = read_record(record_path)
        setup, table_id = read_setup(record_path, record)
        loaded = load_game(resolve_game(setup.file), record.options)
        if loaded.digest() != record.spec_hash:
            raise RecordError(f"{record_path}: the record was made with another version of {record.game} "
                              f"(spec hash {record.spec_hash}, {setup.file} has {loaded.digest()})")
        session = _session(loaded, setup, None)
        for line in record.moves:
            try:
                session.replay(line["seat"], line["move"], float(line.get("t", 0.0)))
            except (RulesError, TypeError, ValueError) as error:
                message = getattr(error, "message", str(error))
                raise RecordError(f"{record_path}:{line['line']}: move '{line['move']}' of P{line['seat'] + 1} "
                                  f"cannot be replayed: {message}") from None
        session.record = LiveWriter(record_path, _open(record_path, "a"), record, header=False)
        start = session.table.now
        session.table.restart(start)
        clock = FakeClock(fake_clock, start) if fake_clock is not None else RealClock(start)
        return self.add(HostedTable(table_id, session, clock, setup))


def check_seats(loaded: Any, players: int, bots: set[int]) -> None:
    low, high = loaded.game.min_players, loaded.game.max_players
    if not low <= players <= high:
        raise OptionError(f"{loaded.name} is for {low} to {high} players, not {players}")
    for seat in bots:
        if not 0 <= seat < players:
            raise OptionError(f"--bots: there is no seat {seat + 1} at a table of {players}")


def new_table_id() -> str:
    return secrets.token_urlsafe(6)


def _session(loaded: Any, setup: TableSetup, writer: LiveWriter | None) -> HostedSession:
    humans = set(range(setup.players)) - set(setup.bots)
    return HostedSession(loaded, setup.players, setup.seed, setup.bot_kind, humans, setup.bot_speed, writer)


def _clock(fake_step: float | None) -> Any:
    return FakeClock(fake_step) if fake_step is not None else RealClock()


def _open(path: str, mode: str) -> Any:
    try:
        return open(path, mode, encoding="utf-8")
    except OSError as error:
        raise RulesError(f"cannot write the record {path}: {error.strerror}") from None


def setup_path(record_path: str) -> Path:
    return Path(str(record_path) + ".seats")


def write_setup(record_path: str, table: HostedTable) -> None:
    path = setup_path(record_path)
    data = {"table": table.id, **asdict(table.setup)}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        json.dump(data, stream)


def read_setup(record_path: str, record: Record) -> tuple[TableSetup, str]:
    """The table's settings and tokens; without the file, every seat is a person with a new token."""
    path = setup_path(record_path)
    if not path.exists():
        return TableSetup(record.file, record.options, record.players, record.seed, [], "greedy", 2.0), new_table_id()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        setup = TableSetup(data["file"], data["options"], int(data["players"]), int(data["seed"]),
                           [int(s) for s in data["bots"]], str(data["bot_kind"]), float(data["bot_speed"]),
                           {int(k): str(v) for k, v in data["tokens"].items()})
        table_id = str(data["table"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise RecordError(f"{path}: cannot read the table's seats ({error})") from None
    if setup.seed != record.seed or setup.players != record.players:
        raise RecordError(f"{path}: belongs to another record (seed or players differ)")
    return setup, table_id
