"""`flow.max_rounds`: a safety stop that may depend on the options, reported as a stop by a limit;
Schmier's `max_deals` uses it and is off by default (the match goes on until a team has 21)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main
from interpreter.api import load_game
from interpreter.errors import EvalError
from tests.helpers import GAMES, load

CAPPED = """
name: Capped
players: {min: 2, max: 2}
options:
  cap: {type: int, default: 0, min: 0, max: 10}
flow:
  max_rounds: 'if cap > 0 then cap else 4'
  phases:
    - name: waiting
      turns: {from: 0}
      moves: [wait]
moves:
  wait:
    do: [end_round]
"""


def play_out(loaded):
    state = loaded.new_state(2, 0)
    while not state.over:
        loaded.apply(state, "wait")
    return state


@pytest.mark.parametrize("cap, rounds, reason", [("0", 4, "stopped after 4 rounds (the game's max_rounds)"),
                                                 ("1", 1, "stopped after 1 round (the game's max_rounds)")])
def test_max_rounds_may_be_an_expression_of_the_options(cap, rounds, reason):
    state = play_out(load_game("capped.yaml", {"cap": cap}, text=CAPPED))
    assert (state.round, state.stop_reason) == (rounds, reason)


def test_a_max_rounds_out_of_range_at_run_time_is_an_error():
    loaded = load_game("capped.yaml", text=CAPPED.replace("else 4", "else 0"))
    with pytest.raises(EvalError) as caught:
        play_out(loaded)
    assert caught.value.message == "flow.max_rounds must be a whole number from 1 to 100000, not 0"


def test_schmier_has_no_deal_cap_by_default_and_max_deals_sets_one():
    assert load("schmier").game.max_rounds(None, {}) == 1000       # the engine's safety stop only
    assert load("schmier", max_deals=30).game.max_rounds(None, {}) == 30
    assert load("schmier").options["max_deals"] == 0


def test_a_schmier_match_ended_by_max_deals_is_reported_as_stopped_by_a_limit():
    result = CliRunner().invoke(main, ["simulate", str(GAMES / "schmier.yaml"), "-n", "2", "-o", "max_deals=1"])
    assert result.exit_code == 0, result.output
    assert "games: 2 played, 0 finished, 2 stopped by a limit, 0 errors" in result.output
    assert "stopped: 2 x stopped after 1 round (the game's max_rounds)" in result.output
    data = json.loads(CliRunner().invoke(main, ["simulate", str(GAMES / "schmier.yaml"), "-n", "2", "-o",
                                                "max_deals=1", "--format", "json"]).output)
    assert data["stop_reasons"] == {"stopped after 1 round (the game's max_rounds)": 2}
