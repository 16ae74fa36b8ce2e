"""`rules simulate` and ``interpreter.tools.simulate``: statistics recomputed from games played
independently, parallel runs equal to sequential ones, limits and errors counted, the text and
JSON reports, the plot, and usage errors."""
from __future__ import annotations

import importlib.util
import json
import math
import re

import pytest
from click.testing import CliRunner

from cli import main
from interpreter.api import load_game
from interpreter.bots.agents import make_bot
from interpreter.errors import OptionError
from interpreter.tools.simulate import (
    GameSource,
    Settings,
    _play_in_worker,
    _start_worker,
    simulate,
)
from interpreter.tools.simulate_report import GameOutcome, wilson
from tests.helpers import GAMES

# Each seat tosses a three-sided die or keeps a sure 2, twice: short games with many ties.
TOSS = """
name: Toss or keep
players: {min: 2, max: 3, default: 2}
dice: {count: 1, faces: 3}
variables:
  seat: {points: 0}
flow:
  rounds: 2
  phases:
    - name: turns
      turns: {from: 0, each: once}
      moves: [toss, keep]
moves:
  toss:
    do:
      - roll: dice
      - add: {points: "dice[0]"}
      - end_turn
  keep:
    do:
      - add: {points: 2}
      - end_turn
scoring:
  score: points
"""

# Nothing ever ends a round: only a move limit stops it.
ENDLESS = """
name: Endless
players: {min: 2, max: 2}
flow:
  phases:
    - name: waiting
      turns: {from: 0}
      moves: [wait]
moves:
  wait:
    do: [end_turn]
"""

# Every move ends a round, and the game's max_rounds stops it after three.
SHORT_ROUNDS = """
name: Short rounds
players: {min: 2, max: 2}
flow:
  max_rounds: 3
  phases:
    - name: waiting
      turns: {from: 0}
      moves: [wait]
moves:
  wait:
    do: [end_round]
"""

# A toss of 1 divides by zero.
FRAGILE = """
name: Fragile
players: {min: 2, max: 2}
dice: {count: 1, faces: 3}
variables:
  seat: {points: 0}
flow:
  rounds: 1
  phases:
    - name: turns
      turns: {from: 0, each: once}
      moves: [toss]
moves:
  toss:
    do:
      - roll: dice
      - add: {points: "6 // (dice[0] - 1)"}
      - end_turn
scoring:
  score: points
"""

LAST_CARD = str(GAMES / "last_card.yaml")
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def game_file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run(*args):
    return CliRunner().invoke(main, ["simulate", *args])


def without_timing(output):
    data = json.loads(output)
    del data["timing"]
    return data


def play_alone(loaded, players, kinds, seed):
    """One game played here, move by move, with the legal moves checked by the engine."""
    state = loaded.new_state(players, seed)
    bots = [make_bot(kind, loaded.game, seat, seed) for seat, kind in enumerate(kinds)]
    first = None
    while not state.over:
        seat = loaded.acting_seats(state)[0]
        loaded.apply(state, bots[seat].choose(state, loaded.legal_moves(state, seat)))
        first = seat if first is None else first
    return loaded.scores(state), loaded.ranking(state), state.moves, state.round, first


