"""Faults and bad input on a served table, over real WebSockets: a dropped seat comes back with
its token, bad messages get an error and change nothing, a token acts for its own seat only,
limits on size and rate, the record written per move, and a table restored from it exactly."""
from __future__ import annotations

import json

import pytest

from tests.serve_client import Client
from interpreter.errors import RecordError
from interpreter.play.serve.registry import Tables, setup_path
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES, everyone_ready


@pytest.fixture
def dice_table(tmp_path):
    tables = Tables()
    table = tables.create(str(GAMES / "dice_poker.yaml"), players=2, seed=3, fake_clock=0.5,
                          record_path=str(tmp_path / "game.jsonl"))
    with ServerThread(tables) as server:
        yield server, table, tmp_path / "game.jsonl"


def record_lines(path):
    return path.read_text(encoding="utf-8").splitlines()


def test_a_seat_that_drops_gets_its_seat_back_with_the_current_view(dice_table):
    server, table, _ = dice_table
    first, second = (Client(server, table, table.tokens.token(seat)) for seat in (0, 1))
    second.move("throw")
    second.wait(lambda m: m["type"] == "state" and m["view"]["dice"])
    first.close()
    second.move(second.state["view"]["moves"][0])
    latest = second.wait(lambda m: m["type"] == "state" and m["version"] == 2)
    again = Client(server, table, table.tokens.token(0))
    assert again.welcome["seat"] == 0
    assert again.state["version"] == 2 and again.state["view"] == {**latest["view"], "seat": 0, "moves": []}
    assert again.log == second.log and len(second.log) == 2
    assert again.state["connected"] == [0, 1]


def test_bad_messages_get_an_error_and_change_nothing(dice_table):
    server, table, path = dice_table
    client = Client(server, table, table.tokens.token(1))
    before = (table.version, record_lines(path))
    replies = []
    for raw in ["{", json.dumps({"type": "move", "move": "x" * 5000}), json.dumps({"type": "dance"}),
                json.dumps({"type": "join", "token": table.tokens.token(0)})]:
        client.send(raw)
        replies.append(client.receive())
    assert replies == [
        {"type": "error", "error": "not a JSON message"},
        {"type": "error", "error": "message too large (5028 bytes; at most 4096)"},
        {"type": "error", "error": 'unknown message type "dance"; expected one of join, move, ready, name, rematch'},
        {"type": "error", "error": "already joined: open a new connection to change seat"},
    ]
    client.move("rethrow 1")
    assert client.receive() == {"type": "refused", "move": "rethrow 1",
                                "reason": "'rethrow 1' is not a legal move now (legal now: throw all five dice)"}
    assert client.receive()["type"] == "state"        # the position as it is, to choose again
    assert (table.version, record_lines(path)) == before


def test_a_token_acts_for_its_own_seat_only(dice_table):
    server, table, path = dice_table
    first = Client(server, table, table.tokens.token(0))
    first.move("throw")                                   # it is P2's turn
    assert first.receive() == {"type": "refused", "move": "throw", "reason": "it is P2's turn"}
    watcher = Client(server, table)
    watcher.move("throw")
    assert watcher.receive() == {"type": "refused", "move": "throw", "reason": "a spectator does not move"}
    stranger = Client(server, table, "not-a-token")
    assert stranger.welcome == {"type": "error", "error": "this token is not one of this table's seats"}
    seat_field = Client(server, table, join={"type": "join", "seat": 1})
    assert seat_field.welcome == {"type": "error", "error": "'join' has no field 'seat'"}
    late = Client(server, table, join={"type": "ready"})
    assert late.welcome == {"type": "error", "error": "the first message must be 'join'"}
    assert table.version == 0 and len(record_lines(path)) == 1


def test_a_flood_is_slowed_then_closed(dice_table):
    server, table, _ = dice_table
    client = Client(server, table, table.tokens.token(1))
    for _ in range(200):
        client.send("{")
    errors = [client.receive()["error"] for _ in range(200)]
    assert set(errors) == {"not a JSON message", "too many messages: slow down"}
    from websockets.exceptions import ConnectionClosed
    with pytest.raises(ConnectionClosed) as closed:
        client.receive()
    assert closed.value.rcvd.code == 1008


