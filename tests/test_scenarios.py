"""Scenario tests: the worked examples in tests/scenarios/ pass, and the runner itself (`rules test`)
reports passes, failures and errors exactly."""
from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from interpreter import engine
from interpreter.engine.state import Presets
from interpreter.engine.values import ZoneRef
from interpreter.errors import RulesError
from interpreter.tools.scenario_run import Outcome, run_scenarios
from interpreter.tools.scenarios import GameLoader, scenarios_in_file
from tests.helpers import GAMES, ROOT, load

DICE = str(GAMES / "dice_poker.yaml")
CARDS = str(GAMES / "last_card.yaml")
SCENARIO_FILES = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
# P1 is dealt AS KH 4C 7C JC, P2 2S KD 5C 8C QC, P3 3S QH 6C 9C KC; 10S is turned onto the pile.
STACK = "stack: {stock: [AS, 2S, 3S, KH, KD, QH, 4C, 5C, 6C, 7C, 8C, 9C, JC, QC, KC, 10S]}"


def run(*args):
    result = CliRunner().invoke(main, ["test", *args])
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return str(path)


def scenario(tmp_path, game, body):
    """A scenario file holding one scenario named 'it' (``body`` is its keys, as YAML)."""
    text = "scenarios:\n  - name: it\n" + textwrap.indent(textwrap.dedent(body).strip(), "    ") + "\n"
    return game, write(tmp_path, text)


# ---------------------------------------------------------------- the scenarios of the project

@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_every_scenario_file_passes_through_the_cli(path):
    code, out, err = run(str(GAMES / f"{path.stem}.yaml"), str(path))
    assert (code, err) == (0, ""), out
    assert "FAIL" not in out and out.splitlines()[-1].endswith(" passed, 0 failed")


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_every_scenario_file_passes_through_the_api(path):
    games = GameLoader(GAMES / f"{path.stem}.yaml")
    scenarios = scenarios_in_file(path, games)
    run_ = run_scenarios(games.path, [path])
    assert run_.ok and len(run_.outcomes) == len(scenarios) > 20


# ---------------------------------------------------------------- reports

def test_a_failing_scenario_reports_each_difference_at_its_place(tmp_path):
    game, path = scenario(tmp_path, DICE, """
        start: {round: 7, current: P1, dice: [6, 6, 2, 4, 1], vars: {throws: 1}}
        moves: [score pair 6]
        expect:
          seat_vars: {P1: {sheet: {pair: 12}}}
          scores: [12, 0, 0]
          current: P2
    """)
    code, out, err = run(game, path)
    assert (code, err) == (1, "")
    assert out == textwrap.dedent(f"""\
        FAIL it
          {path}:6:38: seat_vars.P1.sheet.pair
            expected: 12
            actual:   24
          {path}:7:15: scores
            expected: [12, 0, 0]
            actual:   [24, 0, 0]
            missing:    12
            unexpected: 24
        0 passed, 1 failed
    """)


def test_passing_and_failing_scenarios_are_listed_in_order_with_a_summary(tmp_path):
    path = write(tmp_path, """
        scenarios:
          - name: first throw
            steps: [{expect: {legal: {equal: [throw]}, vars: {throws: 0}}}]
          - name: wrong order
            start: {rolls: [[1, 2, 3, 4, 5]]}
            steps: [throw, {expect: {dice: [5, 4, 3, 2, 1]}}]
          - name: rolls left over
            start: {rolls: [[1, 2, 3, 4, 5], [6]]}
            steps: [throw]
    """)
    code, out, _ = run(DICE, path)
    assert code == 1
    assert out == textwrap.dedent(f"""\
        PASS first throw
        FAIL wrong order
          {path}:6:36: dice
            expected: [5, 4, 3, 2, 1]
            actual:   [1, 2, 3, 4, 5]
            the same items in another order
        FAIL rolls left over
          {path}:8:13: 1 fixed roll was never used
        1 passed, 2 failed
    """)


def test_k_runs_only_the_scenarios_whose_name_contains_the_text(tmp_path):
    path = write(tmp_path, """
        scenarios:
          - name: Throw first
            expect: {legal: {equal: [throw]}}
          - name: Nothing else
            expect: {legal: {exclude: [score chance]}}
    """)
    assert run(DICE, path, "-k", "throw")[1] == "PASS Throw first\n1 passed, 0 failed\n"
    code, out, err = run(DICE, path, "-k", "nothing at all")
    assert (code, out, err) == (1, "0 passed, 0 failed\n", "no scenarios to run matching 'nothing at all'\n")


