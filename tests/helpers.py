"""Small helpers shared by the tests."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import LoadedGame, load_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"


def game_files() -> list[Path]:
    return sorted(GAMES.glob("*.yaml"))


def load(name: str, **options: str) -> LoadedGame:
    return load_game(GAMES / f"{name}.yaml", {k: str(v) for k, v in options.items()})


def reads_by_type(monkeypatch) -> list[str]:
    """The names of the members read by looking the value's type up first (its type was not known
    at load), in the order read, from expressions compiled after this call."""
    from interpreter.expr import ops

    names: list[str] = []
    general = ops.member_reader

    def counted(name):
        read = general(name)
        return lambda value: names.append(name) or read(value)
    monkeypatch.setattr(ops, "member_reader", counted)
    return names


def everyone_ready(table):
    """A served real-time table waits for every person's "ready" before its first hand: each says so."""
    for seat in table.people:
        table.set_ready(seat)
    return table