def test_every_accepted_move_is_on_the_record_at_once(dice_table):
    server, table, path = dice_table
    client = Client(server, table, table.tokens.token(1))
    header = json.loads(record_lines(path)[0])
    assert header["seed"] == 3 and header["players"] == 2
    for count in range(1, 4):
        client.move(client.state["view"]["moves"][0])
        client.wait(lambda m: m["type"] == "state" and m["version"] == count)
        assert len(record_lines(path)) == 1 + count          # flushed with the move
    moves = [json.loads(line) for line in record_lines(path)[1:]]
    played = [e.move.text for e in table.session.log if e.move is not None]
    assert [(m["seat"], m["move"], m["t"]) for m in moves] == [
        (1, "throw", 1.0), (1, played[1], 1.5), (1, played[2], 2.0)]
    assert client.log[:2] == ["P2: throw all five dice", f"P2: throw {played[1].split(' ', 1)[1]} again"]   # the clock read once at the start, then per move
    assert oct(setup_path(str(path)).stat().st_mode & 0o777) == "0o600"


def test_a_table_is_restored_from_its_record_exactly(tmp_path):
    path = tmp_path / "nerts.jsonl"
    tables = Tables()
    table = everyone_ready(tables.create(str(GAMES / "nerts.yaml"), players=3, bots={1, 2}, bot_kind="priority",
                                         seed=11, fake_clock=0.75, record_path=str(path)))
    session = table.session
    for _ in range(60):
        table.move(0, session.legal(0)[0].text, table.version)
    view = table.state_message(0, None)["view"]
    table.close()                        # the server stops
    restored = Tables().resume(str(path), fake_clock=0.75)
    again = restored.session
    assert again.state == session.state
    assert again.log_lines(0) == session.log_lines(0) and again.log_lines(None) == session.log_lines(None)
    assert {s: b.rng for s, b in again.table.bots.items()} == {s: b.rng for s, b in session.table.bots.items()}
    assert again.table.now == session.table.now and again.paused == session.paused
    assert restored.id == table.id and restored.tokens.tokens == table.tokens.tokens
    assert restored.state_message(0, None)["view"] == view
    moves = len(record_lines(path))
    restored.move(0, again.legal(0)[0].text, restored.version)
    assert len(record_lines(path)) > moves and "record" not in record_lines(path)[moves]


def test_a_damaged_record_is_refused_with_its_line(tmp_path):
    path = tmp_path / "game.jsonl"
    table = Tables().create(str(GAMES / "dice_poker.yaml"), players=2, seed=3, fake_clock=0.5, record_path=str(path))
    table.move(1, "throw", 0)
    table.close()
    path.write_text(path.read_text() + json.dumps({"seat": 1, "move": "rethrow 9", "t": 2}) + "\n")
    with pytest.raises(RecordError) as caught:
        Tables().resume(str(path))
    assert caught.value.message.startswith(f"{path}:3: move 'rethrow 9' of P2 cannot be replayed: ")


def test_a_table_stopped_between_hands_is_restored_between_hands(tmp_path):
    from interpreter.bots.agents import make_bot

    path = tmp_path / "nerts.jsonl"
    table = everyone_ready(Tables().create(str(GAMES / "nerts.yaml"), players=2, seed=29, fake_clock=0.5,
                                           record_path=str(path)))
    session, loaded = table.session, table.loaded
    bots = [make_bot("priority", loaded.game, seat, 29) for seat in range(2)]
    for count in range(1000):
        if session.paused:
            break
        seat = count % 2
        table.move(seat, bots[seat].choose(session.state, loaded.legal_moves(session.state, seat)).text, table.version)
    assert session.paused
    table.close()
    restored = Tables().resume(str(path), fake_clock=0.5)
    assert restored.session.paused and restored.session.state == session.state
    assert restored.state_message(1, None)["hand_end"] == table.state_message(1, None)["hand_end"]
    assert restored.set_ready(0) and restored.set_ready(1) and not restored.session.paused


def test_a_table_of_tricks_is_restored_from_its_record_with_who_took_each_trick(tmp_path):
    path = tmp_path / "euchre.jsonl"
    table = Tables().create(str(GAMES / "euchre.yaml"), players=4, bots={1, 2, 3}, bot_kind="random",
                            seed=5, fake_clock=0.5, record_path=str(path))
    session = table.session
    while sum("took the trick" in line for line in session.log_lines(None)) < 2:
        table.advance()
        moves = session.legal(0)
        if moves:
            table.move(0, moves[0].text, table.version)
    table.close()
    restored = Tables().resume(str(path), fake_clock=0.5)
    assert restored.session.state == session.state
    assert restored.session.log_lines(None) == session.log_lines(None)
    assert restored.session.last_trick == session.last_trick is not None