def test_the_game_files_own_scenarios_run_with_the_options_given(tmp_path):
    text = (GAMES / "dice_poker.yaml").read_text() + textwrap.dedent("""
        scenarios:
          - name: Chance is strict
            start: {round: 7, current: P1, dice: [6, 6, 2, 4, 1], vars: {throws: 1}}
            steps: [{illegal: score chance}]
    """)
    game = write(tmp_path, text, "game.yaml")
    assert run(game, "--option", "strict_chance=true") == (0, "PASS Chance is strict\n1 passed, 0 failed\n", "")
    code, out, _ = run(game)
    assert code == 1 and out.startswith(f"FAIL Chance is strict\n  {game}:")
    assert "'score chance' was expected to be illegal, but P1 played 'score chance'" in out


def test_no_scenario_at_all_is_a_failed_run():
    assert run(DICE) == (1, "0 passed, 0 failed\n", "no scenarios to run\n")


# ---------------------------------------------------------------- every kind of expectation

def test_every_kind_of_expectation_passes_when_it_holds(tmp_path):
    game, path = scenario(tmp_path, CARDS, f"""
        start:
          {STACK}
        steps:
          - expect:
              legal: {{equal: [play AS], include: [play AS], exclude: [draw, play KH]}}
              zones: {{hand: {{P1: [AS, KH, 4C, 7C, JC], P3: 5}}, pile: [10S], stock: 36}}
              vars: {{draws: 0}}
              current: P1
              phase: play
              round: 1
              over: false
              scores: [32, 35, 38]
              results: [32, 35, 38]
              winner: [P1]
          - play AS
          - expect: {{current: P2, legal: {{seat: P2, equal: [play 2S]}}}}
    """)
    assert run(game, path) == (0, "PASS it\n1 passed, 0 failed\n", "")


def test_dice_and_nested_variables_compare_only_the_keys_written(tmp_path):
    game, path = scenario(tmp_path, DICE, """
        start: {round: 7, current: P2, dice: [3, 1, 2, 5, 4], vars: {throws: 2}}
        moves: [score small_straight]
        expect:
          dice: [1, 2, 3, 4, 5]
          seat_vars: {P2: {sheet: {small_straight: 15, pair: none}, crossed: []}}
          over: true
    """)
    code, out, _ = run(game, path)
    assert out == textwrap.dedent(f"""\
        FAIL it
          {path}:8:13: over
            expected: true
            actual:   false
        0 passed, 1 failed
    """)


def test_include_and_exclude_name_the_moves_that_break_them(tmp_path):
    game, path = scenario(tmp_path, DICE, """
        start: {round: 7, current: P1, dice: [6, 6, 2, 4, 1], vars: {throws: 1}}
        expect:
          legal: {include: [score pair 6, score pair 2], exclude: [score chance, cross poker, throw]}
    """)
    code, out, _ = run(game, path)
    assert out.splitlines()[1:6] == [
        f"  {path}:5:24: legal.include",
        "    missing: score pair 2",
        "    actual:  [rethrow 1, rethrow 2, rethrow 4, rethrow 6, rethrow 1 2, rethrow 1 4, rethrow 1 6, "
        "rethrow 2 4, ... and 26 more]",
        f"  {path}:5:63: legal.exclude",
        "    present: score chance, cross poker",
    ]


def test_zone_counts_winner_and_current_report_their_values(tmp_path):
    game, path = scenario(tmp_path, CARDS, f"""
        start:
          {STACK}
        expect: {{zones: {{pile: 2, hand: {{P2: [2S]}}}}, winner: [P2], current: none}}
    """)
    code, out, _ = run(game, path)
    assert out == textwrap.dedent(f"""\
        FAIL it
          {path}:5:28: zones.pile (count)
            expected: 2
            actual:   1
          {path}:5:42: zones.hand.P2
            expected: [2S]
            actual:   [2S, KD, 5C, 8C, QC]
            unexpected: KD, 5C, 8C, QC
          {path}:5:58: winner
            expected: [P2]
            actual:   [P1]
            missing:    P2
            unexpected: P1
          {path}:5:73: current
            expected: none
            actual:   P1
        0 passed, 1 failed
    """)


