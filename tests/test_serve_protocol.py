"""The server's messages: every malformed one refused with its reason; the rate limit; tokens."""
from __future__ import annotations

import json

import pytest

from interpreter.play.serve.protocol import (
    MAX_MESSAGE_BYTES,
    ClientMessage,
    ProtocolError,
    RateLimit,
    parse_client,
)
from interpreter.play.serve.tokens import SeatTokens


def test_good_messages():
    assert parse_client('{"type": "join", "token": "abc"}') == ClientMessage("join", token="abc")
    assert parse_client('{"type": "join"}') == ClientMessage("join")
    assert parse_client('{"type": "move", "move": "throw", "version": 3}') == ClientMessage("move", move="throw", version=3)
    assert parse_client(b'{"type": "ready"}') == ClientMessage("ready")
    assert parse_client('{"type": "join", "token": "abc", "name": "  Ann \\t Lee "}') == \
        ClientMessage("join", token="abc", name="Ann Lee")
    assert parse_client('{"type": "name", "name": ""}') == ClientMessage("name", name="")
    assert parse_client('{"type": "rematch"}') == ClientMessage("rematch")


@pytest.mark.parametrize("raw, message", [
    ("nope", "not a JSON message"),
    (b"\xff\xfe", "not a JSON message"),
    ("[1, 2]", "a message is a JSON object with a 'type'"),
    ('{"move": "x"}', "unknown message type null; expected one of join, move, ready, name, rematch"),
    ('{"type": "shout"}', 'unknown message type "shout"; expected one of join, move, ready, name, rematch'),
    ('{"type": "move"}', "'move' needs 'move'"),
    ('{"type": "move", "move": 3}', "'move': 'move' must be text"),
    ('{"type": "move", "move": "x", "version": "3"}', "'move': 'version' must be a whole number"),
    ('{"type": "move", "move": "x", "version": true}', "'move': 'version' must be a whole number"),
    ('{"type": "move", "move": ""}', "a move is 1 to 400 characters"),
    ('{"type": "move", "move": "x", "seat": 2}', "'move' has no field 'seat'"),
    ('{"type": "join", "token": null}', "'join': 'token' must be text"),
    ('{"type": "name"}', "'name' needs 'name'"),
    ('{"type": "name", "name": "' + "x" * 25 + '"}', "a name is at most 24 characters"),
    ('{"type": "name", "name": "Ann\\u0007"}', "a name is printable text"),
    ('{"type": "rematch", "now": true}', "'rematch' has no field 'now'"),
])
def test_malformed_messages_are_refused_with_their_reason(raw, message):
    with pytest.raises(ProtocolError) as caught:
        parse_client(raw)
    assert caught.value.message == message


def test_an_oversized_message_is_refused_unread():
    raw = json.dumps({"type": "move", "move": "x" * MAX_MESSAGE_BYTES})
    with pytest.raises(ProtocolError) as caught:
        parse_client(raw)
    assert caught.value.message == f"message too large ({len(raw)} bytes; at most 4096)"


def test_the_rate_limit_allows_a_burst_then_the_rate():
    now = [0.0]
    limit = RateLimit(rate=10, burst=3, clock=lambda: now[0])
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.1                     # one message's worth of time
    assert [limit.allow(), limit.allow()] == [True, False]
    now[0] += 10                      # a long pause refills only up to the burst
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]


def test_a_token_names_its_seat_only():
    tokens = SeatTokens([0, 2])
    assert tokens.seat_of(tokens.token(0)) == 0
    assert tokens.seat_of(tokens.token(2)) == 2
    assert tokens.seat_of(tokens.token(0)[:-1]) is None
    assert tokens.seat_of("") is None
    assert tokens.token(0) != tokens.token(2) and len(tokens.token(0)) == 24
    assert SeatTokens([1], {1: "given"}).seat_of("given") == 1