@pytest.mark.parametrize("name, text, kinds", [
    ("toss.yaml", TOSS, ["greedy", "random", "random"]),
    ("last_card.yaml", None, ["random", "greedy", "random"]),
])
def test_per_seat_statistics_equal_those_of_games_played_alone(name, text, kinds):
    loaded = load_game(LAST_CARD if text is None else name, text=text)
    report = simulate(loaded, games=12, players=3, bots=kinds, seed=30).summary()
    games = [play_alone(loaded, 3, kinds, 30 + i) for i in range(12)]
    for seat in range(3):
        scores = [g[0][seat] for g in games]
        places = [g[1][seat] for g in games]
        wins = sum(1 for p in places if p == 1)
        ties = sum(1 for g in games if g[1][seat] == 1 and g[1].count(1) > 1)
        share = sum(1 / g[1].count(1) for g in games if g[1][seat] == 1)
        mean = sum(scores) / 12
        assert report["seats"][seat] == {
            "seat": seat + 1, "bot": kinds[seat], "wins": wins, "win_rate": wins / 12,
            "win_interval": wilson(wins, 12), "ties": ties, "win_share": share / 12,
            "share_interval": wilson(share, 12), "average_place": sum(places) / 12,
            "score": {"mean": mean, "min": min(scores), "max": max(scores),
                      "stdev": pytest.approx(math.sqrt(sum((s - mean) ** 2 for s in scores) / 12), abs=1e-12)},
        }
    moves, rounds = [g[2] for g in games], [g[3] for g in games]
    assert report["length"] == {"moves": {"mean": sum(moves) / 12, "min": min(moves), "max": max(moves)},
                                "rounds": {"mean": sum(rounds) / 12, "min": min(rounds), "max": max(rounds)}}
    first_won = sum(1 for g in games if g[1][g[4]] == 1)
    p1_won = sum(1 for g in games if g[1][0] == 1)
    assert report["first_move"] == {"seat_win_rate": first_won / 12, "fair_share": 1 / 3, "p1_win_rate": p1_won / 12}
    assert report["games"] == {"played": 12, "finished": 12, "stopped": 0, "errors": 0}


def test_the_toss_game_really_has_ties_and_different_winners():
    # Guards the test above: its figures would prove little if every game looked the same.
    report = simulate(load_game("toss.yaml", text=TOSS), games=12, players=3, bots="random", seed=30).summary()
    assert sum(seat["ties"] for seat in report["seats"]) > 0
    assert all(0 < seat["wins"] < 12 for seat in report["seats"])


def test_two_jobs_give_the_report_of_one(tmp_path):
    path = game_file(tmp_path, "toss.yaml", TOSS)
    for args in ([path, "-n", "30", "--seed", "5", "--players", "3", "--bots", "greedy,random,greedy"],
                 [LAST_CARD, "-n", "16", "--seed", "2", "--option", "hand_size=4"]):
        one = run(*args, "--json", "--jobs", "1")
        two = run(*args, "--json", "--jobs", "2")
        assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
        assert without_timing(one.output) == without_timing(two.output)
        assert json.loads(two.output)["timing"]["jobs"] == 2


def test_the_text_report_for_a_small_run(tmp_path):
    result = run(game_file(tmp_path, "toss.yaml", TOSS), "-n", "12", "--bot", "greedy", "--bot", "random")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert re.fullmatch(r"time: \d+\.\d\d s, \d+\.\d games/s, 1 job", lines[-1])
    assert lines[:-1] == [
        "Toss or keep: 12 games, 2 players, seeds 0 to 11",
        "games: 12 played, 12 finished, 0 stopped by a limit, 0 errors",
        "",
        "seat  bot     wins  win rate  95% interval  ties  win share  avg place  mean score  min  max  std dev",
        "P1    greedy     8     66.7%    39.1-86.2%     5      45.8%       1.33        3.92    3    5     0.49",
        "P2    random     9     75.0%    46.8-91.1%     5      54.2%       1.25        4.17    3    6     0.80",
        "",
        "game length: 4.00 moves (min 4, max 4), 2.00 rounds (min 2, max 2)",
        "first move: its seat won 66.7% (fair share 50.0%); P1 won 66.7%",
    ]


def test_the_json_report_has_every_figure(tmp_path):
    result = run(game_file(tmp_path, "toss.yaml", TOSS), "-n", "4", "--seed", "9", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)     # JSON and nothing else
    assert list(data) == ["game", "players", "bots", "seeds", "max_moves", "games", "seats", "length",
                          "first_move", "stop_reasons", "first_errors", "timing"]
    assert data["game"] == "Toss or keep" and data["players"] == 2 and data["bots"] == ["random", "random"]
    assert data["seeds"] == [9, 12] and data["max_moves"] == 100_000
    assert list(data["seats"][0]) == ["seat", "bot", "wins", "win_rate", "win_interval", "ties", "win_share",
                                      "share_interval", "average_place", "score"]
    assert list(data["seats"][1]["score"]) == ["mean", "min", "max", "stdev"]
    assert list(data["length"]) == ["moves", "rounds"]
    assert list(data["first_move"]) == ["seat_win_rate", "fair_share", "p1_win_rate"]
    assert list(data["timing"]) == ["seconds", "games_per_second", "jobs"]