# ---------------------------------------------------------------- moves and illegal steps

def test_an_illegal_step_passes_when_the_move_is_refused_with_that_message(tmp_path):
    game, path = scenario(tmp_path, DICE, """
        start: {current: P1}
        steps:
          - {illegal: score chance, message: "'score chance' is not a legal move now"}
          - {illegal: score chance, seat: P2, message: "'score chance' is not legal: there is no move to make now"}
          - {illegal: score chance, message: "something else"}
    """)
    code, out, _ = run(game, path)
    assert out == textwrap.dedent(f"""\
        FAIL it
          {path}:7:19: 'score chance' is illegal, with another message
            expected: something else
            actual:   'score chance' is not a legal move now
        0 passed, 1 failed
    """)


def test_a_refused_move_fails_the_scenario_with_the_engines_reason(tmp_path):
    game, path = scenario(tmp_path, DICE, """
        moves: [throw, score poker]
    """)
    code, out, _ = run(game, path)
    assert code == 1
    assert out.splitlines()[1:3] == [f"  {path}:3:20: 'score poker' is not a legal move now",
                                     "    hint: legal now: rethrow, score"]


def test_a_move_by_a_named_seat_out_of_turn_is_refused(tmp_path):
    game, path = scenario(tmp_path, CARDS, f"""
        start:
          {STACK}
        steps: [{{move: play 2S, seat: P2}}]
    """)
    assert run(game, path)[1].splitlines()[1] == f"  {path}:5:20: 'play 2S' is not legal: there is no move to make now"


# ---------------------------------------------------------------- starting positions, stacks and rolls

def test_zones_take_the_cards_named_and_send_the_others_back_to_the_deck(tmp_path):
    game, path = scenario(tmp_path, CARDS, f"""
        start:
          {STACK}
          zones: {{hand: {{P1: [10S, 2S]}}, pile: [KS]}}
        expect: {{zones: {{hand: {{P1: [10S, 2S], P2: [KD, 5C, 8C, QC]}}, pile: [KS], stock: 40}}}}
    """)
    assert run(game, path) == (0, "PASS it\n1 passed, 0 failed\n", "")
    [item] = scenarios_in_file(path, GameLoader(CARDS))
    loaded = item.game
    state = engine.new_state(loaded.game, 3, 0, stack=item.start.stack)
    for change in item.start.changes:
        change(state)
    table = loaded.game.card_table(3)
    stock = [table[c].label for c in state.zones["stock"][0]]
    assert stock[:5] == ["AS", "KH", "4C", "7C", "JC"]     # P1's old hand, under the stock in its order
    assert not state.face_up & set(state.zones["stock"][0])
    assert {table[c].label for c in state.face_up} == {
        "10S", "2S", "KD", "5C", "8C", "QC", "3S", "QH", "6C", "9C", "KC", "KS"}


def test_a_stacked_deck_is_consumed_by_the_setup_and_leaves_an_ordinary_state():
    loaded = load("last_card")
    table = loaded.game.card_table(3)
    ids = {c.label: c.id for c in table}
    stacked = engine.new_state(loaded.game, 3, 5, stack={ZoneRef("stock"): [ids["QS"], ids["JS"]]})
    plain = engine.new_state(loaded.game, 3, 5)
    assert stacked.presets is None and stacked.clone() == stacked
    assert [table[c].label for c in stacked.zones["hand"][0]][0] == "QS"
    assert stacked.to_json().keys() == plain.to_json().keys()
    assert stacked.rng == plain.rng


def test_stack_errors_name_the_cards_and_zones(tmp_path):
    game, path = scenario(tmp_path, CARDS, """
        start: {stack: {pile: [AS]}}
        expect: {over: false}
    """)
    assert run(game, path)[1].splitlines()[1] == f"  {path}:3:13: stack: pile is not shuffled while the game is set up"


def test_fixed_rolls_give_the_rethrown_dice_and_must_fit_them(tmp_path):
    game, path = scenario(tmp_path, DICE, """
        start: {rolls: [[6, 6, 6, 1, 1], [6, 6]]}
        steps:
          - throw
          - expect: {dice: [1, 1, 6, 6, 6]}
          - rethrow 1
    """)
    assert run(game, path)[1].splitlines()[1] == \
        f"  {path}:7:9: roll: the next fixed roll has 2 values, but 1 dice are thrown"


