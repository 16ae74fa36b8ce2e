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
