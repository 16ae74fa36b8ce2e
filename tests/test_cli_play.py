"""`rules play` and `rules replay` driven through a pipe, as a person or a script would."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main
from tests.helpers import GAMES

DICE = str(GAMES / "dice_poker.yaml")


def run(args, given=""):
    return CliRunner().invoke(main, args, input=given)


def test_bots_only_game_plays_to_the_end_and_shows_the_result():
    result = run(["play", DICE, "--human", "none", "--seed", "3", "-p", "2"])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    assert "seat  place  score  result" in result.output


def test_a_human_plays_by_number_and_by_text_through_a_pipe(tmp_path):
    record = tmp_path / "game.jsonl"
    # The first turn tries the commands and two bad entries; then each turn throws and tries every
    # row until one is accepted (refused entries just get a new prompt).
    rows = ["ones", "twos", "threes", "fours", "fives", "sixes", "pair", "two_pairs", "three",
            "small_straight", "large_straight", "full_house", "four", "poker", "chance"]
    turn = ["throw"] + [f"score {r}" for r in rows] + [f"cross {r}" for r in rows[6:]]
    script = "\n".join(["help", "board", "moves", "throw", "99", "score"] + turn * 16) + "\n"
    result = run(["play", DICE, "--seed", "8", "-p", "2", "--bot", "random", "--record", str(record)], script)
    assert result.exit_code == 0, result.output
    assert "Type the number of a move" in result.output
    assert "error: there is no move 99" in result.output
    assert "error: 'score' could be any of:" in result.output
    assert "game over" in result.output
    lines = record.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["game"] == "Dice poker" and header["seed"] == 8 and header["players"] == 2
    assert len(lines) > 30

    replayed = run(["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert f"{len(lines) - 1} moves replayed, seed 8" in replayed.output and "unfinished" not in replayed.output
    final = result.output[result.output.index("seat  place"):result.output.index("seed 8; the record is in")]
    assert final.strip() in replayed.output


def test_end_of_input_stops_cleanly_and_keeps_the_record(tmp_path):
    record = tmp_path / "partial.jsonl"
    result = run(["play", DICE, "--seed", "2", "--record", str(record)], "throw\n")
    assert result.exit_code == 1
    assert result.output.endswith("\ninput ended before the game was over: the game is not finished; the record "
                                  f"so far is in {record}.\nseed 2\n")
    lines = record.read_text().splitlines()
    assert json.loads(lines[1]) == {"seat": json.loads(lines[1])["seat"], "move": "throw", "t": 0.0}
    replayed = run(["replay", str(record)]).output.splitlines()
    assert replayed[1] == f"Dice poker: {len(lines) - 1} moves replayed, seed 2"
    assert replayed[2].startswith("unfinished: the record stops in round 1, phase 'turns', P")
    assert replayed[2].endswith(" to play; the standings so far:") and replayed[3] == "seat  place  score  result"


def test_quit_stops_the_game():
    result = run(["play", DICE, "--seed", "2"], "quit\n")
    assert result.exit_code == 0 and result.output.endswith("\ngame stopped before its end.\nseed 2\n")


def test_an_unknown_option_is_refused_with_a_hint():
    result = run(["play", DICE, "--option", "strict=true"])
    assert result.exit_code == 1
    assert "error: unknown option 'strict'" in result.output
    assert "hint: did you mean 'strict_chance'?" in result.output


def test_a_bad_human_seat_is_refused():
    result = run(["play", DICE, "-p", "2", "--human", "3"])
    assert result.exit_code == 1
    assert "error: --human: there is no seat 3 in a game of 2" in result.output


def test_seat_zero_is_refused_not_read_as_no_seat():
    result = run(["play", DICE, "-p", "2", "--human", "0"])
    assert result.exit_code == 1
    assert result.output == "error: --human: seats are numbered from 1 (P1 is seat 1); for bots only, give --human none\n"


def test_a_record_of_another_spec_is_refused(tmp_path):
    record = tmp_path / "game.jsonl"
    run(["play", DICE, "--human", "none", "--seed", "1", "-p", "2", "--record", str(record)])
    lines = record.read_text().splitlines()
    header = json.loads(lines[0])
    header["spec_hash"] = "0000"
    record.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    result = run(["replay", str(record)])
    assert result.exit_code == 1
    assert "error: the record was made with another version of Dice poker" in result.output


def test_a_corrupt_record_names_the_line(tmp_path):
    record = tmp_path / "bad.jsonl"
    run(["play", DICE, "--human", "none", "--seed", "1", "-p", "2", "--record", str(record)])
    lines = record.read_text().splitlines()
    lines[2] = "{not json"
    record.write_text("\n".join(lines) + "\n")
    result = run(["replay", str(record)])
    assert result.exit_code == 1
    assert f"error: {record}:3: not valid JSON" in result.output
