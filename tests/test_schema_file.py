"""The JSON Schema published for editors (interpreter/load/schema/game.schema.json), checked with
jsonschema itself on the files as written, variants included (an editor sees them unmerged)."""
from __future__ import annotations

import json

import jsonschema
import pytest

from interpreter.load.schema_variant import SCHEMA_PATH, derived_schema
from interpreter.load.yamlio import load_yaml, load_yaml_file
from tests.helpers import game_files

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def problems(data) -> list[tuple[list, str]]:
    return sorted((list(e.absolute_path), e.message) for e in VALIDATOR.iter_errors(data))


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_every_bundled_game_file_as_written_is_accepted(path):
    assert problems(load_yaml_file(path).data) == []


def test_variants_may_be_partial_at_any_depth_and_remove_entries_with_null():
    data = load_yaml("""
extends: base.yaml
players: {max: 4}
options:
  jokers: {default: 2}
zones:
  board: {grid: {rows: 4}}
moves:
  pass: ~
  play: {when: 'card.rank > 2'}
teams: ~
flow: {until: 'round >= 3'}
scoring: {order: low}
""", "variant.yaml").data
    assert problems(data) == []


def test_a_variant_is_still_checked_for_types_unknown_keys_and_whole_list_items():
    assert problems({"extends": "base.yaml", "players": {"max": "four"}}) == [
        (["players"], "{'max': 'four'} is not valid under any of the given schemas")]
    assert problems({"extends": "base.yaml", "bogus": 1}) == [
        ([], "Additional properties are not allowed ('bogus' was unexpected)")]
    # A list replaces the base's whole: each phase of a new list must be complete.
    assert [path for path, _ in problems({"extends": "base.yaml", "flow": {"phases": [{"name": "x"}]}})] == [["flow"]]


def test_a_whole_game_needs_its_name_players_and_flow():
    assert problems({"name": "x"}) == [([], "'flow' is a required property"), ([], "'players' is a required property")]
    assert [path for path, _ in problems({"name": "x", "players": {"max": 2}, "flow": {"phases": [{"name": "p"}]}})] \
        != []


def test_every_top_level_key_has_a_description():
    for form in ("game", "variant_game"):
        properties = SCHEMA["$defs"][form]["properties"]
        undescribed = [key for key, sub in properties.items()
                       if "description" not in (sub if form == "game" else sub["anyOf"][1])]
        assert undescribed == [], form
    assert SCHEMA["$defs"]["game"]["properties"].keys() == SCHEMA["$defs"]["variant_game"]["properties"].keys()


def test_the_variant_part_of_the_schema_file_is_up_to_date():
    # After changing the full form: python -m interpreter.load.schema_variant
    assert derived_schema() == SCHEMA


def test_the_scenario_schema_resolves_the_game_schema_beside_it_offline():
    """As an editor or check-jsonschema reads the files: the scenario schema's reference to the
    game schema is the file beside it, never a web address."""
    import json
    from pathlib import Path

    import jsonschema
    import referencing
    import yaml

    folder = SCHEMA_PATH.parent

    def local_only(uri: str) -> referencing.Resource:
        assert uri.startswith("file://"), f"the schema asked for {uri}"
        return referencing.Resource.from_contents(json.loads(Path(uri.removeprefix("file://")).read_text()))

    resource = referencing.Resource.from_contents(json.loads((folder / "scenario.schema.json").read_text()))
    where = resource.id() or (folder / "scenario.schema.json").as_uri()      # its own $id first, as tools read it
    registry = referencing.Registry(retrieve=local_only).with_resource(where, resource)
    validator = jsonschema.Draft202012Validator({"$ref": where}, registry=registry)
    files = sorted((folder.parents[2] / "tests" / "scenarios").glob("*.yaml"))
    assert files and all(list(validator.iter_errors(yaml.safe_load(f.read_text()))) == [] for f in files)
    assert list(validator.iter_errors({"game": "g.yaml", "scenarios": [{"nme": "x"}]}))
