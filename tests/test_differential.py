"""The two engines give the same games: each game's lean module (``lean``) against the closures
that are the reference (``reference``). Every bundled game is played in lockstep through both for
many seeds and every number of players it allows, every scenario file is walked on both, a game
that fails fails the same way, random expressions give the same values and errors, and ``rules
simulate`` reports the same. (tests/test_lean.py holds
the lean engine's own cases: options, errors, limits, guesses.)"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from interpreter import engine
from interpreter.api import load_game
from interpreter.errors import RulesError
from interpreter.lean import lean_game, lean_reason
from interpreter.lean.engine import LeanGame
from interpreter.tools.scenario_context import GameLoader
from interpreter.tools.scenarios import scenarios_in_file, scenarios_in_game
from tests.helpers import GAMES, ROOT, game_files
from tests.test_expr_fuzz import _grow
from tests.test_lean import lockstep

SCENARIO_FILES = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
FLOOR = ROOT / "benchmarks" / "floor.yaml"
# Seeds per game and the moves played in each (None: to its end). Random play seldom knocks in
# Gin rummy, nor bids to the target in Schmier: a game runs to tens of thousands of moves.
PLAYS = {"schmier": (3, 1500), "floor": (3, None), "nerts": (2, None), "gnoming_a_round": (2, None),
         "gnoming_a_round_two_players": (3, None), "gin_rummy": (2, 3000)}
DEFAULT_PLAYS = (12, None)


def outcome(run) -> tuple:
    """What a call gave: its value, or its error's kind, message, hint and position."""
    try:
        return ("value", run())
    except RulesError as error:
        return ("error", type(error).__name__, error.message, error.hint, str(error.pos))


# ------------------------------------------------------------------------------------ games

@pytest.mark.parametrize("path", game_files() + [FLOOR], ids=lambda p: p.stem)
def test_every_game_plays_the_same_through_both_engines(path):
    """Seed after seed, each number of players the game allows in turn."""
    loaded = load_game(path)
    lean = LeanGame(loaded)
    seeds, most = PLAYS.get(path.stem, DEFAULT_PLAYS)
    counts = range(loaded.game.min_players, loaded.game.max_players + 1)
    played = [lockstep(loaded, lean, counts[seed % len(counts)], seed, most) for seed in range(seeds)]
    assert all(moves >= 2 for moves in played)       # every game was really played, in lockstep


def test_simulate_gives_the_same_report_with_either_engine():
    for game, bots in (("last_card", "random"), ("euchre", "greedy")):
        reports = []
        for name in ("reference", "lean"):
            result = CliRunner().invoke(main, ["simulate", str(GAMES / f"{game}.yaml"), "-n", "4", "--json",
                                               "--bots", bots, "--engine", name])
            assert result.exit_code == 0, result.output
            report = json.loads(result.stdout)
            report.pop("timing", None)
            reports.append(report)
        assert reports[0] == reports[1] and reports[0]["games"]["played"] == 4


def test_a_game_failing_at_run_time_fails_the_same_way_in_both(tmp_path):
    from tests.test_simulate import FRAGILE
    path = tmp_path / "fragile.yaml"
    path.write_text(FRAGILE)
    loaded = load_game(path)
    lean = LeanGame(loaded)
    reference = (loaded.new_state, loaded.legal_moves, loaded.apply, loaded.scores)
    on_reference = [outcome(lambda: _play_to_the_end(*reference, seed)) for seed in range(8)]
    on_lean = [outcome(lambda: _play_to_the_end(lean.new_state, lean.legal, lean.step, lean.scores, seed))
               for seed in range(8)]
    assert on_lean == on_reference
    assert any(e[0] == "error" and e[2] == "division by zero" and e[4].endswith(":17:24") for e in on_reference)


def _play_to_the_end(new_state, legal, play, scores, seed: int) -> list:
    """A game played on one engine (its operations), the same choice at each move as on the other."""
    state = new_state(None, seed)
    while not state.over:
        choices = legal(state)
        play(state, choices[seed % len(choices)])
    return scores(state)


# ------------------------------------------------------------------------------------ expressions

# A game whose one move stores the text of an expression: random well-formed expressions over its
# names, each played on both engines, the same text or the same error. The expression may be
# moved to the move's condition (``when``) or the score instead (``PLACES``).
EXPRESSION_GAME = """\
name: Expressions
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
variables:
  game: {n: 3, word: ""}
define:
  double(v): v * 2
setup:
  - shuffle: stock
  - deal: 2
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0, each: once}
      moves: [poke]
moves:
  poke:
    do:
      - set: {word: 'str(EXPRESSION)'}
      - end_turn
scoring:
  score: n
"""
PLACES = {
    "effect": lambda text: text,
    "condition": lambda text: text.replace("'str(EXPRESSION)'}", "'str(n)'}").replace(
        "  poke:\n    do:", "  poke:\n    when: 'str(EXPRESSION) != \"q\"'\n    do:"),
    "score": lambda text: text.replace("'str(EXPRESSION)'}", "'str(n)'}").replace(
        "  score: n\n", "  score: 'len(str(EXPRESSION)) + n'\n"),
}
LEAVES = st.sampled_from(["n", "0", "1", "-3", "2.5", '"s"', "true", "none", "[]", "1..5", "99999", "x", "double(n)",
                          "stock.size", "hand.cards", "hand.size", "current", "stock.top", "stock.top.rank",
                          "[1, true]"])


