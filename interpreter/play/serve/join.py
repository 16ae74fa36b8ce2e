"""``rules join URL``: play a seat of a served table in the terminal, in line mode.

The seat's link (``http://HOST:PORT/t/TABLE#token=...``) names the table and the seat. The board
is drawn with the terminal's own rendering of a view, in the game's words (which the table sends);
the other seats' moves arrive as log lines while you think. Moves are typed by number (of the
list just shown), by their words as listed, or as written (``play 5S``, cards also as shown,
``5♠``). The server stamps each move when it arrives and answers a lost race with who was first.
A table that stops (``stopped``) ends the session with its reason.

A connection that is lost is made again by itself (the server restarted, the network came back):
the line being typed stays where it is, and a move entered meanwhile goes to the table once it is
back.
"""
from __future__ import annotations

import json
import queue
import threading
import time
from typing import Callable
from urllib.parse import urlsplit

import click
from websockets.exceptions import ConnectionClosed, InvalidURI, WebSocketException
from websockets.sync.client import connect

from ...errors import RulesError
from ..card_text import typed_text
from ..render import dice_text, render_moves, render_view
from ..words import Names

HELP = """Type the number of a move or the move itself (cards as shown, 5♠, or as written, 5S).
  board   show the table again (an empty line too)
  help    this text
  quit    leave the table (your seat waits for you: open the link again)"""
WAIT = 0.5           # seconds between looks at a closed connection while waiting
RECONNECTS = 30      # tries to make a lost connection again, each after a longer pause...
MAX_PAUSE = 5.0      # ...of at most this many seconds


def socket_url(link: str) -> tuple[str, str | None]:
    """The WebSocket address of a seat's link, and its token (None: watch)."""
    parts = urlsplit(link)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc or "/t/" not in parts.path:
        raise RulesError(f"'{link}' is not a table's link (http://HOST:PORT/t/TABLE#token=...)")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    table = parts.path.rsplit("/t/", 1)[1].strip("/")
    token = dict(p.split("=", 1) for p in parts.fragment.split("&") if "=" in p).get("token")
    return f"{scheme}://{parts.netloc}/ws/{table}", token


def open_socket(address: str):
    """A connection that outlives any one block: entered by hand (websockets asks for its
    context, and closing it is ``RemoteSeat.leave``'s)."""
    return connect(address, open_timeout=10).__enter__()


