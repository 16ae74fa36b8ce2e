"""``rules join``: a seat of a served table played in the terminal, over a real WebSocket."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from tests.serve_client import Client  # noqa: F401  (skips without the [serve] extra)
from cli import main
from interpreter.errors import RulesError
from interpreter.play.serve.join import socket_url
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES


def test_a_link_names_the_socket_and_the_seat():
    assert socket_url("http://127.0.0.1:8000/t/abc#token=XYZ") == ("ws://127.0.0.1:8000/ws/abc", "XYZ")
    assert socket_url("https://example.org/t/abc") == ("wss://example.org/ws/abc", None)
    with pytest.raises(RulesError) as caught:
        socket_url("127.0.0.1:8000")
    assert caught.value.message == "'127.0.0.1:8000' is not a table's link (http://HOST:PORT/t/TABLE#token=...)"


def test_a_person_plays_a_whole_game_against_a_bot_from_the_terminal():
    tables = Tables()
    table = tables.create(str(GAMES / "dice_poker.yaml"), players=2, bots={0}, bot_kind="random", seed=5,
                          fake_clock=0.5)
    with ServerThread(tables, rate=1000, burst=1000) as server:   # the script types fast
        link = f"{server.url}/t/{table.id}#token={table.tokens.token(1)}"
        entries = "\n".join(["help", "9", "board", "rethrow 7"] + ["1"] * 300) + "\n"
        result = CliRunner().invoke(main, ["join", link, "--no-color"], input=entries)
    out = result.output
    assert result.exit_code == 0, out
    assert out.startswith("Dice poker: 2 seats, you are P2. Type 'help' for help.\n")
    assert "error: there is no move 9; choose 1 to 1\n" in out
    assert "'rethrow 7' is not a legal move now (legal now: throw all five dice)\n" in out
    assert table.session.state.over
    final = out.splitlines()[-3:]
    assert final[0] == "seat  place  score  result"
    places = [row["seat"] for row in table.final()]
    assert [line.split()[0] for line in final[1:]] == [f"P{s + 1}" for s in places]
    assert table.session.log_lines(1)[-1] in out


def test_a_table_that_is_not_there_is_an_error(tmp_path):
    tables = Tables()
    with ServerThread(tables) as server:
        result = CliRunner().invoke(main, ["join", f"{server.url}/t/none#token=x"])
    assert result.exit_code == 1 and result.output == "error: the table refused: no such table\n"


def test_a_table_that_stops_ends_the_session_with_its_reason(tmp_path):
    from tests.runtime_games import CASES

    path = tmp_path / "probe.yaml"
    path.write_text(CASES["division by zero"])             # P1's move fails: the table stops
    tables = Tables()
    table = tables.create(str(path), players=2, bots={1}, fake_clock=0.5)
    with ServerThread(tables) as server:
        link = f"{server.url}/t/{table.id}#token={table.tokens.token(0)}"
        result = CliRunner().invoke(main, ["join", link, "--no-color"], input="poke\n")
    assert result.exit_code == 1
    assert result.output.endswith("P1> the table has stopped: the game met an error (the host has the details)\n")
    assert result.output.count("the table has stopped") == 1


def test_the_terminal_seat_reads_the_game_in_its_words_and_takes_a_move_by_its_words():
    from tests.test_tui import assert_no_identifiers

    tables = Tables()
    table = tables.create(str(GAMES / "euchre.yaml"), bots={1, 2, 3}, bot_kind="random", seed=12, fake_clock=0.5)
    with ServerThread(tables, rate=1000, burst=1000) as server:
        link = f"{server.url}/t/{table.id}#token={table.tokens.token(0)}"
        said = table.state_message(0, None)["move_words"]
        entries = "\n".join([said[0]] + ["1"] * 60) + "\n"
        result = CliRunner().invoke(main, ["join", link, "--no-color", "--name", "Ann"], input=entries)
    out = result.output
    assert result.exit_code == 0, out
    assert table.names == {0: "Ann"}
    assert "Playing the tricks" in out and "Your moves (P1):" in out
    assert_no_identifiers(table.loaded, [out])
    assert f"P1: {said[0]}" in table.session.log_lines(0)


def test_the_terminal_seat_reads_its_own_cup_and_after_a_call_every_cup_as_lifted():
    tables = Tables()
    table = tables.create(str(GAMES / "liars_dice.yaml"), bots={1, 2}, bot_kind="random", seed=3, fake_clock=0.5)
    with ServerThread(tables, rate=1000, burst=1000) as server:
        link = f"{server.url}/t/{table.id}#token={table.tokens.token(0)}"
        result = CliRunner().invoke(main, ["join", link, "--no-color"], input="bid 1 2\ncall\nquit\n")
    lines = result.output.splitlines()
    assert result.exit_code == 0, result.output
    assert lines[2] == "Dice: P1 1 3 4 5 5 · P2 ? ? ? ? ? · P3 ? ? ? ? ?"
    assert "P1: call" in table.session.log_lines(0) and table.session.state.round == 2
    lifted = lines.index("Dice at the end of round 1: P1 1 3 4 5 5 · P2 1 1 3 6 6 · P3 1 3 4 6 6")
    assert lines[lifted + 1:lifted + 3] == ["== Liar's dice: round 2, Bidding, P1 to play ==",
                                            "Dice: P1 5 5 5 5 5 · P2 ? ? ? ? ? · P3 ? ? ? ? ?"]
    assert sum(" 1 1 3 6 6" in line for line in lines) == 1      # P2's cup: only as lifted


def test_a_lost_connection_is_made_again_and_a_move_typed_meanwhile_reaches_the_table(tmp_path):
    """The server stops and starts again from its record, at the same address: ``rules join``
    says the connection is lost, keeps the move typed meanwhile and sends it once it is back."""
    import queue
    import threading

    from interpreter.play.serve.join import join

    record = str(tmp_path / "table.jsonl")
    first = Tables()
    table = first.create(str(GAMES / "dice_poker.yaml"), players=2, bots={0}, bot_kind="random", seed=5,
                         fake_clock=0.5, record_path=record)
    entries: queue.Queue = queue.Queue()
    out: list[str] = []
    server = ServerThread(first, rate=1000, burst=1000)
    port = server.port
    with server:
        link = f"{server.url}/t/{table.id}#token={table.tokens.token(1)}"
        player = threading.Thread(target=lambda: out.append(join(link, False, lambda _: entries.get(timeout=30),
                                                                 out.append)))
        player.start()
        entries.put("throw all five dice")
        deadline = time.monotonic() + 10
        while table.session.state.moves < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        played = table.session.log_lines(1)
    wait_for(lambda: any(line.startswith("The connection to the table is lost") for line in out))
    entries.put("1")                                    # typed while the table is away
    wait_for(lambda: "Not connected: this goes to the table once it is back." in out)
    second = Tables()
    again = second.resume(record, fake_clock=0.5)
    with ServerThread(second, port=port, rate=1000, burst=1000):
        wait_for(lambda: any(line.startswith("Back at the table. Your move went to the table.") for line in out))
        wait_for(lambda: len(again.session.log_lines(1)) > len(played))
        entries.put("quit")
        player.join(10)
    assert again.session.log_lines(1)[:len(played)] == played
    assert out[-1] == 0 and not player.is_alive()


def wait_for(condition, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)
