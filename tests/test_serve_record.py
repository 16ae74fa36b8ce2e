"""A served table's record: a write that fails (a full disk) stops the table, with the move not
played and the record whole; one server per record (a lock); a torn last line dropped on resume
and said; the times of a resumed record checked; the file its owner's only. Real ``rules serve``
processes where it is about the process, real WebSockets."""
from __future__ import annotations

import json
import os
import stat

import pytest

from tests.serve_client import Client
from tests.serve_process import Served, Table, token
from interpreter.errors import RecordError
from interpreter.play.serve.registry import Tables, setup_path

from tests.helpers import GAMES

DICE = str(GAMES / "dice_poker.yaml")
STOPPED = "the table has stopped: the server cannot write its record (File too large)"


def play(client, count):
    """``count`` moves of the client's seat (its first legal move each time)."""
    for _ in range(count):
        version = client.state["version"]
        client.move(client.state["view"]["moves"][0])
        client.wait(lambda m: m["type"] == "state" and m["version"] > version)


@pytest.mark.slow
def test_a_record_that_cannot_be_written_stops_the_table_without_the_move(tmp_path):
    record = tmp_path / "game.jsonl"
    with Served(DICE, "--seats", "2", "--seed", "3", "--record", str(record)) as served:
        links = served.links
        table = Table(links["P1"])
        second = Client(served, table, token(links["P2"]))
        play(second, 2)
        log = list(second.log)
    kept = record.read_bytes()
    assert len(kept.splitlines()) == 3

    # A disk with room for 10 more bytes: the next move's line cannot be written whole.
    with Served("--resume", str(record), file_limit=len(kept) + 10, cache=tmp_path / "cache") as served:
        first = Client(served, table, token(links["P1"]))
        second = Client(served, table, token(links["P2"]))
        version = second.state["version"]
        move = second.state["view"]["moves"][0]
        second.move(move)
        assert second.receive() == {"type": "refused", "move": move, "reason": STOPPED}
        assert second.receive() == {"type": "stopped", "reason": STOPPED}
        for client in (first, second):
            if client is first:
                client.wait(lambda m: m["type"] == "stopped")
            state = client.wait(lambda m: m["type"] == "state")
            assert state["stopped"] == STOPPED and state["version"] == version + 1
            assert state["view"]["moves"] == [] and client.log == log       # the move was not played
        second.move(move)
        assert second.receive() == {"type": "refused", "move": move, "reason": STOPPED}
        assert record.read_bytes() == kept                   # whole, to its last move: no part of a line
        served.wait_for(served.err, "stopped")
    assert (f"ERROR:    table {table.id} stopped: cannot write the record {record}: File too large. The record is "
            f"whole up to the last move played: make room, then go on with: rules serve --resume {record}"
            ) in served.console.splitlines()
    assert "Traceback" not in served.console

    with Served("--resume", str(record)) as served:          # room again: it goes on from there
        second = Client(served, table, token(links["P2"]))
        assert second.log == log and second.state["stopped"] is None
        play(second, 1)
    lines = record.read_bytes().splitlines()
    assert record.read_bytes().startswith(kept) and len(lines) == 4 and json.loads(lines[3])["move"] == move


@pytest.mark.slow
def test_one_record_has_one_server(tmp_path):
    record = tmp_path / "game.jsonl"
    refused = f"error: cannot use the record {record}: another server is writing it"
    with Served(DICE, "--seats", "2", "--seed", "3", "--record", str(record)) as served:
        play(Client(served, Table(served.links["P2"]), token(served.links["P2"])), 1)
        kept = record.read_bytes()
        for args in (["--resume", str(record)], [DICE, "--record", str(record)]):
            other = Served(*args)
            assert other.finished() == 1
            assert other.console.splitlines()[0] == refused
            assert record.read_bytes() == kept               # not emptied, not appended to
    with Served("--resume", str(record)) as served:          # the first has stopped: free again
        pass


@pytest.mark.parametrize("tail", [b'{"seat": 1, "move": "resc', b"\0" * 37], ids=["cut", "nul"])
def test_a_torn_last_line_is_dropped_on_resume_and_said(tmp_path, tail):
    record = tmp_path / "game.jsonl"
    table = Tables().create(DICE, players=2, seed=3, fake_clock=0.5, record_path=str(record))
    for _ in range(3):
        table.move(1, table.session.legal(1)[0].text, table.version)
    log = table.session.log_lines(1)
    table.close()
    kept = record.read_bytes()
    record.write_bytes(kept + tail)
    with Served("--resume", str(record)) as served:
        assert served.console.splitlines()[0] == (
            f"warning: {record}:5: the last line is not a whole move (cut off when the server stopped): "
            f"dropped ({len(tail)} bytes); the table goes on from the move before it")
        client = Client(served, table, table.tokens.token(1))
        assert client.log == log and client.state["version"] == 0
        play(client, 1)
    lines = record.read_bytes().splitlines()
    assert record.read_bytes().startswith(kept) and len(lines) == 5 and json.loads(lines[4])["seat"] == 1


