"""Names and rematches on a served table, over real WebSockets: a person's name reaches every
page (and only text a table can show is taken); once the game is over, everyone who plays asks to
play again and all are sent to a new table where the same links take the same seats, with its
own record beside the last one."""
from __future__ import annotations

import json

from tests.serve_client import Client
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES

MAX_ACTIONS = 400


def play_out(table):
    """The game played to its end with each seat's first legal move."""
    for _ in range(MAX_ACTIONS):
        state = table.session.state
        if state.over:
            return
        seat = state.current
        assert table.move(seat, table.session.legal(seat)[0].text, table.version) == (True, None)
    raise AssertionError("the game did not end")


def test_a_name_given_at_the_join_or_later_reaches_every_page():
    tables = Tables()
    table = tables.create(str(GAMES / "kuhn_poker.yaml"), seed=5, fake_clock=0.5)
    with ServerThread(tables) as server:
        ann = Client(server, table, join={"type": "join", "token": table.tokens.token(0), "name": " Ann "})
        assert ann.state["names"] == {"0": "Ann"}
        bob = Client(server, table, table.tokens.token(1))
        assert bob.state["names"] == {"0": "Ann"}
        assert ann.wait(lambda m: m["type"] == "presence") == \
            {"type": "presence", "connected": [0, 1], "names": {"0": "Ann"}}
        bob.send({"type": "name", "name": "Bob"})
        assert ann.wait(lambda m: m["type"] == "state")["names"] == {"0": "Ann", "1": "Bob"}
        bob.send({"type": "name", "name": "B" * 25})
        assert bob.wait(lambda m: m["type"] == "error")["error"] == "a name is at most 24 characters"
        watcher = Client(server, table)
        assert watcher.state["names"] == {"0": "Ann", "1": "Bob"}
        watcher.send({"type": "name", "name": "Eve"})
        assert watcher.wait(lambda m: m["type"] == "error")["error"] == "a spectator has no seat to name"
        assert table.names == {0: "Ann", 1: "Bob"}
        for client in (ann, bob, watcher):
            client.close()


def test_everyone_asks_to_play_again_and_all_move_to_a_new_table_with_their_seats(tmp_path):
    tables = Tables()
    record = tmp_path / "rules-table-first.jsonl"
    table = tables.create(str(GAMES / "kuhn_poker.yaml"), seed=5, fake_clock=0.5, record_path=str(record),
                          table_id="first")
    with ServerThread(tables) as server:
        seats = [Client(server, table, table.tokens.token(s)) for s in (0, 1)]
        watcher = Client(server, table)
        seats[0].send({"type": "rematch"})
        assert seats[0].wait(lambda m: m["type"] == "error")["error"] == "a rematch comes once the game is over"
        play_out(table)
        seats[0].send({"type": "rematch"})
        assert seats[1].wait(lambda m: m["type"] == "state" and m["rematch"] == [0])["final"] is not None
        seats[0].send({"type": "rematch"})                  # asked twice: nothing more happens
        watcher.send({"type": "rematch"})
        assert watcher.wait(lambda m: m["type"] == "error")["error"] == "a spectator does not choose to play again"
        seats[1].send({"type": "rematch"})
        told = [c.wait(lambda m: m["type"] == "rematch") for c in (*seats, watcher)]
        new_id = told[0]["table"]
        assert told == [{"type": "rematch", "table": new_id}] * 3 and new_id != "first"
        new = tables.get(new_id)
        assert new.tokens.tokens == table.tokens.tokens and new.setup.seed != table.setup.seed
        assert not new.session.state.over and new.session.state.moves == 0
        again = Client(server, new, table.tokens.token(1))        # the same link takes the same seat
        assert again.welcome["seat"] == 1 and again.state["view"]["seat"] == 1
        assert new.session.record.path == str(tmp_path / f"rules-table-{new_id}.jsonl")
        header = json.loads((tmp_path / f"rules-table-{new_id}.jsonl").read_text().splitlines()[0])
        assert header["seed"] == new.setup.seed
        for client in (*seats, watcher, again):
            client.close()
