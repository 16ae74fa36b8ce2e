"""A seat's connection to a served table for the tests: real WebSockets to a server on a loopback
port, every text received kept as it crossed the socket."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the server needs the [serve] extra: pip install '.[serve]'")
pytest.importorskip("uvicorn", reason="the server needs the [serve] extra: pip install '.[serve]'")
pytest.importorskip("websockets", reason="the clients need the [serve] extra: pip install '.[serve]'")

from websockets.sync.client import connect  # noqa: E402

RECEIVE_TIMEOUT = 10.0


class Client:
    def __init__(self, server, table, token: str | None = None, join: dict | None = None, headers=None):
        self.socket = connect(f"{server.ws_url}/ws/{table.id}", max_size=None, additional_headers=headers).__enter__()
        self.raw: list[str] = []
        self.log: list[str] = []
        self.state: dict | None = None
        self.send(join if join is not None else ({"type": "join", "token": token} if token else {"type": "join"}))
        self.welcome = self.receive()
        if self.welcome["type"] == "welcome":
            self.wait(lambda m: m["type"] == "state")

    def send(self, message) -> None:
        self.socket.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def receive(self) -> dict:
        raw = self.socket.recv(timeout=RECEIVE_TIMEOUT)
        self.raw.append(raw)
        message = json.loads(raw)
        if message["type"] == "state":
            if message["log_from"] == len(self.log):
                self.log += message["log"]
            else:
                self.log = self.log[:message["log_from"]] + message["log"]
            self.state = message
        elif message["type"] == "presence" and self.state is not None:
            self.state = {**self.state, "connected": message["connected"]}
        return message

    def wait(self, wanted) -> dict:
        """Receive until a message is ``wanted`` (bounded by the receive timeout)."""
        while True:
            message = self.receive()
            if wanted(message):
                return message
            assert message["type"] != "error", message      # not waited for: a test's own mistake

    def wait_version(self, version: int) -> dict:
        if self.state is not None and self.state["version"] >= version:
            return self.state
        return self.wait(lambda m: m["type"] == "state" and m["version"] >= version)

    def move(self, text: str) -> None:
        self.send({"type": "move", "move": text, "version": self.state["version"]})

    def close(self) -> None:
        self.socket.close()