def test_a_damaged_line_that_is_not_the_last_is_an_error_with_its_number(tmp_path):
    record = tmp_path / "game.jsonl"
    table = Tables().create(DICE, players=2, seed=3, fake_clock=0.5, record_path=str(record))
    for _ in range(3):
        table.move(1, table.session.legal(1)[0].text, table.version)
    table.close()
    lines = record.read_bytes().splitlines(keepends=True)
    record.write_bytes(b"".join(lines[:2] + [b'{"seat": 1, "mo\n'] + lines[3:]))
    with pytest.raises(RecordError) as caught:
        Tables().resume(str(record))
    assert caught.value.message == f"{record}:3: not valid JSON (Unterminated string starting at)"


def test_a_record_whose_last_line_lost_only_its_newline_keeps_that_move(tmp_path):
    record = tmp_path / "game.jsonl"
    table = Tables().create(DICE, players=2, seed=3, fake_clock=0.5, record_path=str(record))
    table.move(1, "throw", table.version)
    table.close()
    record.write_bytes(record.read_bytes().rstrip(b"\n"))
    said = []
    again = Tables().resume(str(record), fake_clock=0.5, warn=said.append)
    assert said == [] and again.session.log_lines(1) == ["P2: throw all five dice"]
    again.move(1, again.session.legal(1)[0].text, again.version)
    again.close()
    assert [json.loads(line)["t"] for line in record.read_bytes().splitlines()[1:]] == [1.0, 2.0]


@pytest.mark.parametrize("times, message", [
    ([1.0, "NaN"], "{path}:3: the move's time 't' must be a number of seconds from the start, not nan"),
    ([1.0, "Infinity"], "{path}:3: the move's time 't' must be a number of seconds from the start, not inf"),
    (["1e999"], "{path}:2: the move's time 't' must be a number of seconds from the start, not inf"),
    ([-1.0], "{path}:2: the move's time 't' must be a number of seconds from the start, not -1.0"),
    ([1.0, '"2"'], "{path}:3: the move's time 't' must be a number of seconds from the start, not '2'"),
    ([2.5, 1.5], "{path}:3: the move's time 1.5 is before the time of the move above it (2.5)"),
    ([1.0, None], "{path}:3: the move has no time ('t')"),
])
def test_the_times_of_a_resumed_record_are_checked(tmp_path, times, message):
    record = tmp_path / "game.jsonl"
    table = Tables().create(DICE, players=2, seed=3, fake_clock=0.5, record_path=str(record))
    moves = []
    for _ in times:
        moves.append(table.session.legal(1)[0].text)
        table.move(1, moves[-1], table.version)
    table.close()
    header = record.read_text().splitlines()[0]
    lines = [f'{{"seat": 1, "move": "{move}"' + ("" if t is None else f', "t": {t}') + "}"
             for move, t in zip(moves, times)]
    record.write_text("\n".join([header, *lines]) + "\n")
    with pytest.raises(RecordError) as caught:
        Tables().resume(str(record))
    assert caught.value.message == message.format(path=record)


def test_the_record_is_its_owners_only(tmp_path):
    old = os.umask(0o022)
    try:
        record = tmp_path / "game.jsonl"
        Tables().create(DICE, players=2, seed=3, record_path=str(record)).close()
        assert stat.S_IMODE(record.stat().st_mode) == 0o600
        assert stat.S_IMODE(setup_path(str(record)).stat().st_mode) == 0o600
        record.chmod(0o644)                        # a record made another way, written over
        Tables().create(DICE, players=2, seed=4, record_path=str(record)).close()
        assert stat.S_IMODE(record.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_record_in_use_is_neither_emptied_nor_resumed_in_the_same_process(tmp_path):
    record = tmp_path / "game.jsonl"
    table = Tables().create(DICE, players=2, seed=3, fake_clock=0.5, record_path=str(record))
    table.move(1, "throw", table.version)
    kept = record.read_bytes()
    for attempt in (lambda: Tables().resume(str(record)),
                    lambda: Tables().create(DICE, players=2, seed=4, record_path=str(record))):
        with pytest.raises(RecordError) as caught:
            attempt()
        assert caught.value.message == f"cannot use the record {record}: another server is writing it"
    assert record.read_bytes() == kept
    table.close()
    Tables().resume(str(record)).close()
