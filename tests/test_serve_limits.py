"""The server's limits on connections, over real WebSockets to a server on a loopback port: too
many messages not taken in a row close a connection (however they are mixed); a connection that
never reads is cut off and holds up nobody; joins and leaves cost the others a ``presence`` at
most; at most 256 connections per table and 32 per address."""
from __future__ import annotations

import base64
import json
import os
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed

from tests.serve_client import Client
from interpreter.play.serve.protocol import MAX_CONNECTIONS_PER_ADDRESS, MAX_CONNECTIONS_PER_TABLE
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES

DICE = str(GAMES / "dice_poker.yaml")
WAIT = 10.0


def closed_with(client) -> tuple[int, str]:
    """Receive until the server closes the connection: its close code and reason."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.receive()
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_messages_not_taken_close_the_connection_however_they_are_mixed():
    tables = Tables()
    table = tables.create(DICE, players=2, seed=3, fake_clock=0.5)
    with ServerThread(tables, rate=0.001, burst=100) as server:     # 100 messages, then "slow down"
        client = Client(server, table, table.tokens.token(0))       # P2 plays first: P1's moves are refused
        for _ in range(50):
            client.move("throw")
            client.send("{")
        for _ in range(100):
            client.send("{")
        replies = [client.receive() for _ in range(250)]
        assert [r["type"] for r in replies[:150]] == ["refused", "state", "error"] * 50
        assert {r.get("reason") or r.get("error") for r in replies[:150] if r["type"] != "state"} == {
            "it is P2's turn", "not a JSON message"}
        assert replies[150:] == [{"type": "error", "error": "too many messages: slow down"}] * 100
        assert closed_with(client) == (1008, "too many messages refused")


def test_a_message_taken_starts_the_count_again():
    tables = Tables()
    table = tables.create(DICE, players=2, seed=3, fake_clock=0.5)
    with ServerThread(tables, rate=1000, burst=1000) as server:
        client = Client(server, table, table.tokens.token(1))
        for _ in range(2):
            for _ in range(199):
                client.send("{")
            assert [client.receive() for _ in range(199)] == [{"type": "error", "error": "not a JSON message"}] * 199
            client.move(client.state["view"]["moves"][0])      # taken: the count starts again
            client.wait(lambda m: m["type"] == "state")
        for _ in range(200):
            client.send("{")
        errors = [client.receive() for _ in range(200)]
        assert errors == [{"type": "error", "error": "not a JSON message"}] * 200
        assert closed_with(client) == (1008, "too many messages refused")


def raw_spectator(port: int, table_id: str) -> socket.socket:
    """A WebSocket that joins as a spectator and then reads nothing: a small receive buffer, the
    handshake by hand."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(WAIT)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    assert head.startswith(b"HTTP/1.1 101 "), head
    data, mask = b'{"type": "join"}', os.urandom(4)
    raw.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
    return raw


@pytest.mark.slow
def test_a_connection_that_never_reads_is_cut_off_and_holds_up_nobody():
    tables = Tables()
    table = tables.create(str(GAMES / "nerts.yaml"), players=2, bots={1}, seed=5, fake_clock=0.5)
    with ServerThread(tables, rate=10**6, burst=10**6) as server:
        player, watcher = Client(server, table, table.tokens.token(0)), Client(server, table)
        connections = server.server.config.app.state.hub.connections[table.id]
        slow = raw_spectator(server.port, table.id)
        deadline = time.monotonic() + WAIT
        while len(connections) < 3:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        for count in range(20_000):
            if len(connections) < 3:
                break
            state = player.state
            assert not state["final"], "the game ended before the slow connection was cut off"
            version = state["version"]
            if state["paused"]:
                player.send({"type": "ready"})
            else:
                player.move(state["view"]["moves"][0])
            if player.wait(lambda m: (m["type"] == "state" and m["version"] > version) or m["type"] == "refused")[
                    "type"] == "refused":
                player.wait(lambda m: m["type"] == "state")
            watcher.wait_version(player.state["version"])     # the others get every state meanwhile
        assert len(connections) == 2 and count > 100
        assert watcher.wait_version(table.version)["version"] == table.version
        received = 0
        while True:                         # what the kernel held for it, then the end: it was dropped
            try:
                data = slow.recv(1 << 16)
            except ConnectionResetError:
                break
            if not data:
                break
            received += len(data)
        assert received > 0
        slow.close()


def test_joins_and_leaves_cost_the_others_a_presence_at_most():
    tables = Tables()
    table = tables.create(str(GAMES / "nerts.yaml"), players=3, bots={2}, seed=5, fake_clock=0.5)
    with ServerThread(tables) as server:
        first = Client(server, table, table.tokens.token(0))
        public = table.state_message(None, None)
        watchers = [Client(server, table) for _ in range(200)]
        for watcher in watchers:
            assert watcher.welcome["seat"] is None and watcher.welcome["type"] == "welcome"
            assert watcher.state == json.loads(json.dumps(public))
        for watcher in watchers[100:]:
            watcher.close()
        second = Client(server, table, table.tokens.token(1))     # a seat arrives: everyone is told
        presence = {"type": "presence", "connected": [0, 1], "names": {}}
        assert first.receive() == presence                       # nothing before it from 300 joins and leaves
        assert all(watcher.receive() == presence for watcher in watchers[:100])
        assert second.state["connected"] == [0, 1]
        second.close()
        assert first.receive() == {"type": "presence", "connected": [0], "names": {}}
        assert watchers[0].receive() == {"type": "presence", "connected": [0], "names": {}}
        for watcher in [first, *watchers[:100]]:
            watcher.close()


def test_at_most_32_connections_from_one_address():
    tables = Tables()
    table = tables.create(DICE, players=2, seed=3, fake_clock=0.5)
    refusal = {"type": "error", "error": "too many connections from your address: at most 32"}
    proxied = {"X-Forwarded-For": "203.0.113.7"}    # through a proxy on this machine, as uvicorn trusts
    with ServerThread(tables) as server:
        clients = [Client(server, table, headers=proxied) for _ in range(MAX_CONNECTIONS_PER_ADDRESS)]
        assert all(c.welcome["type"] == "welcome" for c in clients)
        extra = Client(server, table, headers=proxied)
        assert extra.welcome == refusal and closed_with(extra)[0] == 1008
        assert Client(server, table).welcome["type"] == "welcome"                  # another address
        assert Client(server, table, headers={"X-Forwarded-For": "203.0.113.8"}).welcome["type"] == "welcome"
        clients.pop().close()
        deadline = time.monotonic() + WAIT
        while (again := Client(server, table, headers=proxied)).welcome == refusal:   # once the server saw it go
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert again.welcome["type"] == "welcome"


def test_at_most_256_connections_per_table():
    tables = Tables()
    table = tables.create(DICE, players=2, seed=3, fake_clock=0.5)
    other = tables.create(DICE, players=2, seed=4, fake_clock=0.5)
    with ServerThread(tables) as server:
        clients = [Client(server, table) for _ in range(MAX_CONNECTIONS_PER_TABLE)]
        assert all(c.welcome["type"] == "welcome" for c in clients)
        extra = Client(server, table, table.tokens.token(0))
        assert extra.welcome == {"type": "error", "error": "this table is full: at most 256 connections"}
        assert closed_with(extra)[0] == 1008
        assert Client(server, other).welcome["type"] == "welcome"      # another table has room
        for client in clients:
            client.close()
