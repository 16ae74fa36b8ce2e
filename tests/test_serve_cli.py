"""``rules serve`` and ``rules join`` on the command line: usage, the optional extra, bad records."""
from __future__ import annotations

import importlib.util

import pytest
from click.testing import CliRunner

from cli import main

from tests.helpers import GAMES


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_without_the_extra_the_command_says_how_to_get_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "starlette" else real(name, *a))
    result = run("serve", str(GAMES / "nerts.yaml"))
    assert result.exit_code == 1
    assert result.output == "error: rules serve needs starlette: pip install 'tablerules[serve]'\n"


def test_a_game_or_a_record_is_needed():
    result = run("serve")
    assert result.exit_code == 2 and "Error: give a game file, or --resume RECORD" in result.output


needs_extra = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("starlette", "uvicorn", "websockets")),
    reason="the server needs the [serve] extra: pip install '.[serve]'")


@needs_extra
def test_bad_seats_are_refused(tmp_path):
    result = run("serve", str(GAMES / "nerts.yaml"), "--bots", "2,x")
    assert result.exit_code == 2 and "Invalid value for '--bots': seat numbers like 2,3, not '2,x'" in result.output
    result = run("serve", str(GAMES / "nerts.yaml"), "--seats", "2", "--bots", "3", "--record", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 1 and result.output == "error: --bots: there is no seat 3 at a table of 2\n"


@needs_extra
def test_a_missing_record_is_an_error_not_a_traceback(tmp_path):
    result = run("serve", "--resume", str(tmp_path / "none.jsonl"))
    assert result.exit_code == 1
    assert result.output.startswith(f"error: cannot read record {tmp_path / 'none.jsonl'}: ")
