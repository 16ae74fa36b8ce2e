"""The open connections of every table: who may connect, and what each is sent when.

Whenever a table changes, each of its connections is sent the table as its own seat sees it
(rendered once for connections of the same seat that are as far along the log). A connection
that opens gets its welcome and its state; the others are told only who is connected
(``presence``), when that changed. A table that stopped is announced once to all its
connections (``stopped``). The ticker lets each table's bots act on the real clock; whatever
goes wrong there stops that table only, and the ticker goes on.
"""
from __future__ import annotations

import asyncio
import ipaddress
import json
from collections import Counter

from starlette.websockets import WebSocket

from .connection import Connection
from .console import console
from .hosted import HostedTable
from .protocol import (
    MAX_CONNECTIONS_PER_ADDRESS,
    MAX_CONNECTIONS_PER_TABLE,
    RATE_BURST,
    RATE_PER_SECOND,
    presence,
    rematch,
    stopped,
    tabs,
)
from .registry import Tables

TICK = 0.05                 # seconds between looks at the bots' clocks


class Hub:
    def __init__(self, tables: Tables, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST):
        self.tables = tables
        self.rate, self.burst = rate, burst      # each connection's limit
        self.connections: dict[str, set[Connection]] = {}
        self.by_table: Counter = Counter()       # open sockets of each table, joined or not
        self.by_address: Counter = Counter()     # open sockets from each address
        self.told_stopped: set[str] = set()

    # -- who may connect -----------------------------------------------------------------------------
    def admit(self, table: HostedTable, address: str) -> str | None:
        """Count a new socket of ``table`` from ``address``; or why it is refused."""
        if self.by_table[table.id] >= MAX_CONNECTIONS_PER_TABLE:
            return f"this table is full: at most {MAX_CONNECTIONS_PER_TABLE} connections"
        if not _local(address) and self.by_address[address] >= MAX_CONNECTIONS_PER_ADDRESS:
            return f"too many connections from your address: at most {MAX_CONNECTIONS_PER_ADDRESS}"
        self.by_table[table.id] += 1
        self.by_address[address] += 1
        return None

    def release(self, table: HostedTable, address: str) -> None:
        for counter, key in ((self.by_table, table.id), (self.by_address, address)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    # -- joining and leaving --------------------------------------------------------------------------
    def join(self, table: HostedTable, socket: WebSocket, seat: int | None) -> Connection:
        """A connection that joined: its welcome and state; the others told if its seat is new."""
        connection = Connection(socket, seat)
        before = table.connected_seats()
        table.connect(seat, +1)
        self.connections.setdefault(table.id, set()).add(connection)
        connection.post(table.welcome(seat))
        if table.stopped and table.id in self.told_stopped:
            connection.post(stopped(table.stopped))
        self.send_state(table, connection)
        self._presence(table, before, connection)
        self._tabs(table, seat, +1)
        return connection

    def leave(self, table: HostedTable, connection: Connection) -> None:
        before = table.connected_seats()
        self.connections[table.id].discard(connection)
        table.connect(connection.seat, -1)
        self._presence(table, before, None)
        self._tabs(table, connection.seat, -1)

    def _tabs(self, table: HostedTable, seat: int | None, change: int) -> None:
        """After a page of ``seat`` opened (``change`` +1) or closed (-1): every page of the seat
        is told how many have it open, when there are or were several (two tabs on one seat)."""
        if seat is None:
            return
        pages = [c for c in self.connections.get(table.id, ()) if c.seat == seat]
        if pages and max(len(pages), len(pages) - change) > 1:
            text = json.dumps(tabs(len(pages)))
            for page in pages:
                page.post(text)

    def _presence(self, table: HostedTable, before: list[int], joined: Connection | None) -> None:
        if table.connected_seats() != before:
            self.tell_presence(table, joined)

    def tell_presence(self, table: HostedTable, but: Connection | None = None) -> None:
        """Every connection of the table (``but`` one) hears who is connected and the names."""
        text = json.dumps(presence(table.connected_seats(), table.names))
        for connection in list(self.connections.get(table.id, ())):
            if connection is not but:
                connection.post(text)

    def start_rematch(self, table: HostedTable) -> None:
        """Everyone wants to play again: a new table, the same seats and tokens; every connection
        is told where it is."""
        new = self.tables.rematch(table)
        console.info("table %s: a rematch at table %s", table.id, new.id)
        text = json.dumps(rematch(new.id))
        for connection in list(self.connections.get(table.id, ())):
            connection.post(text)

    # -- sending ----------------------------------------------------------------------------------------
    def broadcast(self, table: HostedTable) -> None:
        """Every connection of the table gets the table as its seat sees it now."""
        self._tell_stopped(table)
        rendered: dict[tuple, tuple[str, int] | None] = {}
        for connection in list(self.connections.get(table.id, ())):
            key = (connection.seat, connection.log_sent)
            if key not in rendered:
                rendered[key] = self._render(table, connection.seat, connection.log_sent)
            message = rendered[key]
            if message is not None:
                connection.post(message[0])
                connection.log_sent = message[1]
        self._tell_stopped(table)       # a table whose view failed just now

    def send_state(self, table: HostedTable, connection: Connection) -> None:
        rendered = self._render(table, connection.seat, connection.log_sent)
        if rendered is not None:
            connection.post(rendered[0])
            connection.log_sent = rendered[1]
        self._tell_stopped(table)

    def _render(self, table: HostedTable, seat: int | None, log_from: int | None) -> tuple[str, int] | None:
        """A state message's text and the log line it reaches; None when the view failed (the
        game's error: the table stops)."""
        try:
            message = table.state_message(seat, log_from)
        except Exception as error:      # noqa: BLE001  (a view that fails stops its table)
            if table.stopped:
                console.error("table %s: its view cannot be shown: %s", table.id, error)
            table.stop(error)
            return None
        return json.dumps(message), message["log_from"] + len(message["log"])

    def _tell_stopped(self, table: HostedTable) -> None:
        if table.stopped and table.id not in self.told_stopped:
            self.told_stopped.add(table.id)
            text = json.dumps(stopped(table.stopped))
            for connection in list(self.connections.get(table.id, ())):
                connection.post(text)

    # -- the bots' clock --------------------------------------------------------------------------------
    async def tick(self) -> None:
        """Bounded by the server's life: it stops when the server shuts down."""
        while True:
            await asyncio.sleep(TICK)
            for table in list(self.tables.tables.values()):
                self.tick_table(table)

    def tick_table(self, table: HostedTable) -> None:
        try:
            if not table.clock.fake and table.advance():
                self.broadcast(table)
        except Exception as error:      # noqa: BLE001  (a fault here stops this table, not the ticker)
            table.stop(error)
            try:
                self._tell_stopped(table)
            except Exception:           # noqa: BLE001
                console.exception("table %s: its connections could not be told it stopped", table.id)


def _local(address: str) -> bool:
    """This machine itself (a person at the host, or a reverse proxy that passes no address)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False