def played_on_both(expression: str, place: str = "effect") -> tuple | None:
    """The game played to its end on each engine (each seat's first legal move): the final state's
    JSON and the scores, or the error; None when the game does not load (the expression is
    refused) or the lean engine does not generate it."""
    try:
        loaded = load_game("expressions.yaml", text=PLACES[place](EXPRESSION_GAME).replace("EXPRESSION", expression))
    except RulesError:
        return None
    lean = lean_game(loaded)
    if lean is None:
        return None

    def on_reference():
        state = loaded.new_state(2, 1)
        while not state.over:
            loaded.apply(state, loaded.legal_moves(state)[0])
        return state.to_json(), loaded.scores(state)

    def on_lean():
        state = lean.new_state(2, 1)
        while not state.over:
            lean.step(state, lean.legal(state)[0])
        return lean.to_state(state).to_json(), lean.scores(state)
    return outcome(on_reference), outcome(on_lean)


# Most random expressions are refused at load: they pass at once (an ``assume`` would have
# hypothesis look for as many that load, at ten times the cost).
@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(PLACES)), st.recursive(LEAVES, _grow, max_leaves=5))
def test_random_expressions_give_the_same_values_and_errors(place, expression):
    both = played_on_both(expression, place)
    if both is not None:
        assert both[0] == both[1]


def test_an_expression_is_played_in_each_place():
    """Each place's game plays (with ``n`` as the expression), and its expression runs there."""
    for place in PLACES:
        reference, lean = played_on_both("n", place)
        assert reference == lean and reference[0] == "value", place
        assert played_on_both("1 // (n - 3)", place)[0][2] == "division by zero", place


@pytest.mark.parametrize("expression, message", [
    ("-((if true then true else n))", "cannot negate bool"),
    ("(if n > 0 then true else n) + 1", "cannot add bool and int"),
    ("(if n > 0 then true else n) < 2", "cannot compare bool and int"),
])
def test_a_bool_python_takes_for_a_number_fails_as_in_the_reference(expression, message):
    """-True is -1 in Python: the language's own error, at the expression's place."""
    reference, lean = played_on_both(expression)
    assert reference == lean and reference[:3] == ("error", "EvalError", message)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_map_key_that_is_none_fails_as_in_the_reference(place):
    """Python takes None for a key of a dict; the language refuses it, in every place."""
    reference, lean = played_on_both("{(if true then none else n): n}", place)
    assert reference == lean and reference[:3] == ("error", "EvalError", "map keys must be strings or ints, got none")
    assert played_on_both("{(if n > 9 then none else n): n}", place)[1][0] == "value"


@pytest.mark.parametrize("expression, reason, error", [
    ("max_by(1..5, x => current)", "items ordered by seat: seats and zones have no order",
     "max_by() cannot compare values of different kinds"),
    ("max([current, current])", "max() of list of seat or none: seats and zones have no order",
     "max() cannot compare values of different kinds"),
    ("sum_by(hand.cards, x => current)", "sum_by() of seat", "sum() needs a number, got seat"),
])
def test_seats_put_in_order_or_added_up_send_the_game_to_the_reference(expression, reason, error):
    """A seat is an int to the lean engine, which Python orders and adds; the reference does neither."""
    loaded = load_game("expressions.yaml", text=EXPRESSION_GAME.replace("EXPRESSION", expression))
    assert lean_reason(loaded) == reason
    state = loaded.new_state(2, 1)
    with pytest.raises(RulesError) as failed:
        loaded.apply(state, loaded.legal_moves(state)[0])
    assert failed.value.message == error


# ------------------------------------------------------------------ scenarios on the lean engine

def lean_walked(scenario, lean) -> int:
    """A scenario walked on the reference and, from its start, on the lean engine beside it: the
    same legal moves and the same state after every step (through the conversion), the same
    checks' values; the steps compared (none where chance is fixed in advance: the reference's)."""
    start = scenario.start
    state = engine.new_state(scenario.game.game, scenario.players, scenario.seed, stack=start.stack or None)
    for change in start.changes:
        change(state)
    if start.rolls:
        return 0
    loaded, compared = scenario.game, 0
    world = lean.from_state(state)
    for step in scenario.steps:
        seat = state.current if step.seat is None else step.seat
        texts = [m.text for m in loaded.legal_moves(state, seat)]
        actions = lean.legal(world, seat) if state.current is None or seat == state.current else []
        assert [lean.action_text(a) for a in actions] == texts, f"{scenario.name}: step {compared}"
        if step.kind == "expect":
            ref_values = [outcome(lambda c=c: c.actual(state)) for c in step.checks]
            assert [outcome(lambda c=c: c.actual(lean.to_state(world))) for c in step.checks] == ref_values
        else:
            played = outcome(lambda: loaded.apply(state, step.text, step.seat).text)
            if played[0] != "value":        # refused: neither engine moves
                continue
            lean.step(world, actions[texts.index(played[1])], seat)
        assert lean.to_state(world) == state, f"{scenario.name}: step {compared}"
        compared += 1
    return compared


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_every_scenario_walks_the_same_on_the_lean_engine(path):
    games = GameLoader(GAMES / f"{path.stem}.yaml")
    scenarios = scenarios_in_game(games) + scenarios_in_file(path, games)
    walked_steps = 0
    for scenario in scenarios:
        lean = lean_game(scenario.game)
        if lean is None:
            assert path.stem in ("gin_rummy", "dou_dizhu") or scenario.players > 6, scenario.name
            continue
        walked_steps += lean_walked(scenario, lean)
    assert walked_steps > 20 or path.stem in ("gin_rummy", "dou_dizhu")
