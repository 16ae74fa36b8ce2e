"""A table that meets an error stops, visibly, and alone: the game's error or a record that cannot
be written, on a bot's action (the ticker) or a person's move. Every seat is told (``stopped``,
and the state), the host's console gets the whole error, nothing more is played, and the ticker
goes on for the other tables. Real server on a loopback port, real WebSockets."""
from __future__ import annotations

import json
import logging
import os
import time

import pytest

from tests.runtime_games import CASES
from tests.serve_client import Client
from interpreter.play.serve.console import LOGGER
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES, everyone_ready

GAME_STOPPED = "the table has stopped: the game met an error (the host has the details)"
WAIT = 10.0


@pytest.fixture
def console():
    """``console()``: what the server tells the host's console from then on (its logger, which
    ``rules serve`` prints); called once the server has set up its logging."""
    lines: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = lines.append
    logger = logging.getLogger(LOGGER)

    def listen():
        logger.addHandler(handler)
        return lines
    yield listen
    logger.removeHandler(handler)


def eventually(check, what):
    """Wait (bounded) until ``check()`` is true."""
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def stopped_state(client):
    """The first state of the stopped table a client got: on joining (a client that joins a
    stopped table is told so at once) or later."""
    if not (client.state or {}).get("stopped"):
        client.wait(lambda m: m["type"] == "state" and m["stopped"])
    return client.state


def probe(tmp_path, free_play):
    text = CASES["division by zero"]
    if free_play:
        text = text.replace("      turns: {from: who, each: once}\n", "")
    path = tmp_path / "probe.yaml"
    path.write_text(text)
    return path


def test_a_game_error_on_the_ticker_stops_that_table_only(tmp_path, console):
    tables = Tables()
    path = probe(tmp_path, free_play=True)
    # The bot's move is due a second after the table is made: time for the server to start and
    # for the console to be listened to (the server's logging set-up replaces its handlers).
    broken = everyone_ready(tables.create(str(path), players=2, bots={1}, bot_speed=1.0,
                                          record_path=str(tmp_path / "p.jsonl")))
    other = tables.create(str(GAMES / "nerts.yaml"), players=2, bots={0, 1}, bot_speed=0.05, seed=3)
    with ServerThread(tables) as server:
        said = console()
        person = Client(server, broken, broken.tokens.token(0))
        watcher = Client(server, broken)
        for client in (person, watcher):
            state = stopped_state(client)
            assert state["stopped"] == GAME_STOPPED and state["view"]["moves"] == []
            assert {"type": "stopped", "reason": GAME_STOPPED} in map(json.loads, client.raw)
        person.move("poke")
        assert person.receive() == {"type": "refused", "move": "poke", "reason": GAME_STOPPED}
        [report] = [r for r in said if r.levelno == logging.ERROR]
        assert report.getMessage().startswith(
            f"table {broken.id} stopped: the game met an error:\n{path}:19:19: error: division by zero\n")
        assert report.getMessage().endswith("while P2 played 'poke' (move 1; round 1, phase 'play')")
        assert (tmp_path / "p.jsonl").read_text().count("\n") == 1      # the failed move is not on the record
        version = other.version
        eventually(lambda: other.version > version + 5, "the other table's bots went on")
        assert not server.server.config.app.state.ticker.done()


def test_a_game_error_on_a_persons_move_stops_the_table(tmp_path, console):
    tables = Tables()
    table = tables.create(str(probe(tmp_path, free_play=False)), players=2, fake_clock=0.5,
                          record_path=str(tmp_path / "p.jsonl"))
    with ServerThread(tables) as server:
        said = console()
        first, second = (Client(server, table, table.tokens.token(seat)) for seat in (0, 1))
        first.move("poke")
        assert first.wait(lambda m: m["type"] == "refused") == {"type": "refused", "move": "poke",
                                                                "reason": GAME_STOPPED}
        assert first.receive() == {"type": "stopped", "reason": GAME_STOPPED}
        assert second.wait(lambda m: m["type"] == "stopped") == {"type": "stopped", "reason": GAME_STOPPED}
        for client in (first, second):
            assert client.wait(lambda m: m["type"] == "state")["stopped"] == GAME_STOPPED
        assert [r.getMessage().split("\n")[0] for r in said] == [f"table {table.id} stopped: the game met an error:"]
    assert (tmp_path / "p.jsonl").read_text().count("\n") == 1      # written ahead, cut off again


def test_a_bots_move_that_cannot_be_recorded_stops_the_table_unplayed(tmp_path, console):
    record = tmp_path / "nerts.jsonl"
    tables = Tables()
    table = everyone_ready(tables.create(str(GAMES / "nerts.yaml"), players=2, bots={1}, bot_speed=0.05, seed=7,
                                         record_path=str(record)))
    reason = "the table has stopped: the server cannot write its record (No space left on device)"
    with ServerThread(tables) as server:
        said = console()
        person = Client(server, table, table.tokens.token(0))
        person.wait(lambda m: m["type"] == "state" and len(person.log) >= 3)
        full = os.open("/dev/full", os.O_WRONLY)
        os.dup2(full, table.session.record.fd)          # the disk is full from now on
        os.close(full)
        assert person.wait(lambda m: m["type"] == "stopped") == {"type": "stopped", "reason": reason}
        state = person.wait(lambda m: m["type"] == "state")
        assert state["stopped"] == reason
        assert [r.getMessage() for r in said] == [
            f"table {table.id} stopped: cannot write the record {record}: No space left on device. The record is "
            f"whole up to the last move played: make room, then go on with: rules serve --resume {record}"]
    moves = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    # What the seat saw is what the record holds: the move that could not be written was not played.
    assert [f"P{m['seat'] + 1}: {m['move']}" for m in moves] == [
        f"P{e.seat + 1}: {e.move.text}" for e in table.session.log if e.move is not None]
    assert person.log == table.session.log_lines(0)
