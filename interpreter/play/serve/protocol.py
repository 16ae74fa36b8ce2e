"""The messages between a table and its connections, as JSON objects with a ``type``.

From a connection: ``join`` (first, with a seat's ``token`` or none for a spectator, and the
person's ``name`` if they gave one), ``move`` (its ``move`` text and the ``version`` of the position
it was chosen in), ``ready`` (between hands), ``name`` (a new name for the seat) and ``rematch``
(once the game is over: this seat would play again). A message that is too large, not JSON (or not UTF-8, or nested too deeply to read), of
an unknown type or with fields of the wrong kind is refused with a ``ProtocolError`` whose text
the connection receives as an ``error``; nothing changes. From the server: ``welcome``, ``state``,
``presence`` (who is connected and the seats' names, when that changes), ``refused``, ``error``,
``stopped``, ``tabs`` and ``rematch`` (the new table everyone moves to).
docs/serve.md lists every message and every limit here.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Callable

MAX_MESSAGE_BYTES = 4096      # a move's text is short: anything longer is refused unread
MAX_MOVE_CHARS = 400
RATE_PER_SECOND = 20.0        # messages a connection may send, on average...
RATE_BURST = 40               # ...and at once
MAX_REFUSED_IN_A_ROW = 200    # messages not taken (errors, refusals) without one taken: then closed
SEND_QUEUE = 64               # messages waiting for a connection that does not read: then cut off
MAX_CONNECTIONS_PER_TABLE = 256
MAX_CONNECTIONS_PER_ADDRESS = 32   # open connections from one address (this machine's own: no limit)
MAX_NAME_CHARS = 24

FIELDS: dict[str, dict[str, type]] = {"join": {"token": str, "name": str}, "move": {"move": str, "version": int},
                                      "ready": {}, "name": {"name": str}, "rematch": {}}
REQUIRED: dict[str, set[str]] = {"join": set(), "move": {"move"}, "ready": set(), "name": {"name"}, "rematch": set()}


class ProtocolError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ClientMessage:
    type: str
    token: str | None = None
    move: str | None = None
    version: int | None = None
    name: str | None = None


def parse_client(raw: str | bytes) -> ClientMessage:
    """A connection's message, checked; ProtocolError says what is wrong with it."""
    size = len(raw.encode("utf-8", "replace")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large ({size} bytes; at most {MAX_MESSAGE_BYTES})")
    data = _json(raw)
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind is not None and not isinstance(kind, str):
        raise ProtocolError(f"a message's 'type' is text: one of {', '.join(FIELDS)}")
    if kind not in FIELDS:
        raise ProtocolError(f"unknown message type {json.dumps(kind)}; expected one of {', '.join(FIELDS)}")
    fields = FIELDS[kind]
    for name, value in data.items():
        if name == "type":
            continue
        if name not in fields:
            raise ProtocolError(f"'{kind}' has no field '{name}'")
        if type(value) is not fields[name]:
            raise ProtocolError(f"'{kind}': '{name}' must be {'text' if fields[name] is str else 'a whole number'}")
        if type(value) is str and not _unicode(value):
            raise ProtocolError(f"'{kind}': '{name}' is not valid Unicode text")
    missing = REQUIRED[kind] - data.keys()
    if missing:
        raise ProtocolError(f"'{kind}' needs '{sorted(missing)[0]}'")
    if kind == "move" and not 0 < len(data["move"]) <= MAX_MOVE_CHARS:
        raise ProtocolError(f"a move is 1 to {MAX_MOVE_CHARS} characters")
    name = clean_name(data["name"]) if "name" in data else None
    return ClientMessage(kind, data.get("token"), data.get("move"), data.get("version"), name)


def clean_name(text: str) -> str:
    """A person's name as the table shows it: its spaces run together, at most ``MAX_NAME_CHARS``
    characters and nothing unprintable ("" takes the name away)."""
    name = " ".join(text.split())
    if len(name) > MAX_NAME_CHARS:
        raise ProtocolError(f"a name is at most {MAX_NAME_CHARS} characters")
    if not name.isprintable():
        raise ProtocolError("a name is printable text")
    return name


def _json(raw: str | bytes) -> object:
    """The JSON value of a message: text as it came, a binary frame as UTF-8 (nothing else)."""
    try:
        return json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
    except (ValueError, UnicodeDecodeError):       # JSONDecodeError is a ValueError
        raise ProtocolError("not a JSON message") from None
    except RecursionError:
        raise ProtocolError("not a JSON message: nested too deeply") from None


def _unicode(text: str) -> bool:
    """No lone surrogate (JSON's \\ud800 escapes can make one; it is no character)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class RateLimit:
    """A token bucket: ``RATE_PER_SECOND`` messages on average, ``RATE_BURST`` at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST,
                 clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level = float(burst)
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def error(text: str) -> dict:
    return {"type": "error", "error": text}


def refused(move: str, reason: str) -> dict:
    return {"type": "refused", "move": move, "reason": reason}


def stopped(reason: str) -> dict:
    return {"type": "stopped", "reason": reason}


def presence(connected: list[int], names: dict[int, str]) -> dict:
    """Who is connected, and the names the seats gave (keys are seat numbers from 0, as text)."""
    return {"type": "presence", "connected": connected, "names": {str(k): v for k, v in sorted(names.items())}}


def rematch(table_id: str) -> dict:
    """Everyone wants to play again: the new table's id (each seat keeps its token)."""
    return {"type": "rematch", "table": table_id}


def tabs(open_: int) -> dict:
    """How many pages have one seat open now (sent to each of them when it changes)."""
    return {"type": "tabs", "open": open_}
