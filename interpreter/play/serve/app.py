"""The Starlette application: the table page, its static files, and one WebSocket per seat or
spectator.

A connection's first message is ``join`` (a seat's token, or none to watch). Then each message
is checked (size, rate, shape) and handed to its table; whenever a table changes, every
connection of it is sent that table as its own seat sees it. A ticker lets each table's bots act
on the real clock; under a fake clock they act when a message arrives.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette import websockets
from starlette.websockets import WebSocket, WebSocketDisconnect

from .hosted import HostedTable
from .protocol import MAX_REFUSED_IN_A_ROW, RATE_BURST, RATE_PER_SECOND, ProtocolError, RateLimit, error, parse_client
from .registry import Tables

TICK = 0.05                 # seconds between looks at the bots' clocks
JOIN_TIMEOUT = 30.0         # a connection that does not join by then is closed
CLOSE_POLICY = 1008         # WebSocket close code: the connection broke the protocol
# A socket that closed while a message was being answered: sending to it fails (with a class
# newer Starlette has; older ones raise RuntimeError).
GONE = (WebSocketDisconnect, RuntimeError, ConnectionError, getattr(websockets, "WebSocketDisconnected", RuntimeError))


class Connection:
    def __init__(self, socket: WebSocket, seat: int | None):
        self.socket = socket
        self.seat = seat
        self.log_sent: int | None = None     # None: not sent anything yet
        self.version = -1

    async def send_state(self, table: HostedTable) -> None:
        message = table.state_message(self.seat, self.log_sent)
        self.log_sent = message["log_from"] + len(message["log"])
        self.version = message["version"]
        await self.socket.send_text(json.dumps(message))


class Hub:
    """The open connections of each table, and the sending of its changes."""

    def __init__(self, tables: Tables, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST):
        self.tables = tables
        self.rate, self.burst = rate, burst      # each connection's limit
        self.connections: dict[str, set[Connection]] = {}

    async def broadcast(self, table: HostedTable) -> None:
        for connection in list(self.connections.get(table.id, ())):
            with contextlib.suppress(Exception):      # a closed socket: its handler cleans up
                await connection.send_state(table)

    async def tick(self) -> None:
        """Bounded by the server's life: it stops when the server shuts down."""
        while True:
            await asyncio.sleep(TICK)
            for table in list(self.tables.tables.values()):
                if not table.clock.fake and table.advance():
                    await self.broadcast(table)


def create_app(tables: Tables, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST) -> Starlette:
    hub = Hub(tables, rate, burst)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        task = asyncio.create_task(hub.tick())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def index(request: Any) -> Response:
        rows = "".join(f'<li><a href="/t/{t.id}">{t.loaded.name}</a> ({t.session.players} seats)</li>'
                       for t in tables.tables.values())
        return HTMLResponse(f"<!doctype html><title>rules</title><h1>Tables</h1><ul>{rows}</ul>"
                            "<p>Each person's link (with its token) was printed where the server was started.</p>")

    async def table_page(request: Any) -> Response:
        if tables.get(request.path_params["table"]) is None:
            return PlainTextResponse("no such table", status_code=404)
        return HTMLResponse(resources.files(__package__).joinpath("static/table.html").read_text(encoding="utf-8"))

    async def table_info(request: Any) -> Response:
        table = tables.get(request.path_params["table"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(table.welcome(None))

    async def socket(websocket: WebSocket) -> None:
        table = tables.get(websocket.path_params["table"])
        await websocket.accept()
        if table is None:
            # Answer the join (not before it: the client would find the socket closed while it sends).
            with contextlib.suppress(Exception):
                await asyncio.wait_for(_receive(websocket), JOIN_TIMEOUT)
            await websocket.send_text(json.dumps(error("no such table")))
            await websocket.close(CLOSE_POLICY)
            return
        await serve_connection(hub, table, websocket)

    static = resources.files(__package__).joinpath("static")
    routes = [Route("/", index), Route("/t/{table}", table_page), Route("/api/tables/{table}", table_info),
              WebSocketRoute("/ws/{table}", socket), Mount("/static", StaticFiles(directory=str(static)), name="static")]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


async def serve_connection(hub: Hub, table: HostedTable, websocket: WebSocket) -> None:
    seat = await _join(table, websocket)
    if seat is False:
        return
    connection = Connection(websocket, seat)
    hub.connections.setdefault(table.id, set()).add(connection)
    table.connect(seat, +1)
    try:
        await websocket.send_text(json.dumps(table.welcome(seat)))
        await hub.broadcast(table)
        await _listen(hub, table, connection)
    except GONE:
        pass
    finally:
        hub.connections[table.id].discard(connection)
        table.connect(seat, -1)
        await hub.broadcast(table)


async def _join(table: HostedTable, websocket: WebSocket) -> Any:
    """The seat the first message joins (None: a spectator), or False when it closed the connection."""
    try:
        raw = await asyncio.wait_for(_receive(websocket), JOIN_TIMEOUT)
        message = parse_client(raw)
        if message.type != "join":
            raise ProtocolError("the first message must be 'join'")
        return table.seat_for(message.token)
    except ProtocolError as problem:
        await websocket.send_text(json.dumps(error(problem.message)))
    except (asyncio.TimeoutError, *GONE):
        pass
    with contextlib.suppress(Exception):
        await websocket.close(CLOSE_POLICY)
    return False


async def _receive(websocket: WebSocket) -> str | bytes:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text") if message.get("text") is not None else message.get("bytes") or b""


async def _listen(hub: Hub, table: HostedTable, connection: Connection) -> None:
    limit = RateLimit(hub.rate, hub.burst)
    refused_in_a_row = 0
    while True:
        raw = await _receive(connection.socket)
        reply, changed = _handle(table, connection, raw, limit)
        refused_in_a_row = refused_in_a_row + 1 if reply and reply["type"] == "error" else 0
        if reply is not None:
            await connection.socket.send_text(json.dumps(reply))
        if changed:
            await hub.broadcast(table)
        elif reply is not None and reply["type"] == "refused":
            await connection.send_state(table)       # the position as it is now, to choose again
        if refused_in_a_row >= MAX_REFUSED_IN_A_ROW:
            await connection.socket.close(CLOSE_POLICY)
            return


def _handle(table: HostedTable, connection: Connection, raw: Any, limit: RateLimit) -> tuple[dict | None, bool]:
    """One message: (the reply to send back or None, whether the table changed)."""
    if not limit.allow():
        return error("too many messages: slow down"), False
    try:
        message = parse_client(raw)
    except ProtocolError as problem:
        return error(problem.message), False
    if message.type == "join":
        return error("already joined: open a new connection to change seat"), False
    if message.type == "ready":
        return None, table.set_ready(connection.seat)
    changed, reply = table.move(connection.seat, message.move, message.version)
    return reply, changed
