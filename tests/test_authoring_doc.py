"""docs/authoring.md is true: its files are written and every command in it is run.

Files are the code blocks after `<!-- file: NAME -->`; commands are the `$ rules ...` lines of the
console blocks after `<!-- run -->` (`<!-- run: exit N -->` when the command must fail). The
lines shown under a command must appear in its output, in order.
"""
from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from cli import main
from tests.helpers import ROOT

DOC = ROOT / "docs" / "authoring.md"
BLOCK = re.compile(r"<!-- (file: (?P<file>[\w.]+)|run(: exit (?P<exit>\d+))?) -->\n```\w*\n(?P<body>.*?)```", re.S)


def blocks():
    return list(BLOCK.finditer(DOC.read_text(encoding="utf-8")))


def commands():
    found = []
    for block in blocks():
        if block["file"] is None:
            lines = block["body"].splitlines()
            found.append((lines[0].removeprefix("$ "), lines[1:], int(block["exit"] or 0)))
    return found


def test_the_tutorial_has_its_files_and_commands():
    assert [b["file"] for b in blocks() if b["file"]] == ["pig.yaml", "pig_typo.yaml", "pig_scenarios.yaml",
                                                         "pig_stuck.yaml", "moves.txt", "pig_head_start.yaml",
                                                         "pig_comma.yaml", "pig_sides.yaml", "pig_sides_rolls.yaml",
                                                         "liars_call.yaml"]
    assert [c[0].split()[1] for c in commands()] == ["validate", "validate", "test", "simulate", "validate",
                                                     "play", "validate", "validate", "validate", "test", "test"]


@pytest.mark.parametrize("command, shown, exit_code", commands(), ids=[c[0] for c in commands()])
def test_every_command_of_the_tutorial_runs_as_shown(tmp_path, monkeypatch, command, shown, exit_code):
    for block in blocks():
        if block["file"]:
            (tmp_path / block["file"]).write_text(block["body"], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    words = shlex.split(command)
    given = None
    if "<" in words:
        at = words.index("<")
        given = (tmp_path / words[at + 1]).read_text(encoding="utf-8")
        words = words[:at]
    assert words[0] == "rules"
    result = CliRunner().invoke(main, words[1:], input=given)
    assert result.exit_code == exit_code, result.output
    output = result.output
    position = 0
    for line in shown:
        found = output.find(line, position)
        assert found >= 0, f"{line!r} not in the output (in order):\n{output}"
        position = found + len(line)