class RemoteSeat:
    """The connection: a thread receives every message (and makes the connection again when it is
    lost); the latest table is kept for the player."""

    def __init__(self, address: str, join: dict, socket, echo: Callable[[str], None]):
        self.address, self.join_message, self.socket = address, join, socket
        self.echo = echo
        self.inbox: queue.Queue = queue.Queue()
        self.state: dict | None = None
        self.closed = False
        self.connected = True
        self.leaving = False
        self.held: list[dict] = []             # messages entered while the connection was lost
        self.lock = threading.Lock()
        self.log_shown = 0
        self.refusals = 0                    # refusals and errors
        self.errors = 0
        self.states = 0
        self.stopped: str | None = None
        self.last_refusal: str | None = None
        threading.Thread(target=self._receive, daemon=True).start()

    def _receive(self) -> None:
        table_stopped = False
        while True:
            try:
                for raw in self.socket:
                    message = json.loads(raw)
                    table_stopped = table_stopped or message["type"] == "stopped"
                    self.inbox.put(message)
            except (ConnectionClosed, OSError):
                pass
            if self.leaving or table_stopped or not self._reconnect():
                break
        self.closed = True
        self.inbox.put(None)

    def _reconnect(self) -> bool:
        """Join again, after a longer pause each try; False when the table is gone for good."""
        with self.lock:
            self.connected = False
        self.echo("The connection to the table is lost: reconnecting… (what you type is kept)")
        for attempt in range(RECONNECTS):
            time.sleep(min(MAX_PAUSE, 0.25 * 2 ** attempt))
            try:
                socket = open_socket(self.address)
                socket.send(json.dumps(self.join_message))
                welcome = json.loads(socket.recv(timeout=10))
            except (OSError, WebSocketException, TimeoutError, ValueError):
                continue
            if welcome.get("type") != "welcome":
                socket.close()
                self.echo(f"error: the table refused: {welcome.get('error', welcome)}")
                return False
            with self.lock:
                self.socket, self.connected = socket, True
                held, self.held = self.held, []
                for message in held:
                    socket.send(json.dumps(message))
            self.echo("Back at the table." + (" Your move went to the table." if held else ""))
            return True
        self.echo("The table cannot be reached.")
        return False

    def take(self, block: bool) -> bool:
        """Handle the messages that came (waiting for one if ``block``); False once closed."""
        try:
            message = self.inbox.get(timeout=WAIT) if block else self.inbox.get_nowait()
        except queue.Empty:
            return not self.closed
        while message is not None:
            self._handle(message)
            try:
                message = self.inbox.get_nowait()
            except queue.Empty:
                return True
        return False

    def _handle(self, message: dict) -> None:
        kind = message["type"]
        if kind == "state":
            self.states += 1
            self.state = message
            log_end = message["log_from"] + len(message["log"])
            for line in message["log"][max(0, self.log_shown - message["log_from"]):]:
                self.echo(line)
            self.log_shown = log_end
        elif kind == "refused":
            self.refusals += 1
            self.last_refusal = message["reason"]
            self.echo(message["reason"])
        elif kind == "error":
            self.refusals += 1
            self.errors += 1
            self.echo(f"error: {message['error']}")
        elif kind == "presence" and self.state is not None:
            self.state["connected"] = message["connected"]      # who is at the table now
        elif kind == "stopped":
            self.stopped = message["reason"]
            if self.stopped != self.last_refusal:      # not said already, as this seat's refusal
                self.echo(self.stopped)

    def send(self, message: dict) -> None:
        """Send now, or once the lost connection is back."""
        with self.lock:
            if self.connected:
                try:
                    self.socket.send(json.dumps(message))
                    return
                except (ConnectionClosed, OSError):
                    self.connected = False
            self.held.append(message)
        self.echo("Not connected: this goes to the table once it is back.")

    def leave(self) -> None:
        self.leaving = True
        with self.lock:
            self.socket.close()


def join(link: str, color: bool = True, read_line: Callable[[str], str] = input,
         echo: Callable[[str], None] = click.echo, name: str | None = None) -> int:
    address, token = socket_url(link)
    message = {"type": "join", "token": token} if token else {"type": "join"}
    if name and token:
        message["name"] = name
    try:
        socket = open_socket(address)
        socket.send(json.dumps(message))
        welcome = json.loads(socket.recv(timeout=10))
    except (OSError, InvalidURI, WebSocketException, TimeoutError) as error:
        raise RulesError(f"cannot reach the table at {address}: {error}") from None
    if welcome["type"] != "welcome":
        socket.close()
        raise RulesError(f"the table refused: {welcome.get('error', welcome)}")
    seat = welcome["seat"]
    who = "watching" if seat is None else f"you are P{seat + 1}"
    echo(f"{welcome['game']}: {welcome['players']} seats, {who}. Type 'help' for help.")
    remote = RemoteSeat(address, message, socket, echo)
    try:
        return Player(remote, seat, color, read_line, echo, Names.sent(welcome.get("words") or {})).run()
    finally:
        remote.leave()


