"""Writing a game record safely: never over a file that is not a record, never half-written.

While the game runs, each move is written (and flushed) to a temporary file in the record's
folder, under a header that holds no seed: no file shows the seed during the game. ``close``
writes the whole record, with its final header, to that temporary file and renames it onto the
target in one step, so a failed write leaves any old file whole. Ctrl-C, SIGTERM and SIGHUP stop
a game the same way (``signals``): the record so far is put in place; only a process killed outright
(SIGKILL, a crash) leaves its moves in the temporary file (``.NAME.XXXX.part`` beside the target).
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

from ..errors import RecordError
from .records import RECORD_FORMAT, Record
from .signals import signals_held

# Enough of a file's beginning to tell a record's header from anything else.
HEADER_PEEK_BYTES = 65_536


def check_target(path: str | Path, game_file: str | Path | None = None) -> None:
    """Refuse to write a record over the game file, over an existing file that is not a record,
    or into a folder that does not exist."""
    target = Path(path)
    if game_file is not None and _same_file(target, Path(game_file)):
        raise RecordError(f"{path} is the game file: the record would overwrite it",
                          hint="give the record another name, such as game.jsonl")
    if not target.exists():
        if not target.parent.is_dir():
            raise RecordError(f"cannot write the record {path}: there is no folder {target.parent}")
        return
    mode = target.stat().st_mode
    if not stat.S_ISREG(mode):
        raise RecordError(f"cannot write the record {path}: it is not a regular file",
                          hint="a record is written to a new file or over an old record")
    if target.stat().st_size and not _is_record(target):
        raise RecordError(f"{path} exists and is not a game record: it is left as it is",
                          hint="give the record a new name, or remove the file first")


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.exists() and other.exists() and os.path.samefile(one, other)
    except OSError:
        return False


def _is_record(path: Path) -> bool:
    try:
        with open(path, "rb") as stream:
            first = stream.read(HEADER_PEEK_BYTES).split(b"\n", 1)[0]
        header = json.loads(first.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(header, dict) and header.get("record") == RECORD_FORMAT


class RecordWriter:
    """A record written move by move to a temporary file, put in place by ``close``.

    Every write error is a ``RecordError`` that says the target is unchanged."""

    def __init__(self, path: str | Path, record: Record):
        self.path = str(path)
        self.record = record
        self.closed = False
        target = Path(path)
        self.existed = target.exists()
        try:
            handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        except OSError as error:
            raise self._error(error) from None
        self.temp = temp
        self.stream = os.fdopen(handle, "w", encoding="utf-8")
        self._write_lines([record.header(with_seed=False)])

    @classmethod
    def open(cls, path: str | Path, record: Record, game_file: str | Path | None = None) -> "RecordWriter":
        check_target(path, game_file)
        return cls(path, record)

    def add(self, seat: int, text: str, when: float = 0.0) -> None:
        """One move; ``when`` is its moment in seconds from the start (it orders free play)."""
        line = {"seat": seat, "move": text, "t": round(when, 3)}
        self.record.moves.append(line)
        self._write_lines([line])

    def take_back(self, count: int) -> None:
        """Drop the last ``count`` moves (taken back in play): the file holds the moves that stand."""
        if count <= 0:
            return
        del self.record.moves[-count:]
        with signals_held():        # a signal now would find the file emptied
            try:
                self.stream.seek(0)
                self.stream.truncate()
            except OSError as error:
                self.discard()
                raise self._error(error) from None
            self._write_lines([self.record.header(with_seed=False)] + self.record.moves)

    def close(self) -> None:
        """Write the whole record with its final header and rename it onto the target; a signal
        (Ctrl-C, SIGTERM, SIGHUP) waits until it is in place."""
        with signals_held():
            self._close()

    def _close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.stream.seek(0)
            self.stream.truncate()
            self._write_lines([self.record.header()] + self.record.moves, closing=True)
            os.fsync(self.stream.fileno())
            self.stream.close()
            os.chmod(self.temp, 0o666 & ~_umask())
            os.replace(self.temp, self.path)
        except OSError as error:
            self.discard()
            raise self._error(error) from None

    def discard(self) -> None:
        """Give up: remove the temporary file; the target is left as it was."""
        self.closed = True
        try:
            self.stream.close()
        except OSError:
            pass
        try:
            os.unlink(self.temp)
        except OSError:
            pass

    def _write_lines(self, lines: list[dict], closing: bool = False) -> None:
        try:
            self.stream.write("".join(json.dumps(line) + "\n" for line in lines))
            self.stream.flush()
        except OSError as error:
            if closing:
                raise
            self.discard()
            raise self._error(error) from None

    def _error(self, error: OSError) -> RecordError:
        why = error.strerror or str(error)
        kept = f"; the old {self.path} is unchanged" if self.existed else ""
        return RecordError(f"cannot write the record {self.path}: {why}{kept}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
