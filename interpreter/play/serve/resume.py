"""A served table restored from its record after a restart, exactly as it was after its last move.

The record is locked first (no other server may be writing it), then read: every line checked as
``rules replay`` checks it, and each move's time a finite number of seconds, never before the
move above it. A last line cut off by a crash (part of a line, or NUL bytes) is dropped and said
(``warn``); damage anywhere else is an error naming its line. The moves are played again, the
bots drawing as they drew, and new moves are appended after the last whole line.
"""
from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any, Callable

from ...engine.loaded import load_game
from ...errors import RecordError, RulesError
from ...load.bundled import resolve_game
from ..records import Record, TornLine, read_record_torn
from .clock import FakeClock, RealClock
from .console import console
from .hosted import HostedTable
from .hosted_session import session_for
from .record_file import LiveWriter, open_record
from .seats_file import read_setup

if TYPE_CHECKING:
    from .hosted_session import HostedSession


def restore(record_path: str, fake_clock: float | None = None,
            warn: Callable[[str], None] | None = None) -> HostedTable:
    """The table of a record, its record held (locked) and appended to from now on."""
    fd = open_record(record_path, new=False)
    try:
        record, torn = read_record_torn(record_path)
        if torn is not None:
            (warn or console.warning)(_dropped(record_path, torn))
        check_times(record_path, record)
        setup, table_id = read_setup(record_path, record)
        loaded = load_game(resolve_game(setup.file), record.options)
        if loaded.digest() != record.spec_hash:
            raise RecordError(f"{record_path}: the record was made with another version of {record.game} "
                              f"(spec hash {record.spec_hash}, {setup.file} has {loaded.digest()})")
        session = session_for(loaded, setup, None)
        _replay(record_path, record, session)
        session.record = LiveWriter(record_path, fd, record, header=False, keep=torn.keep if torn else None)
    except BaseException:
        os.close(fd)
        raise
    start = session.table.now
    session.table.restart(start)
    clock = FakeClock(fake_clock, start) if fake_clock is not None else RealClock(start)
    try:
        return HostedTable(table_id, session, clock, setup)
    except BaseException:
        session.record.close()
        raise


def check_times(path: str, record: Record) -> None:
    """Each move's moment (``t``): a finite number of seconds, not before the move above it."""
    before = 0.0
    for line in record.moves:
        when = line.get("t")
        if "t" not in line:
            raise RecordError(f"{path}:{line['line']}: the move has no time ('t')")
        if isinstance(when, bool) or not isinstance(when, (int, float)) or not math.isfinite(when) or when < 0:
            raise RecordError(f"{path}:{line['line']}: the move's time 't' must be a number of seconds "
                              f"from the start, not {_shown(when)}")
        if when < before:
            raise RecordError(f"{path}:{line['line']}: the move's time {when:g} is before the time of "
                              f"the move above it ({before:g})")
        before = when


def _replay(path: str, record: Record, session: HostedSession) -> None:
    for line in record.moves:
        try:
            session.replay(line["seat"], line["move"], float(line["t"]))
        except (RulesError, TypeError, ValueError) as error:
            message = getattr(error, "message", str(error))
            raise RecordError(f"{path}:{line['line']}: move '{line['move']}' of P{line['seat'] + 1} "
                              f"cannot be replayed: {message}") from None


def _dropped(path: str, torn: TornLine) -> str:
    return (f"{path}:{torn.line}: the last line is not a whole move (cut off when the server stopped): "
            f"dropped ({torn.size} bytes); the table goes on from the move before it")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "..."
