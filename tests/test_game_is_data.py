"""A game is data: no game's name or vocabulary in the interpreter, the grammar or the CLI."""
from __future__ import annotations

import re

from tests.helpers import ROOT

WORDS = re.compile(r"nerts|nertz|schmier|smear|gnom|mulligan|bauer|poker|yatz|yahtzee|kniffel|hazard|"
                   r"pounce|pitch|golf|euchre|bower", re.IGNORECASE)


def engine_files():
    files = [ROOT / "cli.py"]       # the entry; the commands themselves are under interpreter/commands/
    for folder in ("interpreter", "grammar"):
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in (".py", ".lark", ".json")]
    return files


def test_no_game_vocabulary_in_the_engine():
    hits = []
    for path in engine_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if WORDS.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert hits == []


def test_the_check_looks_at_real_files():
    files = engine_files()
    names = {p.name for p in files}
    assert {"cli.py", "core.py", "expr.lark"} <= names
    commands = ROOT / "interpreter" / "commands"
    assert {commands / "__init__.py", commands / "common.py", commands / "playing.py"} <= set(files)
