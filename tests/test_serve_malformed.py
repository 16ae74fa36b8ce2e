"""Every malformed message gets its ``error`` and nothing else: no traceback on the host's console,
the connection open (or, for a first message that is not a good ``join``, closed with 1008).
A real ``rules serve`` process, real WebSockets; its whole standard error is read at the end."""
from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed

from tests.serve_client import Client
from tests.serve_process import Served, Table, token

from tests.helpers import GAMES

TYPE = "a message's 'type' is text: one of join, move, ready, name, rematch"
NESTED = "[" * 2000 + "]" * 2000                       # 4000 bytes: under the size limit

AFTER_JOINING = [
    ('{"type": "join", "token": "\\ud800"}', "'join': 'token' is not valid Unicode text"),
    ('{"type": "move", "move": "throw \\udfff"}', "'move': 'move' is not valid Unicode text"),
    ('{"type": ["join"]}', TYPE),
    ('{"type": {}}', TYPE),
    ('{"type": 3}', TYPE),
    (NESTED, "not a JSON message: nested too deeply"),
    ('{"type": "move", "move": ' + "[" * 1500 + "]" * 1500 + "}", "not a JSON message: nested too deeply"),
    (b'\xff{"type": "ready"}', "not a JSON message"),
    (b'{"type": "move", "move": "\xc3"}', "not a JSON message"),
    (json.dumps({"type": "ready"}).encode("utf-16"), "not a JSON message"),
]
FIRST = [
    ('{"type": "join", "token": "\\ud800"}', "'join': 'token' is not valid Unicode text"),
    ('{"type": ["join"]}', TYPE),
    (NESTED, "not a JSON message: nested too deeply"),
    (b"\xff\xfe\xfd", "not a JSON message"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    record = tmp_path_factory.mktemp("malformed") / "game.jsonl"
    with Served(str(GAMES / "dice_poker.yaml"), "--seats", "2", "--seed", "3", "--record", str(record)) as server:
        yield server


def test_malformed_messages_get_their_error_and_no_traceback(served):
    table, seat = Table(served.links["P2"]), token(served.links["P2"])
    client = Client(served, table, seat)
    version = client.state["version"]
    for raw, message in AFTER_JOINING:
        client.send(raw)
        assert client.receive() == {"type": "error", "error": message}, raw
    for raw, message in FIRST:
        stranger = Client(served, table, join=raw)
        assert stranger.welcome == {"type": "error", "error": message}, raw
        with pytest.raises(ConnectionClosed) as closed:
            stranger.receive()
        assert closed.value.rcvd.code == 1008
    client.move("throw")                                  # the table went on as if nothing happened
    assert client.wait(lambda m: m["type"] == "state")["version"] == version + 1
    broken = Client(served, table, seat)
    broken.socket.send(b'{"type": "ready", "x": "\xff"}', text=True)   # not UTF-8 in a text frame
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            broken.receive()
    assert closed.value.rcvd.code == 1007                 # the WebSocket layer's own answer
    served.stop()
    assert "Traceback" not in served.console and "ERROR" not in served.console, served.console
    assert "INFO:     a connection sent text that is not UTF-8: closed (1007)" in served.console.splitlines()
