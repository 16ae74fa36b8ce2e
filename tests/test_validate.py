"""``rules validate``: exit codes, the text and JSON reports, and the installed command."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from cli import main
from tests.helpers import GAMES, ROOT, game_files

GOOD = """\
name: G
players: {min: 2, max: 4}
flow:
  phases:
    - name: main
      moves: [go]
moves:
  go:
    do:
      - end_turn
"""
BAD_ENUM = GOOD.replace("    - name: main\n", "    - name: main\n      turns: {order: clockwize}\n")
TWO_ERRORS = GOOD.replace("{min: 2, max: 4}", "{min: two, max: 4}").replace("- end_turn", "- end-turn")

CLOCKWIZE = """\
{path}:6:22: error: 'clockwize' in flow.phases[0].turns.order is not one of: clockwise, counterclockwise
    6 |       turns: {{order: clockwize}}
      |                      ^^^^^^^^^
hint: did you mean 'clockwise' or 'counterclockwise'?"""


def run(*args: str):
    """Invoke the CLI with stdout and stderr kept apart (click 8.1 needs mix_stderr=False for that)."""
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, list(args), prog_name="rules")


@pytest.fixture
def write(tmp_path, monkeypatch):
    """Write game files into a temporary directory that is also the current one (short paths)."""
    monkeypatch.chdir(tmp_path)

    def write_file(name: str, text: str) -> str:
        (tmp_path / name).write_text(text, encoding="utf-8")
        return name
    return write_file


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.name)
def test_each_bundled_game_is_valid(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("validate", f"games/{path.name}")
    assert (result.exit_code, result.stdout, result.stderr) == (0, f"games/{path.name}: ok\n", "")


def test_several_good_files_are_each_reported_ok(write):
    first, second = write("a.yaml", GOOD), write("b.yaml", GOOD)
    result = run("validate", first, second)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "a.yaml: ok\nb.yaml: ok\n", "")


def test_a_bad_file_shows_the_error_with_its_caret_and_hint_and_a_summary(write):
    path = write("bad.yaml", BAD_ENUM)
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == CLOCKWIZE.format(path=path) + "\n1 error in 1 file\n"


def test_every_error_of_every_file_is_reported(write):
    files = [write("a.yaml", GOOD), write("b.yaml", TWO_ERRORS), write("c.yaml", GOOD), write("d.yaml", BAD_ENUM)]
    result = run("validate", *files)
    assert result.exit_code == 1
    assert result.stdout == "a.yaml: ok\nc.yaml: ok\n"
    assert result.stderr == "\n".join([
        "b.yaml:2:16: error: expected a whole number, got the text 'two' in players.min",
        "    2 | players: {min: two, max: 4}",
        "      |                ^^^",
        "b.yaml:10:9: error: unknown effect 'end-turn'",
        "   10 |       - end-turn",
        "      |         ^^^^^^^^",
        "hint: did you mean 'end_turn'?",
        CLOCKWIZE.format(path="d.yaml"),
        "3 errors in 2 of 4 files",
    ]) + "\n"


def test_a_missing_file_is_a_clean_error(write):
    result = run("validate", "nowhere.yaml")
    assert result.exit_code == 1
    assert result.stderr == ("error: cannot read nowhere.yaml: No such file or directory\n"
                             "1 error in 1 file\n")
    assert "Traceback" not in result.output


def test_a_missing_file_does_not_stop_the_others(write):
    good = write("good.yaml", GOOD)
    result = run("validate", "nowhere.yaml", good)
    assert result.exit_code == 1
    assert result.stdout == "good.yaml: ok\n"
    assert result.stderr.endswith("1 error in 1 of 2 files\n")


def test_no_file_is_a_usage_error():
    result = run("validate")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()  # the line between ('Try ... for help') varies with click's version
    assert (lines[0], lines[-1]) == ("Usage: rules validate [OPTIONS] FILES...", "Error: Missing argument 'FILES...'.")
    assert result.stdout == ""


def test_json_report_for_good_and_bad_files(write):
    good, bad = write("good.yaml", GOOD), write("bad.yaml", TWO_ERRORS)
    result = run("validate", "--format", "json", good, bad)
    assert result.exit_code == 1
    assert result.stderr == ""
    assert json.loads(result.stdout) == [
        {"file": "good.yaml", "ok": True, "errors": []},
        {"file": "bad.yaml", "ok": False, "errors": [
            {"kind": "error", "stage": "SchemaError", "file": "bad.yaml", "line": 2, "col": 16, "width": 3,
             "message": "expected a whole number, got the text 'two' in players.min"},
            {"kind": "error", "stage": "SchemaError", "file": "bad.yaml", "line": 10, "col": 9, "width": 8,
             "message": "unknown effect 'end-turn'", "hint": "did you mean 'end_turn'?"},
        ]},
    ]


def test_json_report_of_a_valid_file_exits_0(write):
    good = write("good.yaml", GOOD)
    result = run("validate", "--format=json", good)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [{"file": "good.yaml", "ok": True, "errors": []}]


def test_json_report_of_a_missing_file_names_the_file_but_no_line(write):
    result = run("validate", "--format", "json", "nowhere.yaml")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [{"file": "nowhere.yaml", "ok": False, "errors": [
        {"file": "nowhere.yaml", "kind": "error", "stage": "YamlError",
         "message": "cannot read nowhere.yaml: No such file or directory"},
    ]}]


def test_an_unknown_option_names_the_game_options():
    path = str(GAMES / "dice_poker.yaml")
    result = run("validate", "--option", "strict_chanse=true", path)
    assert result.exit_code == 1
    assert result.stderr == (f"{path}: error: unknown option 'strict_chanse'\n"
                             "hint: did you mean 'strict_chance'?\n"
                             "1 error in 1 file\n")


def test_an_option_for_a_game_without_options(write):
    path = write("plain.yaml", GOOD)
    result = run("validate", "-o", "jokers=2", path)
    assert result.exit_code == 1
    assert result.stderr == f"{path}: error: unknown option 'jokers'\nhint: this game has no options\n1 error in 1 file\n"


def test_a_known_option_with_a_bad_value():
    path = str(GAMES / "dice_poker.yaml")
    result = run("validate", "--option", "strict_chance=maybe", path)
    assert result.exit_code == 1
    assert result.stderr == f"{path}: error: option 'strict_chance' is true or false, not 'maybe'\n1 error in 1 file\n"


def test_a_known_option_with_a_good_value():
    path = str(GAMES / "dice_poker.yaml")
    result = run("validate", "--option", "strict_chance=true", path)
    assert (result.exit_code, result.stdout) == (0, f"{path}: ok\n")


def test_an_option_that_is_not_name_value_is_a_usage_error():
    result = run("validate", "--option", "strict_chance", str(GAMES / "dice_poker.yaml"))
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: Invalid value for --option: 'strict_chance' is not name=value\n")


@pytest.mark.skipif(shutil.which("rules") is None, reason="no 'rules' command on PATH (install with 'pip install .')")
def test_the_installed_command_validates_a_game_from_any_directory(tmp_path):
    path = str((GAMES / "dice_poker.yaml").resolve())
    done = subprocess.run(["rules", "validate", path], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{path}: ok\n", "")
