"""`-` reads the game from the standard input: rules validate, show and simulate take it, name it
<stdin> in their messages, and read it once however often it is given."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main
from tests.helpers import GAMES

KUHN = (GAMES / "kuhn_poker.yaml").read_text()


def run(*args, given=KUHN):
    return CliRunner().invoke(main, list(args), input=given)


def test_validate_reads_a_game_from_stdin_once():
    result = run("validate", "-", "-")
    assert (result.exit_code, result.output) == (0, "<stdin>: ok\n<stdin>: ok\n")


def test_an_error_on_stdin_has_its_position():
    result = run("validate", "-", given="name: x\nplayers: {min: 2, max: 2}\nflow: 3\n")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        "<stdin>:3:7: error: expected a mapping (key: value lines), got the number 3 in flow")


def test_show_and_simulate_read_stdin_as_a_file():
    shown = run("show", "-", "--format", "json")
    assert shown.exit_code == 0 and json.loads(shown.output)["name"] == "Kuhn poker"
    from_stdin = run("simulate", "-", "-n", "20", "--json")
    from_file = run("simulate", str(GAMES / "kuhn_poker.yaml"), "-n", "20", "--json")
    assert from_stdin.exit_code == from_file.exit_code == 0
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k not in ("timing", "game", "file")}
    assert strip(from_stdin.output) == strip(from_file.output)