def test_the_move_limit_stops_endless_games(tmp_path):
    result = run(game_file(tmp_path, "endless.yaml", ENDLESS), "-n", "3", "--max-moves", "40", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == {"played": 3, "finished": 0, "stopped": 3, "errors": 0}
    assert data["stop_reasons"] == {"not over after 40 moves (the move limit)": 3}
    assert data["seats"][0] == {"seat": 1, "bot": "random", "wins": 0, "win_rate": None, "win_interval": None,
                                "ties": 0, "win_share": None, "share_interval": None, "average_place": None,
                                "score": None}
    assert data["length"] == {"moves": None, "rounds": None}
    assert data["first_move"] == {"seat_win_rate": None, "fair_share": 0.5, "p1_win_rate": None}


def test_games_stopped_by_their_own_round_limit_are_counted(tmp_path):
    result = run(game_file(tmp_path, "rounds.yaml", SHORT_ROUNDS), "-n", "2")
    assert result.exit_code == 0, result.output
    assert "games: 2 played, 0 finished, 2 stopped by a limit, 0 errors" in result.output
    assert "stopped: 2 x stopped after 3 rounds (the game's max_rounds)" in result.output
    assert "game length: no finished game" in result.output


def test_errors_are_counted_the_first_three_shown_and_the_run_goes_on(tmp_path):
    path = game_file(tmp_path, "fragile.yaml", FRAGILE)
    result = run(path, "-n", "12")
    assert result.exit_code == 1
    assert "games: 12 played, 4 finished, 0 stopped by a limit, 8 errors" in result.output
    # Each error as every command reports it: the place, the line and caret, where in the game.
    def report(seat, move, indent=""):
        return (f"{path}:17:24: error: division by zero\n"
                f"{indent}   17 |       - add: {{points: \"6 // (dice[0] - 1)\"}}\n"
                f"{indent}      |                        ^^^^^^^^^^^^^^^^^^\n"
                f"{indent}while P{seat} played 'toss' (move {move}; round 1, phase 'turns')")
    assert (f"errors: 8 (the first 3 shown)\n"
            f"  seed 2: {report(2, 2, '    ')}\n"
            f"  seed 3: {report(1, 1, '    ')}\n"
            f"  seed 5: {report(2, 2, '    ')}\n") in result.output
    data = json.loads(run(path, "-n", "12", "--json").output)
    assert data["first_errors"] == [{"seed": s, "message": report(seat, seat)}
                                    for s, seat in ((2, 2), (3, 1), (5, 2))]
    assert data["games"]["finished"] == 4 and data["seats"][0]["score"]["min"] == 3


def test_an_exception_that_is_not_a_rules_error_is_counted_too(monkeypatch):
    loaded = load_game("toss.yaml", text=TOSS)
    monkeypatch.setattr("interpreter.bots.agents.RandomBot.choose", lambda self, state, moves: moves[5])
    monkeypatch.setattr("interpreter.bots.agents.RandomBot.choose_action", lambda self, lean, state, actions: actions[5])
    monkeypatch.setattr("interpreter.bots.agents.RandomBot.uniform", False)        # no longer drawn for
    report = simulate(loaded, games=2).summary()
    assert report["games"]["errors"] == 2
    assert report["first_errors"] == [{"seed": 0, "message": "IndexError: list index out of range"},
                                      {"seed": 1, "message": "IndexError: list index out of range"}]


@pytest.mark.skipif(HAS_MATPLOTLIB, reason="matplotlib is installed")
def test_plot_without_matplotlib_names_the_extra(tmp_path):
    result = run(game_file(tmp_path, "toss.yaml", TOSS), "-n", "2", "--plot", str(tmp_path / "scores.png"))
    assert result.exit_code == 1
    assert result.output == ("error: drawing a plot needs matplotlib, which is not installed\n"
                             "hint: install it with: pip install 'tablerules[plot]'\n")
    assert not (tmp_path / "scores.png").exists()


@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="matplotlib is not installed")
def test_plot_writes_a_png(tmp_path):
    target = tmp_path / "scores.png"
    result = run(game_file(tmp_path, "toss.yaml", TOSS), "-n", "20", "--plot", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["--bots", "greedy,random,random"], "Invalid value for '--bots': give at most one bot kind per seat (2), "
                                         "not 3"),
    (["--bot", "random", "--bot", "greedy", "--bot", "random"],
     "Invalid value for '--bot': give at most one bot kind per seat (2), not 3"),
    (["--bots", "greedy,randm"], "Invalid value for '--bots': there is no bot kind 'randm'; did you mean 'random'?"),
    (["--bot", "clever"], "Invalid value for '--bot': there is no bot kind 'clever'; kinds: greedy, priority, random, "
                          "search; levels: easy, medium, hard"),
    (["--bot", "random", "--bots", "random"], "give the bots with --bot or with --bots, not both"),
    (["--players", "6"], "Invalid value for '--players': Toss or keep is for 2 to 3 players, not 6"),
    (["--max-moves", "1000001"], "the move limit must be between 1 and 1000000, not 1000001"),
])
def test_bad_settings_are_usage_errors(tmp_path, args, message):
    result = run(game_file(tmp_path, "toss.yaml", TOSS), "-n", "2", *args)
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"


