"""Game records: JSON Lines, a header then one line per move, and their replay.

The header names the game, a hash of its resolved spec, the game file (as given and absolute),
the options and the number of players. A full record (``"full": true``, for replay and
reproduction) also holds the seed, from which every hidden card follows; a player's record
(``"full": false``) leaves it out and cannot be replayed; it is one seat's (``"seat"``, or null
for a spectator's) and holds the other seats' private moves in their public form, as that seat
read them (``discard (3 cards)``). Each move line holds its seat, its text
and its moment (``t``, seconds from the start). Replaying a record against a spec with another
name or hash is refused. Writing records safely is ``record_writer``'s job.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from ..engine import apply_move, new_state
from ..engine.loaded import compiled_game
from ..engine.state import State
from ..errors import IllegalMove, RecordError, RulesError
from ..limits import MAX_INT, MAX_PLAYERS, MAX_RECORD_BYTES
from ..load.bundled import games_folder

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.loaded import LoadedGame

RECORD_FORMAT = 1


@dataclass
class Record:
    game: str
    spec_hash: str
    file: str
    options: dict
    seed: int | None
    players: int
    moves: list[dict] = field(default_factory=list)
    file_abs: str = ""
    full: bool = True
    file_rel: str = ""          # the game file from the record's folder (a record moved with its game)
    seat: int | None = None     # a player's record: whose it is (None: a spectator's)

    def header(self, with_seed: bool = True) -> dict:
        """The first line; the seed only in a full record and only when asked (``with_seed``);
        the seat in a player's record."""
        full = self.full and with_seed
        head = {"record": RECORD_FORMAT, "game": self.game, "spec_hash": self.spec_hash, "file": self.file,
                "file_abs": self.file_abs, "file_rel": self.file_rel, "options": self.options, "players": self.players, "full": full}
        if full:
            head["seed"] = self.seed
        elif not self.full:
            head["seat"] = self.seat
        return head


def read_record(path: str | Path) -> Record:
    """Read a record file; any damage is a RecordError naming the line."""
    try:
        _check_size(path)
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read record {path}: {error}", hint=_left_behind(path)) from None
    return _record_of(path, lines)


def _left_behind(path: str | Path) -> str | None:
    """Where a game killed outright (SIGKILL, a crash) left the moves of the record ``path``, which
    it never put in place: the temporary file ``record_writer`` writes beside it."""
    target = Path(path)
    if target.exists():
        return None
    parts = sorted(target.parent.glob(f".{target.name}.*.part"), key=lambda p: p.stat().st_mtime)
    if not parts:
        return None
    return (f"the game was stopped before its record was put in place; its moves so far are in {parts[-1]}, "
            "without the seed (it cannot be replayed)")


@dataclass(frozen=True)
class TornLine:
    """A record's last line that is not whole (cut off as it was written, or the NUL bytes a crash
    can leave): its number, its size in bytes, and the bytes of the whole lines before it."""
    line: int
    size: int
    keep: int


def read_record_torn(path: str | Path) -> tuple[Record, TornLine | None]:
    """As ``read_record`` (for a record written live, to go on with it), except that a last move
    line that is not a whole JSON object is dropped, and described, instead of refused. Damage in
    any other line is still a RecordError naming it."""
    try:
        _check_size(path)
        data = Path(path).read_bytes()
    except OSError as error:
        raise RecordError(f"cannot read record {path}: {error}") from None
    end = len(data.rstrip())
    start = data.rfind(b"\n", 0, end) + 1
    torn = None
    if start > 0 and not _whole_line(data[start:end]):
        keep = data[:start]
        torn = TornLine(len(keep.decode("utf-8", "replace").splitlines()) + 1, len(data) - start, start)
        data = keep
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise RecordError(f"cannot read record {path}: {error}") from None
    return _record_of(path, lines), torn


def _check_size(path: str | Path) -> None:
    if os.path.getsize(path) > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: the record is larger than {MAX_RECORD_BYTES:,} bytes (the limit)")


def _whole_line(line: bytes) -> bool:
    """A JSON object written whole: no NUL byte, UTF-8, parsed to its closing brace."""
    if b"\0" in line:
        return False
    try:
        return isinstance(json.loads(line.decode("utf-8")), dict)
    except (ValueError, RecursionError):        # UnicodeDecodeError and JSONDecodeError included
        return False


def _record_of(path: str | Path, lines: list[str]) -> Record:
    """The record of a file's lines: the header, then every move line checked."""
    if not lines:
        raise RecordError(f"{path}: the record is empty")
    record = _header(path, _parse_line(path, 1, lines[0]))
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():
            move = _parse_line(path, number, line)
            seat = move.get("seat")
            if not _is_int(seat) or not isinstance(move.get("move"), str):
                raise RecordError(f"{path}:{number}: a move line needs 'seat' (a number) and 'move' (text)")
            if not 0 <= seat < record.players:
                raise RecordError(f"{path}:{number}: seat {seat} is not a seat of a game of {record.players}")
            move["line"] = number
            record.moves.append(move)
    return record