def test_fixed_rolls_never_reach_the_saved_state():
    loaded = load("dice_poker")
    state = loaded.new_state(players=2, seed=3)
    before = state.to_json()
    state.presets = Presets(rolls=[[2, 2, 2, 2, 2]])
    assert state.to_json() == before and state.clone().presets is None
    loaded.apply(state, "throw")
    assert state.dice == [2, 2, 2, 2, 2] and state.presets.rolls == []


# ---------------------------------------------------------------- errors in scenario files

@pytest.mark.parametrize("body, message", [
    ("start: {rounds: 3}\nexpect: {over: false}",
     "3:13: error: unknown key 'rounds' in scenarios[0].start\n"
     "    3 |     start: {rounds: 3}\n      |             ^^^^^^\nhint: did you mean 'round'?"),
    ("players: 9\nexpect: {over: false}",
     "3:14: error: Dice poker is for 2 to 4 players, not 9\n    3 |     players: 9\n      |              ^"),
    ("options: {strict: true}\nexpect: {over: false}",
     "3:15: error: unknown option 'strict'\n    3 |     options: {strict: true}\n      |               ^^^^^^\n"
     "hint: did you mean 'strict_chance'?"),
    ("options: {strict_chance: maybe}\nexpect: {over: false}",
     "3:30: error: option 'strict_chance' is true or false, not 'maybe'\n"
     "    3 |     options: {strict_chance: maybe}\n      |                              ^^^^^"),
    ("start: {vars: {throw: 1}}\nexpect: {over: false}",
     "3:20: error: unknown game variable 'throw'\n    3 |     start: {vars: {throw: 1}}\n"
     "      |                    ^^^^^\nhint: did you mean 'throws'?"),
    ("start: {seat_vars: {P1: {sheet: {one: 0}}}}\nexpect: {over: false}",
     "3:38: error: unknown key of 'sheet' 'one'\n    3 |     start: {seat_vars: {P1: {sheet: {one: 0}}}}\n"
     "      |                                      ^^^\nhint: did you mean 'ones'?"),
    ("start: {dice: [1, 2, 3]}\nexpect: {over: false}",
     "3:19: error: expected 5 dice, got 3\n    3 |     start: {dice: [1, 2, 3]}\n      |                   ^^^^^^^^^"),
    ("start: {current: P5}\nexpect: {over: false}",
     "3:22: error: there is no seat P5: this scenario has 3 players (P1 to P3)\n"
     "    3 |     start: {current: P5}\n      |                      ^^"),
    ("steps: [{move: throw, expect: {over: true}}]",
     "3:27: error: a step has one of 'move:', 'illegal:' or 'expect:', not both 'move:' and 'expect:'\n"
     "    3 |     steps: [{move: throw, expect: {over: true}}]\n      |                           ^^^^^^"),
    ("steps: [throw]\nexpect: {over: true}",
     "3:5: error: a scenario has 'steps:', or 'moves:' and 'expect:', not both\n"
     "    3 |     steps: [throw]\n      |     ^^^^^"),
    ("steps: [{illegal: true}]",
     "3:23: error: expected text, got 'true' in scenarios[0].steps[0].illegal\n"
     "    3 |     steps: [{illegal: true}]\n      |                       ^^^^\n"
     "hint: 'illegal:' takes the move the engine must refuse: write {illegal: MOVE}"),
    ("players: 3",
     "2:5: error: scenario 'it' checks nothing\n    2 |   - name: it\n      |     ^^^^\n"
     "hint: add 'steps:', or 'moves:' and a final 'expect:'"),
])
def test_scenario_file_errors_are_reported_with_a_caret(tmp_path, body, message):
    game, path = scenario(tmp_path, DICE, body)
    code, out, err = run(game, path)
    assert code == 1 and out == "0 passed, 0 failed, 1 error\n"
    assert err == f"{path}:{message}\n"


