"""A served table's record on disk: one writer at a time, appended to, each move written before
it is played.

The file is created readable by its owner only (0600: it holds the seed) and opened append-only
(``O_APPEND``); while a server holds it, it is locked (``flock``, exclusive), so a second server
asked to go on with it, or to start a new table over it, is refused. A move's line is written
before the table plays the move (``write_ahead``) and kept once it has been played (``add``, the
session's call); a line that could not be written whole, or whose move was not played after all,
is cut off again (``retract``). So the file always ends with the last move played, whole.
"""
from __future__ import annotations

import json
import os
from types import ModuleType
from typing import Any

from ...errors import RecordError
from ..records import Record

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:          # pragma: no cover  (not POSIX: no lock)
    fcntl = None


def open_record(path: str, new: bool) -> int:
    """The record's file descriptor, locked for this server: ``new`` creates it (0600) or empties
    an old record (after taking the lock, so a record in use is never emptied); else it must exist."""
    flags = os.O_RDWR | os.O_APPEND | getattr(os, "O_CLOEXEC", 0) | (os.O_CREAT if new else 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as error:
        raise RecordError(f"cannot write the record {path}: {error.strerror}" if new else
                          f"cannot read record {path}: {error}") from None
    try:
        _lock(path, fd)
        if new:
            os.ftruncate(fd, 0)
            os.fchmod(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _lock(path: str, fd: int) -> None:
    if fcntl is None:       # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise RecordError(f"cannot use the record {path}: another server is writing it",
                          hint="stop that server first, or give this table another record") from None
    except OSError as error:
        raise RecordError(f"cannot lock the record {path}: {error.strerror}") from None


class LiveWriter:
    """A served table's record, written line by line in place; ``header`` false: a record opened
    again after a restart, appended to after its whole lines (``keep`` bytes: a torn last line
    is cut off)."""

    def __init__(self, path: str, fd: int, record: Record, header: bool = True, keep: int | None = None):
        self.path = str(path)
        self.fd: int | None = fd
        self.record = record
        self.end = os.fstat(fd).st_size         # where the next line goes
        self.whole = self.end                   # the end of the last line kept
        self.pending: tuple[dict, int] | None = None     # a line written ahead of its move
        if keep is not None and keep != self.end:
            self._guarded(lambda: os.ftruncate(fd, keep))
            self.end = self.whole = keep
        if header:
            self._append(_bytes(record.header()))
        elif self.end and os.pread(fd, 1, self.end - 1) != b"\n":
            self._append(b"\n")                 # a whole last line whose newline was cut off
        self.whole = self.end

    def write_ahead(self, seat: int, text: str, when: float) -> None:
        """Write a move's line before it is played; RecordError (and the file as it was) when the
        line cannot be written whole."""
        self.retract()                          # a line whose move never came is not kept
        line = _line(seat, text, when)
        data = _bytes(line)
        self._append(data)
        self.pending = (line, len(data))

    def add(self, seat: int, text: str, when: float = 0.0) -> None:
        """The move has been played: keep its line (written ahead; else written now)."""
        line = _line(seat, text, when)
        if self.pending is None or self.pending[0] != line:
            self.retract()
            self._append(_bytes(line))
        self.pending = None
        self.whole = self.end
        self.record.moves.append(line)

    def retract(self) -> None:
        """Cut off a line written ahead whose move was not played."""
        if self.pending is None:
            return
        self.pending = None
        if self.fd is not None:
            self._guarded(lambda: os.ftruncate(self.fd, self.whole))
        self.end = self.whole

    def close(self) -> None:
        """Let the record go (its lock with it); every line kept is already on disk."""
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)

    discard = close

    def _append(self, data: bytes) -> None:
        """Append ``data`` whole, or cut the file back to where it was and raise RecordError."""
        if self.fd is None:
            raise RecordError(f"cannot write the record {self.path}: it was closed")
        start, view = self.end, memoryview(data)
        try:
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as error:
            try:
                os.ftruncate(self.fd, start)
            except OSError:
                pass             # read back, the torn line is dropped (``read_record_torn``)
            raise RecordError(f"cannot write the record {self.path}: {error.strerror or error}") from None
        self.end = start + len(data)

    def _guarded(self, step: Any) -> None:
        try:
            step()
        except OSError as error:
            raise RecordError(f"cannot write the record {self.path}: {error.strerror or error}") from None


def _line(seat: int, text: str, when: float) -> dict:
    return {"seat": seat, "move": text, "t": round(when, 3)}


def _bytes(data: dict) -> bytes:
    return (json.dumps(data) + "\n").encode("utf-8")
