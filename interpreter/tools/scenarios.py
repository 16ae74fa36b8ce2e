"""Scenario tests, read and checked: a starting position, moves, and what must hold then.

Scenarios live in a game file (``scenarios:``) or in a scenario file that names its game. Their
structure is checked against the JSON Schema; then every seat, zone, card, variable and option they
name is checked against the game, all problems reported at once with their places. The result is
a list of ``Scenario``s that ``scenario_run`` plays. The parts: ``scenario_model`` (what a
scenario is), ``scenario_reader`` (the checks against the game), ``scenario_context`` (the game
and the changes a start makes to a state).
"""
from __future__ import annotations

from pathlib import Path


from ..errors import ErrorList, SchemaError, SpecError
from ..load.schema_check import check_against, game_schema
from ..load.schema_validator import validator_for
from ..load.yamlio import Document, load_yaml_file
from .scenario_context import GameLoader, seat_to_act
from .scenario_model import MISSING, Check, Scenario, Start, Step
from .scenario_reader import ScenarioReader

__all__ = ["MISSING", "Check", "GameLoader", "Scenario", "Start", "Step", "scenarios_in_file", "scenarios_in_game",
           "seat_to_act", "check_file_structure"]


def scenarios_in_game(games: GameLoader) -> list[Scenario]:
    """The scenarios written in the game file itself (its structure is already checked)."""
    doc = games.base.spec.doc
    return ScenarioReader(doc, games).scenarios()


def scenarios_in_file(path: str | Path, games: GameLoader | None, options: dict[str, str] | None = None) -> list[Scenario]:
    """The scenarios of a scenario file, for ``games`` or else for the game the file names."""
    doc = load_yaml_file(path)
    errors = check_file_structure(doc)
    if errors:
        raise ErrorList(errors)
    games = _file_game(doc, path, games, options)
    return ScenarioReader(doc, games).scenarios()


def check_file_structure(doc: Document) -> list[SchemaError]:
    schema = game_schema()
    root = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/scenario_file"}
    validator = validator_for(root)
    return check_against(doc, validator)


def _file_game(doc: Document, path: str | Path, games: GameLoader | None, options: dict | None) -> GameLoader:
    named = doc.data.get("game")
    if named is None:
        if games is None:
            raise SpecError("missing 'game' at the top level", doc.pos(()),
                            hint="name the game file this file tests: game: ../games/<name>.yaml")
        return games
    target = Path(path).parent / named
    if games is not None:
        if not _same_file(target, Path(games.path)):
            raise SpecError(f"this file tests '{named}', not {games.path}", doc.pos(("game",)),
                            hint="run it with that game, or remove 'game:' to test any game")
        return games
    if not target.is_file():
        raise SpecError(f"game file '{named}' not found (looked for {target})", doc.pos(("game",)),
                        hint="the path is relative to this scenario file")
    return GameLoader(target, options)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, ValueError):   # a path the system cannot even look up
        return False
