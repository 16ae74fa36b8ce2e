"""The structure check's quicker ``oneOf`` (interpreter/load/schema_validator.py) finds exactly the
errors jsonschema's own finds: on random effects built from the format's own keys and values,
on every bundled game, and on a few effects with problems whose messages are pinned."""
from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.errors import ErrorList, RulesError
from interpreter.load.schema_check import check_against, game_schema
from interpreter.load.schema_validator import validator_for
from interpreter.load.spec import read_spec
from interpreter.load.yamlio import load_yaml
from tests.helpers import GAMES

QUICK = validator_for(game_schema())
PLAIN = jsonschema.validators.validator_for(game_schema())(game_schema())

EFFECT_KEYS = ["move", "to", "face", "at", "set", "add", "roll", "deal", "from", "first", "if", "then", "else",
               "for", "do", "log", "shuffle", "flip", "choose_random", "play_to_trick", "interrupt", "slot",
               "moves", "seat", "x"]
VALUES = st.one_of(st.sampled_from(["end_turn", "end_game", "end_trun", "hand", "pile.top", "up", "sideways",
                                    "top", "p in players", "{x: 1}"]),
                   st.integers(-1, 3), st.booleans(), st.none())
EFFECT_VALUES = st.recursive(VALUES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(EFFECT_KEYS), inner, max_size=3)), max_leaves=8)
EFFECTS = st.one_of(VALUES, st.dictionaries(st.sampled_from(EFFECT_KEYS), EFFECT_VALUES, min_size=1, max_size=4))


def game_text(effects: list) -> str:
    return ("name: G\nplayers: {min: 2, max: 2}\nzones: {hand: {per: seat}, pile: {}}\n"
            "flow: {phases: [{name: p, turns: {from: 0}, moves: [go]}]}\n"
            f"moves: {{go: {{do: {json.dumps(effects)}}}}}\n")


def both(text: str) -> tuple[list, list]:
    doc = load_yaml(text, "g.yaml")
    return _shown(check_against(doc, QUICK)), _shown(check_against(doc, PLAIN))


def _shown(errors: list) -> list:
    return [(e.message, e.pos.line, e.pos.col, e.hint) for e in errors]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EFFECTS, min_size=1, max_size=3))
def test_random_effects_get_the_same_errors(effects):
    quick, plain = both(game_text(effects))
    assert quick == plain


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_game_passes_both(path):
    quick, plain = both(path.read_text(encoding="utf-8"))
    assert quick == plain == []


@pytest.mark.parametrize("effect, message", [
    ({"move": "pile.top"}, "g.yaml:5:19: error: missing 'to' in moves.go.do[0]"),
    ({"move": "pile.top", "to": "hand", "face": "sideways"},
     "g.yaml:5:62: error: 'sideways' in moves.go.do[0].face is not one of: up, down"),
    ("end_trun", "g.yaml:5:19: error: unknown effect 'end_trun'"),
    ({"roll": "dice", "move": "pile.top", "to": "hand"},
     "g.yaml:5:36: error: 'move' starts another effect in moves.go.do[0]"),
])
def test_effects_with_a_problem(effect, message):
    with pytest.raises(RulesError) as caught:
        read_spec("g.yaml", text=game_text([effect]))
    errors = caught.value.errors if isinstance(caught.value, ErrorList) else [caught.value]
    assert str(errors[0]).splitlines()[0] == message