def test_card_zone_and_seat_errors_are_all_reported_at_once(tmp_path):
    game, path = scenario(tmp_path, CARDS, """
        start: {zones: {hand: {P1: [AX]}, pil: [KS], stock: {P1: []}}}
        expect: {zones: {hand: [AS]}, winner: [P9]}
    """)
    code, out, err = run(game, path)
    headlines = [line[len(path) + 1:] for line in err.splitlines() if line.startswith(path)]
    assert headlines == [
        "3:33: error: unknown card 'AX'",
        "3:39: error: unknown zone 'pil'",
        "3:57: error: zone 'stock' is shared: give its cards directly, not per seat",
        "4:28: error: zone 'hand' is one per seat: give its cards or count by seat, as hand: {P1: ...}",
        "4:44: error: there is no seat P9: this scenario has 3 players (P1 to P3)",
    ]
    assert "hint: cards are named by their labels, as AS or 10H" in err and "hint: did you mean 'pile'?" in err
    assert (code, out) == (1, "0 passed, 0 failed, 5 errors\n")


def test_a_file_for_another_game_is_refused_where_it_names_it(tmp_path):
    path = write(tmp_path, f"""
        game: {CARDS}
        scenarios: [{{name: x, expect: {{over: false}}}}]
    """)
    code, _, err = run(DICE, path)
    assert code == 1
    assert err.splitlines()[0] == f"{path}:1:7: error: this file tests '{CARDS}', not {DICE}"


def test_a_file_names_its_game_relative_to_itself(tmp_path):
    (tmp_path / "sub").mkdir()
    path = write(tmp_path, """
        game: ../game.yaml
        scenarios: [{name: x, expect: {over: false}}]
    """, "sub/s.yaml")
    (tmp_path / "game.yaml").write_text((GAMES / "dice_poker.yaml").read_text())
    assert run_scenarios(tmp_path / "game.yaml", [path]).ok
    assert [s.name for s in scenarios_in_file(path, None)] == ["x"]


def test_bad_yaml_and_missing_files_are_errors_not_tracebacks(tmp_path):
    path = write(tmp_path, "scenarios: [\n")
    code, out, err = run(DICE, path, str(tmp_path / "none.yaml"))
    assert code == 1 and out == "0 passed, 0 failed, 2 errors\n"
    assert err.splitlines()[-1] == f"error: cannot read {tmp_path / 'none.yaml'}: No such file or directory"


def test_a_missing_game_argument_is_a_usage_error():
    assert run()[0] == 2


# ---------------------------------------------------------------- any input: only our own errors

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from(["P1", "P9", "T1", "AS", "none", "throw", "x"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["throws", "sheet", "ones", "P1", "hand", "pile", "stock", "x"]), inner, max_size=3),
    max_leaves=8)
START_KEYS = ["round", "phase", "current", "dice", "vars", "seat_vars", "team_vars", "zones", "stack", "rolls"]
EXPECT_KEYS = ["legal", "vars", "seat_vars", "zones", "dice", "current", "phase", "scores", "over", "winner", "round"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.dictionaries(st.sampled_from(START_KEYS), VALUES, max_size=4),
       expect=st.dictionaries(st.sampled_from(EXPECT_KEYS), VALUES, min_size=1, max_size=3),
       steps=st.lists(st.sampled_from(["throw", "score chance", "play AS", "draw"]), max_size=3),
       game=st.sampled_from([DICE, CARDS]))
def test_any_scenario_gives_a_result_or_our_own_errors(tmp_path, start, expect, steps, game):
    path = tmp_path / "fuzz.yaml"
    path.write_text(json.dumps({"scenarios": [{"name": "f", "start": start, "moves": steps, "expect": expect}]}))
    results = run_scenarios(game, [path]).results
    assert len(results) >= 1 and all(isinstance(r, (Outcome, RulesError)) for r in results)


TEAM_GAME = """
name: Partners
players: {min: 4, max: 4}
teams: {of: seat % 2}
zones:
  tricks: {per: team}
variables:
  team: {points: 0}
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [win]
moves:
  win:
    do:
      - add: {points: 1}
      - end_game
scoring:
  score: points
scenarios:
  - name: team points
    start: {team_vars: {T2: {points: 3}}, current: P2}
    moves: [win]
    expect: {team_vars: {T2: {points: 4}, T1: {points: 0}}, over: true, winner: [P2, P4], zones: {tricks: {T1: 0}}}
  - name: no third team
    start: {team_vars: {T3: {points: 3}}}
    expect: {over: false}
"""


def test_team_variables_and_zones_are_named_t1_t2(tmp_path):
    game = write(tmp_path, TEAM_GAME, "partners.yaml")
    assert run(game) == (1, f"PASS team points\nFAIL no third team\n  {game}:27:25: there is no team T3: "
                            "this game has 2 teams\n1 passed, 1 failed\n", "")
