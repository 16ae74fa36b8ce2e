"""Records and the prompt of `rules play` under hostile conditions: files that must not be
overwritten, failed writes, odd input, no input at all, and the seed kept from the player."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli import main
from interpreter.load.bundled import games_folder
from interpreter.play import record_writer
from tests.helpers import GAMES, ROOT

DICE = str(GAMES / "dice_poker.yaml")


def run(args, given=""):
    return CliRunner().invoke(main, args, input=given)


def bots_game(record, *more):
    return run(["play", DICE, "--human", "none", "--bot", "random", "--seed", "1", "-p", "2", "--record", str(record),
                *more])


def test_a_record_is_never_written_over_the_game_file(tmp_path):
    game = tmp_path / "v.yaml"
    shutil.copy(DICE, game)
    before = game.read_bytes()
    result = run(["play", str(game), "--record", str(game)])
    assert result.exit_code == 1
    assert result.output == (f"error: {game} is the game file: the record would overwrite it\n"
                             "hint: give the record another name, such as game.jsonl\n")
    assert game.read_bytes() == before


def test_a_record_is_never_written_over_a_file_that_is_not_a_record(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    result = run(["play", DICE, "--record", str(notes)])
    assert result.exit_code == 1
    assert result.output == (f"error: {notes} exists and is not a game record: it is left as it is\n"
                             "hint: give the record a new name, or remove the file first\n")
    assert notes.read_text() == "my notes\n"


def test_a_record_replaces_an_old_record_and_leaves_no_temporary_file(tmp_path):
    record = tmp_path / "game.jsonl"
    assert bots_game(record).exit_code == 0
    first = record.read_text()
    assert run(["play", DICE, "--human", "none", "--bot", "random", "--seed", "2", "-p", "2", "--record",
                str(record)]).exit_code == 0
    assert record.read_text() != first and json.loads(record.read_text().splitlines()[0])["seed"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_a_record_into_a_missing_folder_is_refused(tmp_path):
    result = run(["play", DICE, "--record", str(tmp_path / "no" / "game.jsonl")])
    assert result.exit_code == 1
    assert result.output == f"error: cannot write the record {tmp_path}/no/game.jsonl: there is no folder {tmp_path}/no\n"


class FullDisk:
    """A file that takes ``room`` writes, then fails as a full disk does."""

    def __init__(self, stream, room):
        self.stream, self.room = stream, room

    def write(self, text):
        self.room -= 1
        if self.room < 0:
            raise OSError(28, "No space left on device")
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


@pytest.mark.parametrize("room", [5, 10_000])     # fails during the game; fails writing the whole record
def test_a_failed_write_stops_the_game_and_leaves_the_old_record_whole(tmp_path, monkeypatch, room):
    record = tmp_path / "game.jsonl"
    assert bots_game(record).exit_code == 0
    old = record.read_bytes()
    real = os.fdopen
    monkeypatch.setattr(record_writer.os, "fdopen", lambda *a, **k: FullDisk(real(*a, **k), room))
    if room > 5:
        monkeypatch.setattr(record_writer.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    result = bots_game(record)
    assert result.exit_code == 1
    after = "the game is over; its record is not kept." if room > 5 else \
        "game stopped: without its record it is not played on."
    assert (f"error: cannot write the record {record}: No space left on device; the old {record} is unchanged\n"
            f"{after}\n") in result.output
    assert "Traceback" not in result.output
    assert record.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def _rules(*args, shell_tail=""):
    """`rules ARGS` in a real process (for what CliRunner cannot do: a closed stdin, a device)."""
    command = " ".join([f"'{sys.executable}'", "-m", "cli", *args]) + shell_tail
    return subprocess.run(["sh", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_a_record_to_dev_full_is_refused_in_a_real_process():
    done = _rules("play", DICE, "--record", "/dev/full")
    assert done.returncode == 1
    assert done.stderr == ("error: cannot write the record /dev/full: it is not a regular file\n"
                           "hint: a record is written to a new file or over an old record\n")


def test_a_closed_stdin_is_the_end_of_input_in_a_real_process():
    done = _rules("play", DICE, "-p", "2", "--seed", "4", shell_tail=" <&-")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stdout.endswith("\ninput ended before the game was over: the game is not finished.\nseed 4\n")


def test_odd_numbers_at_the_prompt_get_a_reason_and_a_new_prompt():
    entries = ["²", "٣", "7" * 5000, "0", "x" * 1001, "00001"]
    result = run(["play", DICE, "-p", "2", "--seed", "1"], "\n".join(entries) + "\n")
    assert result.exit_code == 1
    out = result.output
    assert "P1> error: '²' is not a legal move now\nhint: legal now: throw all five dice\n" in out
    assert "P1> error: '٣' is not a legal move now\nhint: legal now: throw all five dice\n" in out
    assert "P1> error: there is no move 777777777777...; choose 1 to 1\n" in out
    assert "P1> error: there is no move 0; choose 1 to 1\n" in out
    assert "P1> error: 1,001 characters are too many for a move (at most 1,000)\n" in out
    assert "P1: throw all five dice\n" in out      # 00001 is move 1


@pytest.mark.parametrize("flag, value, message", [
    ("--fake-clock", "nan", "Invalid value for '--fake-clock': nan is not a finite number of seconds"),
    ("--fake-clock", "inf", "Invalid value for '--fake-clock': inf is not a finite number of seconds"),
    ("--fake-clock", "-1", "Invalid value for '--fake-clock': -1 is below the smallest value, 0"),
    ("--bot-speed", "nan", "Invalid value for '--bot-speed': nan is not a finite number of seconds"),
    ("--bot-speed", "1e999", "Invalid value for '--bot-speed': 1e999 is not a finite number of seconds"),
    ("--bot-speed", "soon", "Invalid value for '--bot-speed': 'soon' is not a number"),
])
def test_clock_settings_must_be_finite(flag, value, message):
    result = run(["play", str(GAMES / "nerts.yaml"), flag, value])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"


def test_the_seed_is_shown_at_the_end_or_on_request_with_a_warning():
    result = run(["play", DICE, "-p", "2", "--seed", "12345"], "seed\nquit\n")
    first = result.output.splitlines()[0]
    assert first == "Dice poker: 2 players. Type 'help' for help."
    assert result.output.count("12345") == 2
    assert ("P1> seed 12345 (warning: with the seed anyone can work out every hidden card; the game goes on)\n"
            in result.output)
    assert result.output.endswith("game stopped before its end.\nseed 12345\n")


def test_no_file_holds_the_seed_while_the_game_runs(tmp_path):
    from interpreter.play.terminal import TerminalGame

    record = tmp_path / "game.jsonl"
    session = TerminalGame.open(DICE, {}, 2, 987654, None, str(record), lambda count: {0})
    seen = []

    def look(prompt):
        seen.extend((p.name, p.read_text()) for p in tmp_path.iterdir())
        raise EOFError
    session.read_line = look
    assert session.run() == 1
    assert [name for name, _ in seen] == [name for name, _ in seen if name.startswith(".game.jsonl.")] != []
    assert all("987654" not in text and '"full": false' in text for _, text in seen)
    header = json.loads(record.read_text().splitlines()[0])
    assert header["seed"] == 987654 and header["full"] is True


def test_a_players_record_holds_no_seed_and_is_not_replayed(tmp_path):
    record = tmp_path / "mine.jsonl"
    result = run(["play", DICE, "--human", "none", "--bot", "random", "--seed", "1", "-p", "2", "--player-record",
                  str(record)])
    assert result.exit_code == 0, result.output
    header = json.loads(record.read_text().splitlines()[0])
    assert "seed" not in header and header["full"] is False
    replayed = run(["replay", str(record)])
    assert replayed.exit_code == 1
    assert replayed.output == ("error: a player's record holds no seed: it cannot be replayed\n"
                               "hint: record with --record (a full record) to replay a game\n")


def test_a_players_record_holds_the_others_private_moves_in_public_form(tmp_path):
    record = tmp_path / "sp.jsonl"
    result = run(["play", str(GAMES / "schmier.yaml"), "--seed", "4", "--bot", "random", "--plain",
                  "--player-record", str(record)], given="1\n" * 60)
    assert result.exit_code == 1, result.output
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["full"] is False and lines[0]["seat"] == 0 and "seed" not in lines[0]
    assert [(line["seat"], line["move"]) for line in lines[5:12]] == [
        (3, "discard (3 cards)"), (4, "discard (3 cards)"), (5, "discard (2 cards)"), (0, "discard 3C"),
        (1, "discard (1 card)"), (2, "dealer_discard (a card)"), (2, "dealer_discard (a card)")]


def test_a_players_record_of_bots_only_is_a_spectators(tmp_path):
    record = tmp_path / "watch.jsonl"
    result = run(["play", str(GAMES / "euchre.yaml"), "-o", "openspiel=true", "--human", "none", "--bot", "random",
                  "--seed", "2", "--player-record", str(record)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["seat"] is None
    assert [line["move"] for line in lines[1:] if line["move"].startswith("discard")] == ["discard (a card)"]


def test_record_and_player_record_together_are_a_usage_error(tmp_path):
    result = run(["play", DICE, "--record", "a.jsonl", "--player-record", "b.jsonl"])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == "Error: give --record or --player-record, not both"


def test_play_takes_the_number_of_players_as_p_only():
    result = run(["play", DICE, "--human", "none", "--bot", "random", "--seed", "3", "-n", "2"])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == "Error: No such option '-n'."


# ---------------------------------------------------------------- replay

def _edit_header(record, **changes):
    lines = record.read_text().splitlines()
    header = {**json.loads(lines[0]), **changes}
    record.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")


def test_replay_refuses_an_impossible_number_of_players(tmp_path):
    record = tmp_path / "game.jsonl"
    bots_game(record)
    lines = record.read_text().splitlines()
    record.write_text("\n".join([lines[0].replace('"players": 2', '"players": 1e400')] + lines[1:]) + "\n")
    result = run(["replay", str(record)])
    assert result.exit_code == 1
    assert result.output == f"error: {record}:1: the header's 'players' must be a whole number from 1 to 64, not inf\n"


@pytest.mark.parametrize("seat, shown", [(2, "2"), ("P1", '"P1"'), (True, "true")])
def test_a_players_record_names_a_seat_of_its_game(tmp_path, seat, shown):
    record = tmp_path / "mine.jsonl"
    run(["play", DICE, "--human", "none", "--bot", "random", "--seed", "1", "-p", "2", "--player-record", str(record)])
    _edit_header(record, seat=seat)
    result = run(["replay", str(record)])
    assert result.exit_code == 1
    assert result.output == (f"error: {record}:1: the header's 'seat' must be a seat of a game of 2 (from 0) or "
                             f"null, not {shown}\n")


def test_replay_refuses_a_line_nested_too_deeply(tmp_path):
    record = tmp_path / "game.jsonl"
    bots_game(record)
    with record.open("a") as stream:
        stream.write("[" * 100_000 + "]" * 100_000 + "\n")
    result = run(["replay", str(record)])
    assert result.exit_code == 1
    lines = len(record.read_text().splitlines())
    assert result.output == f"error: {record}:{lines}: not a record line: JSON nested too deeply\n"


def test_replay_refuses_a_record_of_another_game(tmp_path):
    record = tmp_path / "game.jsonl"
    bots_game(record)
    _edit_header(record, game="Last card")
    result = run(["replay", str(record)])
    assert result.exit_code == 1
    assert result.output == ("error: the record is of Last card, not of Dice poker\n"
                             "hint: replay it with the game file it was made with (--game FILE)\n")


def test_replay_finds_a_relative_game_file_from_another_folder(tmp_path, monkeypatch):
    made = tmp_path / "made"
    made.mkdir()
    shutil.copy(DICE, made / "v.yaml")
    monkeypatch.chdir(made)
    assert run(["play", "v.yaml", "--human", "none", "--bot", "random", "--seed", "1", "-p", "2", "--record",
                "r.jsonl"]).exit_code == 0
    header = json.loads((made / "r.jsonl").read_text().splitlines()[0])
    assert (header["file"], header["file_abs"], header["file_rel"]) == ("v.yaml", str(made / "v.yaml"), "v.yaml")
    monkeypatch.chdir(tmp_path)
    result = run(["replay", "made/r.jsonl"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("game file: made/v.yaml (the path in the record, from the record's folder)\n")
    moved = tmp_path / "moved"
    made.rename(moved)          # the record moved with its game: found beside it
    result = run(["replay", "moved/r.jsonl"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("game file: moved/v.yaml (the path in the record, from the record's folder)\n")
    (tmp_path / "alone").mkdir()
    shutil.copy(moved / "r.jsonl", tmp_path / "alone" / "r.jsonl")
    _edit_header(tmp_path / "alone" / "r.jsonl", file_abs=str(moved / "v.yaml"))
    result = run(["replay", "alone/r.jsonl"])      # the record alone: the absolute path is used
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"game file: {moved}/v.yaml (the absolute path in the record)\n")


def test_replay_of_a_bundled_game_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(["play", "dice_poker", "--human", "none", "--bot", "random", "--seed", "1", "-p", "2", "--record",
                "r.jsonl"]).exit_code == 0
    _edit_header(tmp_path / "r.jsonl", file_abs="")
    result = run(["replay", "r.jsonl"])
    assert result.exit_code == 0, result.output
    bundled = games_folder() / "dice_poker.yaml"        # the installed copy, or the checkout's own
    assert result.output.startswith(f"game file: {bundled} (the bundled game of that name)\n")


def test_replay_of_a_record_never_put_in_place_says_where_its_moves_are(tmp_path):
    """A game killed outright (SIGKILL) leaves its moves in the temporary file beside the record."""
    left = tmp_path / ".game.jsonl.abc123.part"
    left.write_text('{"record": 1, "game": "Dice poker", "full": false}\n')
    result = run(["replay", str(tmp_path / "game.jsonl")])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(f"error: cannot read record {tmp_path / 'game.jsonl'}: ")
    assert result.output.splitlines()[1] == (
        f"hint: the game was stopped before its record was put in place; its moves so far are in {left}, "
        "without the seed (it cannot be replayed)")
