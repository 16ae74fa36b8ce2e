"""The browser table is generic: no game's name or words in its files, and its files are package data."""
from __future__ import annotations

from importlib import resources

from tests.test_game_is_data import WORDS


def test_the_browser_table_knows_no_game():
    static = resources.files("interpreter.play.serve").joinpath("static")
    files = sorted(p.name for p in static.iterdir())
    assert files == ["cards.js", "dice.js", "dom.js", "draw.js", "morph.js", "seats.js", "table.css", "table.html",
                     "table.js", "trick.js"]
    hits = [f"{name}:{n}: {line.strip()}" for name in files
            for n, line in enumerate(static.joinpath(name).read_text(encoding="utf-8").splitlines(), start=1)
            if WORDS.search(line)]
    assert hits == []