class Player:
    def __init__(self, remote: RemoteSeat, seat: int | None, color: bool, read_line, echo, names: Names):
        self.remote, self.seat, self.color, self.read_line, self.echo = remote, seat, color, read_line, echo
        self.names = names
        self.seen: list[str] = []             # the moves listed last: their notation...
        self.said: list[str] = []             # ...and their words
        self.shown_version = -1
        self.shown_hand: int | None = None
        self.shown_dice: int | None = None      # the round whose lifted cups were last shown

    def run(self) -> int:
        remote = self.remote
        try:
            while remote.take(block=remote.state is None):
                state = remote.state
                if remote.stopped:
                    return 1
                if state is None:
                    continue
                if state["final"]:
                    return self._final(state)
                if state["paused"]:
                    self._between_hands(state)
                elif state["view"]["moves"] and self.seat is not None:
                    if not self._ask(state):
                        break
                else:
                    remote.take(block=True)
        except EOFError:
            self.echo("input ended; you left the table (open the link again to come back).")
            return 0
        except KeyboardInterrupt:
            self.echo("\ninterrupted; you left the table.")
            return 130
        if remote.closed:
            self.echo("the server closed the connection.")
            return 1
        self.echo("you left the table (open the link again to come back).")
        return 0

    def _show(self, state: dict) -> None:
        assert self.seat is not None        # shown to a seated player only (``_ask``)
        lifted = state.get("last_dice")
        if lifted is not None and lifted["round"] < state["view"]["round"] and self.shown_dice != lifted["round"]:
            # The cups lifted at the end of the last hand, before the next hand threw them again.
            self.shown_dice = lifted["round"]
            names = [f"P{i + 1}" for i in range(len(lifted["dice"]))]
            self.echo(f"Dice at the end of round {lifted['round']}: {dice_text(lifted['dice'], names)}")
        self.echo(render_view(state["view"], color=self.color, words=self.names))
        self.seen = list(state["view"]["moves"])
        self.said = list(state.get("move_words") or self.seen)
        self.echo(f"Your moves (P{self.seat + 1}):" if self.seen else "No move for you now.")
        if self.seen:
            self.echo(render_moves(self.said))
        self.shown_version = state["version"]

    def _ask(self, state: dict) -> bool:
        """One entry; False when the player quits."""
        assert self.seat is not None and self.remote.state is not None     # a seated player, at a table
        if state["version"] != self.shown_version and (state["view"]["current"] is not None or self.shown_version < 0):
            self._show(state)
        entry = self.read_line(f"P{self.seat + 1}> ").strip()
        self.remote.take(block=False)
        word = entry.lower()
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?"):
            self.echo(HELP)
        elif word in ("", "board", "moves"):
            self._show(self.remote.state)
        else:
            self._submit(entry)
        return True

    def _submit(self, entry: str) -> None:
        if entry.isdigit():
            number = int(entry)
            if not 1 <= number <= len(self.seen):
                self.echo(f"error: there is no move {number}; choose 1 to {len(self.seen)}" if self.seen
                          else f"error: there is no move {number}: you have no move now")
                return
            text = self.seen[number - 1]
        else:       # a move's words as listed, or its notation
            said = [m for m, words in zip(self.seen, self.said) if words.lower() == " ".join(entry.split()).lower()]
            text = said[0] if said else typed_text(entry)
        remote = self.remote
        assert remote.state is not None     # the table was shown before a move is entered
        version, refusals, errors, states = remote.state["version"], remote.refusals, remote.errors, remote.states
        remote.send({"type": "move", "move": text, "version": self.shown_version})
        # The answer: an error, or the table after it (played, moved on meanwhile, or a refusal
        # and then the table as it is: a state always follows a refusal).
        while remote.take(block=True) and remote.errors == errors and not (
                remote.states != states and (remote.state["version"] != version or remote.refusals != refusals)):
            pass
        self.shown_version = -1 if remote.state["view"]["current"] is None else self.shown_version

    def _between_hands(self, state: dict) -> None:
        if state["hand_end"] is not None and self.shown_hand != state["hand_end"]["round"]:
            self.shown_hand = state["hand_end"]["round"]
            self.echo(f"== end of round {self.shown_hand} ==")
            self.echo(render_view(state["hand_end"], color=self.color, words=self.names).split("\n", 1)[1])
        first = state["hand_end"] is None and state["view"]["round"] == 1     # everyone ready to start
        self.echo("== waiting for everyone ==" if first else "== hand over ==")
        if self.seat is not None and self.seat not in state["ready"]:
            self.read_line(f"P{self.seat + 1}: press Enter when ready {'to play' if first else 'for the next hand'} ")
            self.remote.send({"type": "ready"})
        assert self.remote.state is not None    # between hands of the table shown
        while self.remote.take(block=True) and self.remote.state["paused"] and not self.remote.stopped:
            pass
        if not self.remote.state["paused"]:
            self.echo("Go!")
            self.shown_version = -1

    def _final(self, state: dict) -> int:
        self.echo(render_view(state["view"], color=self.color, words=self.names))
        self.echo("seat  place  score  result")
        for row in state["final"]:
            result = row["result"]
            shown = f"{result:+g}" if isinstance(result, (int, float)) else str(result)
            self.echo(f"P{row['seat'] + 1:<4} {row['place']:>5}  {row['score']:>5}  {shown:>6}")
        return 0
