"""Running a server: uvicorn in the foreground (``rules serve``), or in a thread on a free
loopback port (tests, the benchmark)."""
from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

from .app import create_app
from .console import log_config
from .protocol import MAX_MESSAGE_BYTES
from .registry import Tables

WS_MAX_SIZE = 16 * MAX_MESSAGE_BYTES   # larger frames are cut off by the WebSocket layer itself
START_TIMEOUT = 10.0


def config(tables: Tables, host: str, port: int, log_level: str = "warning", **limits: Any) -> uvicorn.Config:
    return uvicorn.Config(create_app(tables, **limits), host=host, port=port, log_level=log_level,
                          log_config=log_config(), ws_max_size=WS_MAX_SIZE, access_log=False, lifespan="on")


def serve(tables: Tables, host: str, port: int) -> None:
    uvicorn.Server(config(tables, host, port, "info")).run()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerThread:
    """A server on 127.0.0.1 in a thread: ``with ServerThread(tables) as server: server.url``."""

    def __init__(self, tables: Tables, port: int | None = None, **limits: Any):
        """``limits``: ``rate`` and ``burst`` of each connection's messages (scripted clients are fast)."""
        self.tables = tables
        self.port = port or free_port()
        self.server = uvicorn.Server(config(tables, "127.0.0.1", self.port, **limits))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(START_TIMEOUT)