def _header(path: str | Path, header: dict) -> Record:
    if header.get("record") != RECORD_FORMAT:
        raise RecordError(f"{path}:1: not a game record (no 'record: {RECORD_FORMAT}' header)")
    fields = {"game": str, "spec_hash": str, "file": str, "file_abs": str, "file_rel": str, "options": dict}
    for name, kind in fields.items():
        if name in header and not isinstance(header[name], kind):
            raise RecordError(f"{path}:1: the header's '{name}' must be {_KIND_NAMES[kind]}")
    for name in ("game", "spec_hash", "options", "players"):
        if name not in header:
            raise RecordError(f"{path}:1: the header lacks '{name}'")
    players, full = header["players"], header.get("full", True)
    if not _is_int(players) or not 1 <= players <= MAX_PLAYERS:
        raise RecordError(f"{path}:1: the header's 'players' must be a whole number from 1 to {MAX_PLAYERS}, "
                          f"not {_short(players)}")
    if not isinstance(full, bool):
        raise RecordError(f"{path}:1: the header's 'full' must be true or false")
    seat = header.get("seat")
    if seat is not None and (not _is_int(seat) or not 0 <= seat < players):
        raise RecordError(f"{path}:1: the header's 'seat' must be a seat of a game of {players} (from 0) or null, "
                          f"not {_short(seat)}")
    seed = header.get("seed")
    if full and (not _is_int(seed) or abs(seed) > MAX_INT):
        raise RecordError(f"{path}:1: the header's 'seed' must be a whole number of at most 18 digits, "
                          f"not {_short(seed)}")
    return Record(header["game"], header["spec_hash"], header.get("file", ""), dict(header["options"]),
                  seed if full else None, players, file_abs=header.get("file_abs", ""), full=full,
                  seat=None if full else seat, file_rel=header.get("file_rel", ""))


_KIND_NAMES = {str: "text", dict: "a mapping"}


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: Any) -> str:
    text = repr(value) if isinstance(value, float) else json.dumps(value)
    return text if len(text) <= 24 else text[:20] + "..."


def game_file_of(record: Record, record_path: str | Path) -> tuple[str, str]:
    """The game file to replay a record with, and which of its paths was used: the path from the
    record's folder (a record moved with its game), the absolute path it was made with, else the
    path as given (from the current folder, then from the record's folder); when none exists,
    the path as given, for the error to name."""
    given = Path(record.file)
    candidates = [(str(Path(record_path).parent / record.file_rel), "the path in the record, from the record's folder")
                  ] if record.file_rel else []
    candidates += [(record.file_abs, "the absolute path in the record")] if record.file_abs else []
    candidates += [(record.file, "the path in the record, from the current folder")]
    if not given.is_absolute():
        candidates.append((str(Path(record_path).parent / given), "the path in the record, from the record's folder"))
    for path, how in candidates:
        if path and Path(path).is_file():
            return path, how
    return record.file, "the path in the record"


def relative_game_path(game_file: str | Path, record_path: str | Path) -> str:
    """The game file as seen from the record's folder; "" for a bundled game (found by its name)
    and where no such path exists (another drive)."""
    game, bundled = Path(game_file).resolve(), games_folder()
    if bundled is not None and game.parent == bundled.resolve():
        return ""
    try:
        return os.path.relpath(game, Path(record_path).resolve().parent)
    except ValueError:
        return ""


def _parse_line(path: str | Path, number: int, line: str) -> dict:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}:{number}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise RecordError(f"{path}:{number}: not a record line: JSON nested too deeply") from None
    except ValueError as error:     # a number of more digits than Python converts
        raise RecordError(f"{path}:{number}: not a record line: {error}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}:{number}: expected a JSON object")
    return data


def replay(game: Game | LoadedGame, record: Record, spec_hash: str | None = None) -> State:
    """Play a record's moves again from its seed; refuse a record of another spec (``spec_hash``:
    by default the digest of ``game``, what ``load_game`` returns). A move the game refuses is an
    error of the record; an error of the game's rules while a move is played is reported as the
    game reports it, with the record's line."""
    game = compiled_game(game)
    if spec_hash is None:
        spec_hash = game.spec.digest()
    if record.game != game.name:
        raise RecordError(f"the record is of {record.game}, not of {game.name}",
                          hint="replay it with the game file it was made with (--game FILE)")
    if not record.full:
        raise RecordError("a player's record holds no seed: it cannot be replayed",
                          hint="record with --record (a full record) to replay a game")
    if record.spec_hash != spec_hash:
        raise RecordError(
            f"the record was made with another version of {record.game} (spec hash {record.spec_hash}, "
            f"this file has {spec_hash})", hint="replay it with the game file and options it was made with")
    assert record.seed is not None      # a full record holds its seed
    state = new_state(game, record.players, record.seed)
    for move in record.moves:
        try:
            apply_move(game, state, move["move"], move["seat"])
        except IllegalMove as error:
            raise RecordError(f"line {move['line']}: move '{move['move']}' of P{move['seat'] + 1} "
                              f"cannot be replayed: {error.message}") from None
        except RulesError as error:
            raise error.within(f"in line {move['line']} of the record") from None
    return state
