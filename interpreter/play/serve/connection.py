"""One WebSocket of a table: its seat, what it was last sent, and its own outgoing queue.

Every message to a connection goes into its bounded queue (``SEND_QUEUE``), which its own writer
task sends in order, so a connection that does not read holds up nobody else. When its queue is
full it is cut off: closed with code 1013 (try again later), or, when even the close cannot be
sent within ``CLOSE_GRACE`` seconds (it reads nothing), its TCP connection is dropped. A message
to a connection with nothing waiting, whose socket takes it at once, is sent at once instead, in
the sender's own step (the writer would send it one turn of the event loop later).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING

from starlette import websockets
from starlette.websockets import WebSocket, WebSocketDisconnect

from .protocol import SEND_QUEUE

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Send

CLOSE_POLICY = 1008         # WebSocket close code: the connection broke the protocol
CLOSE_SLOW = 1013           # ...: it did not read what it was sent (try again later)
CLOSE_GRACE = 2.0           # seconds a close may wait for the connection to take it
ABORT = "rules.abort"       # in a WebSocket's scope: drops its TCP connection (``SocketHooks``)
WRITABLE = "rules.writable"  # ...: whether a message would be sent without waiting
# A socket that closed while a message was being answered: sending to it fails (with a class
# newer Starlette has; older ones raise RuntimeError).
GONE = (WebSocketDisconnect, RuntimeError, ConnectionError, getattr(websockets, "WebSocketDisconnected", RuntimeError))


class Connection:
    def __init__(self, socket: WebSocket, seat: int | None, queue_size: int = SEND_QUEUE):
        self.socket = socket
        self.seat = seat
        self.log_sent: int | None = None     # None: not sent anything yet
        self.queue: asyncio.Queue = asyncio.Queue(queue_size)
        self.open = True                     # still taking messages
        self.closing = False                 # a close is queued after the last messages
        self.sending = False                 # the writer holds a message it has not sent yet
        self.sent = asyncio.Event()          # set by the writer after each message
        self.writer = asyncio.create_task(self._write())
        self.closer: asyncio.Task | None = None

    def post(self, message: dict | str) -> None:
        """Send a message after those waiting (at once when none wait and the socket takes it
        now); a connection whose queue is full is cut off."""
        if not self.open:
            return
        text = message if isinstance(message, str) else json.dumps(message)
        if self.queue.empty() and not self.sending and self._send_now(text):
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.cut_off()

    def _send_now(self, text: str) -> bool:
        """Send ``text`` in this very step when the socket takes it without waiting; False when it
        would wait (then nothing was sent: the server waits for room before it writes)."""
        writable = self.socket.scope.get(WRITABLE)
        if writable is None or not writable():
            return False
        step = self.socket.send_text(text)
        try:
            step.send(None)
        except StopIteration:
            return True
        except GONE:
            self.open = False
            return True
        step.close()
        return False

    async def room(self) -> None:
        """Let the writer run; then, while the queue is half full, wait for it (reading nothing
        more from this connection: its own answers wait until it reads them)."""
        await asyncio.sleep(0)
        while self.open and self.queue.qsize() > self.queue.maxsize // 2:
            self.sent.clear()
            await self.sent.wait()

    def close_after(self, code: int, reason: str = "") -> None:
        """Close the connection once the messages queued so far are sent."""
        if not self.open:
            return
        self.open = False
        try:
            self.queue.put_nowait((code, reason))
            self.closing = True
        except asyncio.QueueFull:
            self.cut_off()

    def cut_off(self) -> None:
        """It does not read: drop what waits, close it (or drop its TCP connection)."""
        self.open = False
        self.writer.cancel()
        if self.closer is None:
            self.closer = asyncio.create_task(self._close(CLOSE_SLOW, "too slow: messages were not read"))

    async def finish(self) -> None:
        """The connection has ended or is ending: let a queued close go out, then stop the writer."""
        self.open = False
        if self.closing and not self.writer.done():
            try:
                await asyncio.wait_for(asyncio.shield(self.writer), CLOSE_GRACE)
            except asyncio.TimeoutError:
                abort(self.socket)
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, *GONE):
            await self.writer
        if self.closer is not None:
            with contextlib.suppress(asyncio.CancelledError, *GONE):
                await self.closer

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    await self._close(*item)
                    return
                self.sending = True
                await self.socket.send_text(item)
                self.sending = False
                self.sent.set()
        except GONE:
            self.open = False
        finally:
            self.sent.set()

    async def _close(self, code: int, reason: str) -> None:
        try:
            await asyncio.wait_for(self.socket.close(code, reason), CLOSE_GRACE)
        except asyncio.TimeoutError:
            abort(self.socket)
        except GONE:
            pass


def abort(socket: WebSocket) -> None:
    """Drop a connection's TCP connection at once (a close would wait for it to read)."""
    drop = socket.scope.get(ABORT)
    if drop is not None:
        drop()


class SocketHooks:
    """ASGI middleware: puts in each WebSocket's scope what ASGI lacks, from uvicorn's protocol
    object (the ``send`` it calls the app with): a way to drop the TCP connection (``ABORT``) and
    whether a message would be sent without waiting (``WRITABLE``: its ``writable`` event, which
    its ``send`` waits for before it writes anything). Under another server, a connection cut off
    waits for its own close, and every message goes through the writer."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: dict, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            protocol = getattr(send, "__self__", None)
            transport = getattr(protocol, "transport", None)
            if transport is not None and hasattr(transport, "abort"):
                scope[ABORT] = transport.abort
            writable = getattr(protocol, "writable", None)
            if isinstance(writable, asyncio.Event):
                scope[WRITABLE] = writable.is_set
        await self.app(scope, receive, send)