def test_the_api_refuses_bad_settings_with_option_errors():
    loaded = load_game("toss.yaml", text=TOSS)
    with pytest.raises(OptionError) as caught:
        simulate(loaded, games=0)
    assert caught.value.message == "the number of games must be at least 1, not 0"
    with pytest.raises(OptionError) as caught:
        simulate(loaded, games=1, jobs=-1)
    assert caught.value.message == "the number of processes must be 0 (one per CPU) or more, not -1"
    with pytest.raises(OptionError) as caught:
        simulate(loaded, games=1, bots=["random", "greedy", "random"])
    assert caught.value.message == "give at most one bot kind per seat (2), not 3"


def test_a_game_loaded_from_text_plays_the_same_in_worker_processes():
    loaded = load_game("toss.yaml", text=TOSS)
    one = simulate(loaded, games=6, players=3, bots="greedy", seed=3, jobs=1)
    two = simulate(loaded, games=6, players=3, bots="greedy", seed=3, jobs=2)
    assert two.jobs == 2 and two.outcomes == one.outcomes


def test_a_worker_that_compiles_another_game_reports_it_for_each_game(monkeypatch):
    monkeypatch.setattr("interpreter.tools.simulate._worker", {})
    monkeypatch.setattr("signal.signal", lambda *args: None)     # keep this process's Ctrl-C
    changed = GameSource("toss.yaml", TOSS.replace("faces: 3", "faces: 4"), {}, load_game("toss.yaml", text=TOSS).digest())
    _start_worker(changed, Settings(2, ("random", "random"), 7, 100))
    assert _play_in_worker(1) == GameOutcome.failed(1, 8, "error: toss.yaml compiled differently in a worker process")


@pytest.mark.parametrize("wins, games, low, high", [
    (94, 200, 0.402048, 0.539083),
    (8, 12, 0.390622, 0.861880),        # (2/3 + z²/24 ± z √(2/9/12 + z²/576)) / (1 + z²/12)
    (0, 10, 0.0, 0.277533),
    (10, 10, 0.722467, 1.0),
    (2.5, 4, 0.219427, 0.908101),       # a tie counted as half a win
])
def test_the_wilson_interval_of_a_win_rate(wins, games, low, high):
    bounds = wilson(wins, games)
    assert bounds == [pytest.approx(low, abs=5e-7), pytest.approx(high, abs=5e-7)]
    assert wilson(0, 0) is None


def test_a_game_of_a_run_tells_each_action_it_plays(tmp_path):
    from interpreter.tools.playout import play_or_raise
    path = tmp_path / "toss.yaml"
    path.write_text(TOSS)
    loaded = load_game(path)
    settings = Settings(2, ("random", "random"), 5, 1000)
    seen = []
    outcome = play_or_raise(loaded, settings, 3, lambda action: seen.append((action.seat, action.move.name)))
    assert outcome == play_or_raise(loaded, settings, 3)
    assert [seat for seat, _ in seen] == [0, 1, 0, 1] and len(seen) == outcome.moves
    assert {name for _, name in seen} <= {"toss", "keep"}
