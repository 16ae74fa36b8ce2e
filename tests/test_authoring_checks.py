"""What `rules validate` catches before a game is played, with its position and a hint: a seat's
zone or variable named alone in `setup:` (where no seat acts), an expression that YAML cut at a
comma of a {...} mapping; `--simulate` at every player count or at `-p`'s; paths counted from 0
as expressions count; and `rules simulate` of a game played alone reports its scores."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main
from tests.runtime_games import probe

SETUP = """\
name: Setup
players: {min: 2, max: 3}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, face: down}
variables:
  seat: {points: 0}
setup:
  SETUP
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0, each: once}
      moves: [poke]
moves:
  poke:
    do:
      - end_turn
scoring:
  score: hand.size + points
"""


def validate(tmp_path, text, *args):
    path = tmp_path / "g.yaml"
    path.write_text(text)
    return CliRunner().invoke(main, ["validate", str(path), *args])


def test_a_seats_zone_named_alone_in_setup_is_refused_with_the_right_form(tmp_path):
    result = validate(tmp_path, SETUP.replace("SETUP", "- move: stock.top\n    to: hand"))
    assert result.exit_code == 1
    assert result.output == (
        f"{tmp_path / 'g.yaml'}:12:9: error: 'hand' is the acting seat's zone, but no seat acts in setup\n"
        "   12 |     to: hand\n"
        "      |         ^^^^\n"
        "hint: name the seat: players[0].hand, or p.hand with 'for: p in players'\n"
        "1 error in 1 file\n")


def test_a_seats_variable_and_me_in_setup_are_refused_too(tmp_path):
    result = validate(tmp_path, SETUP.replace("SETUP", '- set: {points: 1}\n  - add: {points: "me.points"}\n'
                                                       '    of: players[1]'))
    lines = [line for line in result.output.splitlines() if ": error: " in line or line.startswith("hint")]
    assert lines == [
        f"{tmp_path / 'g.yaml'}:11:11: error: 'points' is the acting seat's variable, but no seat acts in setup",
        "hint: name the seat: 'of: players[0]', or 'of: p' with 'for: p in players'",
        f"{tmp_path / 'g.yaml'}:12:20: error: 'me' is the seat acting now, but no seat acts in setup",
        "hint: name the seat: players[0], or p with 'for: p in players'"]


def test_a_seat_named_in_setup_and_a_shared_zone_pass(tmp_path):
    setup = ("- for: p in players\n    do:\n      - move: stock.top\n        to: p.hand\n"
             "  - move: stock.top\n    to: players[0].hand\n  - shuffle: stock")
    result = validate(tmp_path, SETUP.replace("SETUP", setup))
    assert (result.exit_code, result.output) == (0, f"{tmp_path / 'g.yaml'}: ok\n")


def test_an_expression_cut_at_a_comma_of_a_flow_mapping_gets_the_quoted_form(tmp_path):
    two = probe('      - set: {n: max(1, 2)}')
    result = validate(tmp_path, two)
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{tmp_path / 'g.yaml'}:20:25: error: the expression 'max(1, 2)' in moves.poke.do[0].set.n is cut at a "
        "comma: in a {...} mapping a comma ends the entry")
    assert result.output.splitlines()[3:] == ['hint: quote the expression: n: "max(1, 2)"', "1 error in 1 file"]
    three = validate(tmp_path, probe('      - set: {n: max(1, 2, 3)}'))
    assert three.output.splitlines()[0] == (
        f"{tmp_path / 'g.yaml'}:20:25: error: the expression 'max(1, 2, 3)' is cut at a comma: in a {{...}} "
        "mapping a comma ends the entry")
    assert three.output.splitlines()[3] == 'hint: quote the expression: n: "max(1, 2, 3)"'


def test_paths_in_messages_count_from_0_as_expressions_do(tmp_path):
    result = validate(tmp_path, probe("      - move: pile.top"))
    assert result.output.splitlines()[0] == f"{tmp_path / 'g.yaml'}:20:9: error: missing 'to' in moves.poke.do[0]"


def test_simulate_in_validate_plays_every_player_count_or_the_one_asked(tmp_path):
    game = SETUP.replace("SETUP", "- shuffle: stock")
    result = validate(tmp_path, game, "--simulate", "2")
    assert (result.exit_code, result.output) == (0, f"{tmp_path / 'g.yaml'}: ok (2 random games with 2 to 3 players)\n")
    result = validate(tmp_path, game, "--simulate", "1", "-p", "3", "--json")
    assert json.loads(result.output) == [{"file": str(tmp_path / "g.yaml"), "ok": True, "errors": [],
                                          "players": [3], "games": []}]
    result = validate(tmp_path, game, "--simulate", "1", "-p", "4")
    assert (result.exit_code, result.output) == (1, f"{tmp_path / 'g.yaml'}: error: Setup is for 2 to 3 players, not 4\n"
                                                    "1 error in 1 file\n")
    result = validate(tmp_path, game, "-p", "3")
    assert result.exit_code == 2 and result.output.endswith("Error: -p/--players goes with --simulate N\n")


def test_a_failure_at_one_player_count_names_it(tmp_path):
    stuck = SETUP.replace("SETUP", "- shuffle: stock").replace("      - end_turn", "      - end_turn\n    when: player_count == 2")
    result = validate(tmp_path, stuck, "--simulate", "1")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "g.yaml: 1 of 2 random games (2 to 3 players) failed; the first, seed 0 with 3 players:".replace(
        "g.yaml", str(tmp_path / "g.yaml"))
    assert lines[-1] == "1 failed random game in 1 file"


def test_simulate_of_a_game_played_alone_reports_its_scores(tmp_path):
    solo = (probe('      - choose_random: {n: "[1, 2, 3]"}')
            .replace("players: {min: 2, max: 2}", "players: {min: 1, max: 1}"))
    path = tmp_path / "solo.yaml"
    path.write_text(solo)
    result = CliRunner().invoke(main, ["simulate", str(path), "-n", "20"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:3] == ["Probe: 20 games, 1 player, seeds 0 to 19",
                         "games: 20 played, 20 finished, 0 stopped by a limit, 0 errors", ""]
    assert lines[3].split() == ["seat", "bot", "mean", "score", "median", "min", "max", "std", "dev"]
    assert lines[4].split()[:2] == ["P1", "random"] and "won" not in result.output and "%" not in result.output
    summary = json.loads(CliRunner().invoke(main, ["simulate", str(path), "-n", "20", "--json"]).output)
    assert summary["first_move"] is None and set(summary["seats"][0]) == {"seat", "bot", "score"}
    assert set(summary["seats"][0]["score"]) == {"mean", "median", "min", "max", "stdev"}


def test_the_api_loads_a_bundled_game_by_its_name_as_the_command_line_does():
    import pytest

    from interpreter.api import load_game
    from interpreter.errors import RulesError

    assert load_game("euchre").name == load_game("Euchre.yaml").name == "Euchre"
    with pytest.raises(RulesError) as caught:
        load_game("euchr")
    assert caught.value.render() == "error: cannot read euchr: No such file or directory\nhint: did you mean 'euchre'?"
