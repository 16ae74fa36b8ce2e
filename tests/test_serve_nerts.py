"""Three people play a hand of Nerts over real WebSockets, all at once, on the server's fake clock:
each move stamped on arrival, a race lost told who was first, the hand's end stops everyone, and
the next hand starts when all three are ready."""
from __future__ import annotations

import json

from tests.serve_client import Client
from interpreter.bots.agents import make_bot
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES, everyone_ready

SEED = 19
MAX_MOVES = 1000


def test_three_people_play_a_hand_of_nerts_to_its_end(tmp_path):
    tables = Tables()
    record = tmp_path / "nerts.jsonl"
    table = everyone_ready(tables.create(str(GAMES / "nerts.yaml"), players=3, seed=SEED, fake_clock=0.5,
                                         record_path=str(record)))
    session, loaded = table.session, table.loaded
    bots = [make_bot("priority", loaded.game, seat, SEED) for seat in range(3)]    # what each person chooses
    races = []
    with ServerThread(tables, rate=1000, burst=1000) as server:
        people = [Client(server, table, table.tokens.token(seat)) for seat in range(3)]
        for count in range(MAX_MOVES):
            if session.paused:
                break
            seat = count % 3
            client = people[seat]
            client.wait_version(table.version)
            move = bots[seat].choose(session.state, loaded.legal_moves(session.state, seat)).text
            rival = (seat + 1) % 3
            rival_could = move in [m.text for m in loaded.legal_moves(session.state, rival)]
            before = client.state["version"]
            client.move(move)
            reply = client.wait(lambda m: m["type"] == "refused" or (m["type"] == "state" and m["version"] > before))
            assert reply["type"] == "state", reply
            if rival_could and move not in [m.text for m in loaded.legal_moves(session.state, rival)]:
                # The rival chose the same move in the same position, and arrives a moment later.
                people[rival].send({"type": "move", "move": move, "version": before})
                races.append((seat, move, people[rival].wait(lambda m: m["type"] == "refused")))
        assert session.paused and session.state.round == 2
        for client in people:
            client.wait_version(table.version)
            assert client.state["paused"] and client.state["view"]["moves"] == []
            assert client.state["hand_end"] == json.loads(json.dumps(session.hand_end_view(client.welcome["seat"])))
        assert races, "no race was run: the check proved nothing"
        for seat, move, refusal in races:       # the move named as the table shows it
            played = next(e.move for e in session.log if e.move is not None and (e.seat, e.move.text) == (seat, move))
            assert refusal == {"type": "refused", "move": move,
                               "reason": f"too slow: P{seat + 1} played '{session.words.move(played, None)}' 0.5 s earlier"}
        version = table.version
        for n, client in enumerate(people):
            client.send({"type": "ready"})
            message = client.wait(lambda m: m["type"] == "state" and m["version"] > version)
            version = message["version"]
            assert message["ready"] == ([] if n == 2 else list(range(n + 1)))
        assert not session.paused
        for client in people:
            assert client.wait_version(table.version)["view"]["moves"]
    lines = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    assert [f"P{m['seat'] + 1}: {m['move']}" for m in lines] == [
        f"P{e.seat + 1}: {e.move.text}" for e in session.log if e.move is not None]
    times = [m["t"] for m in lines]
    assert times == sorted(times) and len(set(times)) == len(times)     # one stamp each, in order of arrival
