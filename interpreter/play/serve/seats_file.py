"""``RECORD.seats``, beside a served table's record: how the table was made (game file, options,
bots) and its seats' tokens, so that after a restart the same links take the same seats. It is
created readable by its owner only (0600): whoever reads it has every seat."""
from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ...errors import RecordError
from ..records import Record
from .hosted import TableSetup
from .tokens import new_table_id

if TYPE_CHECKING:
    from .hosted import HostedTable


def setup_path(record_path: str) -> Path:
    return Path(str(record_path) + ".seats")


def write_setup(record_path: str, table: HostedTable) -> None:
    path = setup_path(record_path)
    data = {"table": table.id, **asdict(table.setup)}
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            json.dump(data, stream)
    except OSError as error:
        raise RecordError(f"cannot write the table's seats {path}: {error.strerror or error}") from None


def read_setup(record_path: str, record: Record) -> tuple[TableSetup, str]:
    """The table's settings and tokens; without the file, every seat is a person with a new token."""
    path = setup_path(record_path)
    if not path.exists():
        seed = cast(int, record.seed)       # a served table's record is the host's full one, with the seed
        return TableSetup(record.file, record.options, record.players, seed, [], "greedy", 2.0), new_table_id()
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
