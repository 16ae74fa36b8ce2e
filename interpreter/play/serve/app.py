"""The Starlette application: the table page, its static files, and one WebSocket per seat or
spectator.

A connection's first message is ``join`` (a seat's token, or none to watch). Then each message
is checked (size, rate, shape) and handed to its table; whatever changes is sent by the ``Hub``.
A connection beyond the limits (per table, per address) is refused with an ``error``; one that
sends ``MAX_REFUSED_IN_A_ROW`` messages in a row that are not taken (errors, refusals) is
closed. No message, however malformed, ends in a traceback: each gets its ``error``.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .connection import CLOSE_POLICY, GONE, Connection, SocketHooks
from .hosted import HostedTable
from .hub import Hub
from .protocol import (
    MAX_REFUSED_IN_A_ROW,
    RATE_BURST,
    RATE_PER_SECOND,
    ProtocolError,
    RateLimit,
    error,
    parse_client,
)
from .registry import Tables

if TYPE_CHECKING:
    from starlette.requests import Request

JOIN_TIMEOUT = 30.0         # a connection that does not join by then is closed
REFUSE_WAIT = 5.0           # a refused connection's first message is awaited this long, then answered


def create_app(tables: Tables, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST) -> Starlette:
    hub = Hub(tables, rate, burst)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        task = asyncio.create_task(hub.tick())
        app.state.ticker = task
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            tables.close()          # the records let go: another server may go on with them

    async def index(request: Request) -> Response:
        rows = "".join(f'<li><a href="/t/{t.id}">{t.loaded.name}</a> ({t.session.players} seats)</li>'
                       for t in tables.tables.values())
        return HTMLResponse(f"<!doctype html><title>rules</title><h1>Tables</h1><ul>{rows}</ul>"
                            "<p>Each person's link (with its token) was printed where the server was started.</p>")

    async def table_page(request: Request) -> Response:
        if tables.get(request.path_params["table"]) is None:
            return PlainTextResponse("no such table", status_code=404)
        return HTMLResponse(resources.files(__package__).joinpath("static/table.html").read_text(encoding="utf-8"))

    async def table_info(request: Request) -> Response:
        table = tables.get(request.path_params["table"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(table.welcome(None))

    async def socket(websocket: WebSocket) -> None:
        table = tables.get(websocket.path_params["table"])
        address = websocket.client.host if websocket.client else ""
        await websocket.accept()
        refusal = "no such table" if table is None else hub.admit(table, address)
        if refusal is not None:
            await _refuse(websocket, refusal)
            return
        assert table is not None        # no such table was refused
        try:
            await serve_connection(hub, table, websocket)
        finally:
            hub.release(table, address)

    static = resources.files(__package__).joinpath("static")
    routes = [Route("/", index), Route("/t/{table}", table_page), Route("/api/tables/{table}", table_info),
              WebSocketRoute("/ws/{table}", socket), Mount("/static", StaticFiles(directory=str(static)), name="static")]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SocketHooks)])
    app.state.hub = hub
    return app


async def _refuse(websocket: WebSocket, text: str) -> None:
    """Answer the first message (not before it: the client would find the socket closed while it
    sends) with an ``error``, and close."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(_receive(websocket), REFUSE_WAIT)
    with contextlib.suppress(*GONE):
        await websocket.send_text(json.dumps(error(text)))
        await websocket.close(CLOSE_POLICY)


async def serve_connection(hub: Hub, table: HostedTable, websocket: WebSocket) -> None:
    joined = await _join(table, websocket)
    if joined is False:
        return
    seat, name = joined
    if seat is not None and name:
        table.set_name(seat, name)
    connection = hub.join(table, websocket, seat)
    try:
        await _listen(hub, table, connection)
    except GONE:
        pass
    finally:
        hub.leave(table, connection)
        await connection.finish()


async def _join(table: HostedTable, websocket: WebSocket) -> Any:
    """The seat the first message joins (None: a spectator) and the name it gave, or False when it
    closed the connection."""
    try:
        raw = await asyncio.wait_for(_receive(websocket), JOIN_TIMEOUT)
        message = parse_client(raw)
        if message.type != "join":
            raise ProtocolError("the first message must be 'join'")
        return table.seat_for(message.token), message.name
    except ProtocolError as problem:
        with contextlib.suppress(*GONE):
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
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


async def _listen(hub: Hub, table: HostedTable, connection: Connection) -> None:
    """A connection's messages, until it closes; closed after too many not taken in a row (every
    error and refusal counts, rate-limited ones too; only a message taken starts the count again)."""
    limit = RateLimit(hub.rate, hub.burst)
    not_taken = 0
    while connection.open:
        raw = await _receive(connection.socket)
        reply, changed = _handle(table, connection, raw, limit)
        not_taken = 0 if changed and reply is None else not_taken + 1
        if reply is not None:
            connection.post(reply)
        if changed:
            hub.broadcast(table)
            if table.rematch_agreed:
                hub.start_rematch(table)
        elif reply is not None and reply["type"] == "refused":
            hub.send_state(table, connection)         # the position as it is now, to choose again
        if not_taken >= MAX_REFUSED_IN_A_ROW:
            connection.close_after(CLOSE_POLICY, "too many messages refused")
            return
        await connection.room()


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
    try:
        if message.type == "ready":
            return None, table.set_ready(connection.seat)
        if message.type == "name":
            return None, table.set_name(connection.seat, message.name or "")
        if message.type == "rematch":
            return None, table.want_rematch(connection.seat)
    except ProtocolError as problem:
        return error(problem.message), False
    assert message.move is not None     # a move message has its move (``protocol.REQUIRED``)
    changed, reply = table.move(connection.seat, message.move, message.version)
    return reply, changed
