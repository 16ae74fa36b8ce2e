"""Game records: JSON Lines, a header then one line per move, and their replay.

The header names the game, a hash of its resolved spec, the options, the seed and the number of
players; each move line its seat, its text and its moment (``t``, seconds from the start).
Replaying a record against a spec with another hash is refused.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..engine import apply_move, new_state
from ..engine.state import State
from ..errors import RecordError, RulesError

RECORD_FORMAT = 1


@dataclass
class Record:
    game: str
    spec_hash: str
    file: str
    options: dict
    seed: int
    players: int
    moves: list[dict] = field(default_factory=list)

    def header(self) -> dict:
        return {"record": RECORD_FORMAT, "game": self.game, "spec_hash": self.spec_hash, "file": self.file,
                "options": self.options, "seed": self.seed, "players": self.players}


class RecordWriter:
    """Writes a record line by line, flushing each, so nothing is lost when play stops early."""

    def __init__(self, stream: IO[str], record: Record):
        self.stream = stream
        self.record = record
        self._write(record.header())

    def add(self, seat: int, text: str, when: float = 0.0) -> None:
        """One move; ``when`` is its moment in seconds from the start (it orders free play)."""
        line = {"seat": seat, "move": text, "t": round(when, 3)}
        self.record.moves.append(line)
        self._write(line)

    def _write(self, data: dict) -> None:
        self.stream.write(json.dumps(data) + "\n")
        self.stream.flush()


def read_record(path: str | Path) -> Record:
    """Read a record file; any damage is a RecordError naming the line."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read record {path}: {error}") from None
    if not lines:
        raise RecordError(f"{path}: the record is empty")
    header = _parse_line(path, 1, lines[0])
    if header.get("record") != RECORD_FORMAT:
        raise RecordError(f"{path}:1: not a game record (no 'record: {RECORD_FORMAT}' header)")
    try:
        record = Record(header["game"], header["spec_hash"], header.get("file", ""), dict(header["options"]),
                        int(header["seed"]), int(header["players"]))
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"{path}:1: the header lacks or garbles {error}") from None
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():
            move = _parse_line(path, number, line)
            if not isinstance(move.get("seat"), int) or not isinstance(move.get("move"), str):
                raise RecordError(f"{path}:{number}: a move line needs 'seat' (a number) and 'move' (text)")
            move["line"] = number
            record.moves.append(move)
    return record


def _parse_line(path: Any, number: int, line: str) -> dict:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}:{number}: not valid JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}:{number}: expected a JSON object")
    return data


def replay(game: Any, record: Record, spec_hash: str) -> State:
    """Play a record's moves again from its seed; refuse a record of another spec."""
    if record.spec_hash != spec_hash:
        raise RecordError(
            f"the record was made with another version of {record.game} (spec hash {record.spec_hash}, "
            f"this file has {spec_hash})", hint="replay it with the game file and options it was made with")
    state = new_state(game, record.players, record.seed)
    for move in record.moves:
        try:
            apply_move(game, state, move["move"], move["seat"])
        except RulesError as error:
            raise RecordError(f"line {move['line']}: move '{move['move']}' of P{move['seat'] + 1} "
                              f"cannot be replayed: {error.message}") from None
    return state
