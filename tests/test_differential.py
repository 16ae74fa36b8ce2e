"""The two engines give the same games: the code generated for a game (``compiled``) against the
closures that are the reference (``reference``). Every bundled game is played in lockstep through
both for many seeds, every scenario file is run and walked through both, and expressions (random
well-formed ones, and every run-time error of the error tests) evaluate to the same values or fail
with the same errors at the same positions."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given

from cli import main
from interpreter import engine
from interpreter.api import load_game
from interpreter.engine.effects import nothing
from interpreter.engine.values import Card
from interpreter.errors import RulesError
from interpreter.expr.codegen import FILENAME
from interpreter.expr.types import plain_path
from interpreter.expr import Scope, UserFunction, compile_expression
from interpreter.tools.scenario_context import GameLoader
from interpreter.tools.scenario_run import run_scenario
from interpreter.tools.scenarios import scenarios_in_file, scenarios_in_game
from tests import test_expr_errors, test_expr_eval, test_expr_fuzz
from tests.helpers import GAMES, ROOT, game_files
from tests.runtime_games import CASES, probe

SCENARIO_FILES = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
FLOOR = ROOT / "benchmarks" / "floor.yaml"
# Seeds per game and the moves played in each (a Nerts game runs to thousands of moves).
PLAYS = {"nerts": (1, 250), "schmier": (2, 700), "gnoming_a_round": (3, 400), "gnoming_a_round_two_players": (3, 400),
         "floor": (2, 300)}
DEFAULT_PLAYS = (10, 1000)


def outcome(run) -> tuple:
    """What a call gave: its value, or its error's kind, message, hint and position."""
    try:
        return ("value", run())
    except RulesError as error:
        return ("error", type(error).__name__, error.message, error.hint, str(error.pos))


# ------------------------------------------------------------------------------------ games

def both(path, **options):
    return (load_game(path, options, engine="reference"), load_game(path, options, engine="compiled"))


def lockstep(pair, players: int | None, seed: int, most: int) -> int:
    """Play one game through both engines, the same random choice each move, comparing
    everything the engine gives at each step; the moves made."""
    states = [outcome(lambda g=g: engine.new_state(g.game, players, seed)) for g in pair]
    assert states[0][:1] == states[1][:1] == ("value",), states
    states = [s[1] for s in states]
    choose = random.Random(seed)
    for _ in range(most):
        assert states[0].to_json() == states[1].to_json()
        seats = [outcome(lambda g=g, s=s: engine.acting_seats(g.game, s)) for g, s in zip(pair, states)]
        assert seats[0] == seats[1]
        if seats[0][0] != "value" or not seats[0][1] or states[0].over:
            break
        listed = [[outcome(lambda g=g, s=s, seat=seat: [m.text for m in engine.legal_moves(g.game, s, seat)])
                   for seat in seats[0][1]] for g, s in zip(pair, states)]
        assert listed[0] == listed[1]
        if any(entry[0] != "value" for entry in listed[0]):
            break
        seat = choose.choice(seats[0][1])
        moves = [engine.legal_moves(g.game, s, seat) for g, s in zip(pair, states)]
        if not moves[0]:
            break
        pick = choose.randrange(len(moves[0]))
        applied = [outcome(lambda g=g, s=s, m=m: engine.apply_move(g.game, s, m[pick], seat, checked=False).text)
                   for g, s, m in zip(pair, states, moves)]
        assert applied[0] == applied[1]
        if applied[0][0] != "value":
            break
    for operation in (engine.scores, engine.results, engine.ranking):
        assert outcome(lambda: operation(pair[0].game, states[0])) == outcome(lambda: operation(pair[1].game, states[1]))
    return states[0].moves


@pytest.mark.parametrize("path", game_files() + [FLOOR], ids=lambda p: p.stem)
def test_every_game_plays_the_same_through_both_engines(path):
    pair = both(path)
    seeds, most = PLAYS.get(path.stem, DEFAULT_PLAYS)
    counts = range(pair[0].game.min_players, pair[0].game.max_players + 1)
    played = [lockstep(pair, list(counts)[seed % len(counts)], seed, most) for seed in range(seeds)]
    assert all(moves >= 2 for moves in played)       # every game was really played, in lockstep


def test_the_engines_are_told_apart():
    reference, compiled = both(GAMES / "dice_poker.yaml")
    assert (reference.game.engine, compiled.game.engine) == ("reference", "compiled")
    assert load_game(GAMES / "dice_poker.yaml").game.engine == "compiled"
    with pytest.raises(RulesError, match="there is no engine 'fast'"):
        load_game(GAMES / "dice_poker.yaml", engine="fast")


def test_simulate_gives_the_same_report_with_either_engine():
    reports = []
    for name in ("reference", "compiled"):
        result = CliRunner().invoke(main, ["simulate", str(GAMES / "last_card.yaml"), "-n", "4", "--json",
                                           "--engine", name])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        report.pop("timing", None)
        reports.append(report)
    assert reports[0] == reports[1] and reports[0]["games"]["played"] == 4


def test_a_game_failing_at_run_time_fails_the_same_way_in_both(tmp_path):
    from tests.test_simulate import FRAGILE
    path = tmp_path / "fragile.yaml"
    path.write_text(FRAGILE)
    pair = both(path)
    for seed in range(8):
        lockstep(pair, None, seed, 200)
    errors = [outcome(lambda g=g: _play_to_the_end(g, seed)) for g in pair for seed in range(8)]
    assert errors[:8] == errors[8:]
    assert any(e[0] == "error" and e[2] == "division by zero" and e[4].endswith(":17:24") for e in errors)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_run_time_error_fails_the_same_way_at_the_same_place_in_both(tmp_path, case):
    """The games of the run-time error tests: each fails in a move's effects, its condition, the
    flow (first seat, triggers) or the score, and does so in both engines with the same error."""
    path = tmp_path / "probe.yaml"
    path.write_text(CASES[case])
    pair = both(path)
    started = [outcome(lambda g=g: engine.new_state(g.game, None, 0).to_json()) for g in pair]
    assert started[0] == started[1]
    if started[0][0] == "value":
        lockstep(pair, None, 0, 50)


@pytest.mark.parametrize("path", game_files() + [FLOOR], ids=lambda p: p.stem)
def test_the_compiled_engine_runs_generated_effects_and_flow(path):
    """What the lockstep test compares with the reference is generated code: every move's
    effects and the flow after a move (and the reference keeps its closures)."""
    compiled, reference = (load_game(path, engine=name).game for name in ("compiled", "reference"))
    assert compiled.settle is not None and reference.settle is None
    assert all(m.run.__code__.co_filename == FILENAME for m in compiled.moves.values() if m.run is not nothing)
    assert not any(m.run.__code__.co_filename == FILENAME for m in reference.moves.values())


def test_a_for_effect_is_generated_and_runs_as_the_reference_runs_it():
    text = probe("      - for: x in [1, 2, 3]\n        do:\n          - for: y in [x, 10]\n            do: [add: {n: y}]")
    compiled, reference = (load_game("probe.yaml", text=text, engine=name) for name in ("compiled", "reference"))
    assert compiled.game.moves["poke"].run.__code__.co_filename == FILENAME
    assert [_play_to_the_end(loaded, 0) for loaded in (compiled, reference)] == [[72, 72], [72, 72]]


def test_a_hosts_plain_reads_are_written_out_in_place_of_its_getters():
    """``throws == 0`` (a game variable) and Schmier's ``is_trump(card)`` (a card's printed
    attributes) read the state and the card in place: the generated code holds no getter made of
    plain reads."""
    game = load_game(GAMES / "dice_poker.yaml").game
    listing = game.moves["throw"].listing
    bound = [cell.cell_contents for cell in listing.__closure__]
    assert listing.__code__.co_filename == FILENAME and "state" in listing.__code__.co_names
    assert not any(plain_path(value) for value in bound)
    schmier = load_game(GAMES / "schmier.yaml").game
    run = schmier.moves["dealer_discard"].run       # its effect reads is_trump(card): card.suit, card.joker...
    assert run.__code__.co_filename == FILENAME and "attrs" in run.__code__.co_names
    assert not any(plain_path(cell.cell_contents) for cell in run.__closure__)


def test_an_option_is_read_as_its_value_in_generated_code():
    """An option is the same all game: the generated effect holds its value, not a getter, and
    plays as the reference does for each value chosen."""
    text = probe("      - set: {n: step * 2}").replace("variables:", "options:\n  step: {type: int, default: 3}\nvariables:")
    results = {}
    for name in ("compiled", "reference"):
        for step in ("3", "5"):
            loaded = load_game("probe.yaml", {"step": step}, text=text, engine=name)
            run = loaded.game.moves["poke"].run
            if name == "compiled":
                assert run.__code__.co_filename == FILENAME
                assert int(step) in [cell.cell_contents for cell in run.__closure__]
                assert not any(plain_path(cell.cell_contents) for cell in run.__closure__)
            results[name, step] = _play_to_the_end(loaded, 0)
    assert results == {("compiled", "3"): [6, 6], ("reference", "3"): [6, 6],
                       ("compiled", "5"): [10, 10], ("reference", "5"): [10, 10]}


def _play_to_the_end(loaded, seed: int) -> list:
    state = loaded.new_state(None, seed)
    while not state.over:
        loaded.apply(state, loaded.legal_moves(state)[seed % len(loaded.legal_moves(state))])
    return loaded.scores(state)


# ------------------------------------------------------------------------------------ scenarios

def scenario_record(scenario) -> list:
    """Everything one scenario shows: its outcome, and the state, legal moves and checks' values
    after each step when it is walked again."""
    result = run_scenario(scenario)
    return [[(str(f.pos), f.what, f.lines) for f in result.failures]] + walked(scenario)


def walked(scenario) -> list:
    """A scenario walked step by step: the state, legal moves and checks' values after each."""
    start = scenario.start
    made = outcome(lambda: engine.new_state(scenario.game.game, scenario.players, scenario.seed,
                                            stack=start.stack or None))
    if made[0] != "value":
        return [made]
    state, record = made[1], []
    for change in start.changes:
        record.append(outcome(lambda change=change: change(state)))
    if start.rolls:
        state.presets = engine.core.Presets(rolls=[list(r) for r in start.rolls])
    loaded = scenario.game
    for step in scenario.steps:
        record.append(outcome(lambda: [m.text for m in loaded.legal_moves(state, step.seat)]))
        if step.kind == "expect":
            record.append([outcome(lambda c=c: c.actual(state)) for c in step.checks])
        else:
            record.append(outcome(lambda step=step: loaded.apply(state, step.text, step.seat).text))
        record.append(state.to_json())
    return record


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_every_scenario_runs_the_same_through_both_engines(path):
    game = GAMES / f"{path.stem}.yaml"
    records = []
    for name in ("reference", "compiled"):
        games = GameLoader(game, engine=name)
        scenarios = scenarios_in_game(games) + scenarios_in_file(path, games)
        records.append([(s.name, scenario_record(s)) for s in scenarios])
    assert len(records[0]) > 20
    assert records[0] == records[1]


# ------------------------------------------------------------------------------------ expressions

def generating(**arguments) -> tuple[Scope, Scope]:
    """The same scope twice: for the closures, and for generated code."""
    reference, generated = Scope(**arguments), Scope(**arguments)
    generated.generate = True
    return reference, generated


def evaluated(text: str, scope: Scope, ctx, env: dict) -> tuple:
    def run():
        value = compile_expression(text, scope)(ctx, dict(env))
        return ("function", None) if callable(value) else value
    return outcome(run)


FUZZ = generating(names=test_expr_fuzz.SCOPE.names, locals={"k": test_expr_fuzz.ANY},
                  functions=test_expr_fuzz.SCOPE.functions.definitions)


@test_expr_fuzz.SETTINGS
@given(test_expr_fuzz.WELL_FORMED)
def test_random_expressions_give_the_same_values_and_errors(text):
    assert evaluated(text, FUZZ[0], None, {"k": [1, 2]}) == evaluated(text, FUZZ[1], None, {"k": [1, 2]})


# (The error tests' last case spends a million steps of the work budget in a loop: too slow here.)
@pytest.mark.parametrize("text", [case[0] for case in test_expr_errors.RUN_ERRORS if "too many steps" not in case[2]])
def test_run_time_errors_are_the_same_at_the_same_positions(text):
    scopes = generating(names=test_expr_errors.SCOPE.names)
    found = [evaluated(text, scope, {"k": 3}, {}) for scope in scopes]
    assert found[0] == found[1] and found[0][0] == "error"


def test_the_evaluation_table_gives_the_same_values():
    scopes = generating(names=test_expr_eval.SCOPE.names, locals=test_expr_eval.SCOPE.locals)
    texts = ["1 + 2 * 3", "1 <= n <= 6", "1 < 2 < 3 < 2", "false and loose.missing", "true or loose.missing",
             "true and true and false", "false or false or true", "if n > 3 then 'big' else 'small'",
             "hand[0].rank", "loose.rank", "sheet.ones", "[c.suit for c in hand if c.rank == 12]",
             "not loose.rank", "loose.rank < 'a'", "n * n - 1 - loose", "-n", "dice[1:3]", "[n, n + 1, loose.rank]"]
    for text in texts:
        found = [evaluated(text, scope, test_expr_eval.CTX, {"n": 4}) for scope in scopes]
        assert found[0] == found[1], text


def test_calls_of_defined_functions_give_the_same_values_and_errors():
    functions = {name: UserFunction(name, params, body) for name, params, body in [
        ("half", ["v"], "v / (v - v)"), ("sum_sq", ["xs"], "sum(x * x for x in xs)"), ("first_of", ["xs"], "xs[0]"),
        ("pair", ["a", "b"], "[a, b]"), ("zero", [], "0 * len(dice)"), ("fits", ["x", "y"], "x + 1 == y and x != y"),
        ("checked", ["x"], "if x > 0 then x else x.missing")]}
    scopes = generating(names=test_expr_fuzz.SCOPE.names, functions=functions)
    texts = ["half(2)", "sum_sq([1, 2])", "sum_sq([1, 'a'])", "first_of([])", "pair(1, first_of([]))",
             "zero + sum_sq(dice)", "sum_sq(dice) + sum_sq(dice) + zero", "fits(1, 2) and fits(2, 3)",
             "[fits(d, 6) for d in dice]", "fits('a', 2)", "checked(1) + checked(-1)", "pair(zero, zero)",
             "any(fits(d, e) for d in dice for e in dice)", "all(checked(d) > 0 for d in dice)"]
    for text in texts:
        found = [evaluated(text, scope, None, {}) for scope in scopes]
        assert found[0] == found[1], text


def test_a_call_whose_body_reads_functions_without_parameters_is_written_at_its_call():
    chain = {f"d{i}": UserFunction(f"d{i}", [], f"d{i + 1} + 1") for i in range(45)}
    functions = {name: UserFunction(name, params, body) for name, params, body in [
        ("zero", [], "0 * len(dice)"), ("wrong", [], "dice.missing"), ("lifted", ["x"], "x + zero"),
        ("lift_wrong", ["x"], "x + wrong"), ("d45", [], "len(dice)"), ("deep_plus", ["x"], "x + d0"),
        ("shallow_plus", ["x"], "x + d20"), ("either", ["x"], "if x > 0 then zero else wrong"),
        ("pick", ["x"], "if x > 0 then lifted(x) else x")]} | chain
    scopes = generating(names=test_expr_fuzz.SCOPE.names, functions=functions)
    texts = ["lifted(2)", "lifted('a')", "lift_wrong(1)", "deep_plus(1)", "shallow_plus(1)", "either(1)",
             "either(0)", "pick(3) + pick(0)", "[lifted(d) for d in dice]", "lifted(zero) + zero"]
    for text in texts:
        found = [evaluated(text, scope, None, {}) for scope in scopes]
        assert found[0] == found[1], text
    assert evaluated("shallow_plus(1)", scopes[1], None, {}) == ("value", 26 + len(test_expr_fuzz.SCOPE.names["dice"].get(None)))
    assert evaluated("deep_plus(1)", scopes[1], None, {})[1:3] == (
        "LimitError", "defined functions nested too deeply (limit 40)")
    # Written out: the generated code calls no closure of a plain call.
    generated = compile_expression("lifted(2)", scopes[1]).body
    constants = [cell.cell_contents for cell in generated.__closure__]
    assert generated.__code__.co_filename == FILENAME
    assert not any(getattr(value, "__qualname__", "").startswith("plain_call") for value in constants)


def test_lambdas_give_the_same_values_and_errors_and_their_bodies_are_generated():
    scopes = generating(names=test_expr_eval.SCOPE.names, locals=test_expr_eval.SCOPE.locals)
    texts = ["max_by(hand, c => c.rank).suit", "min_by(hand, c => c.rank * n).suit", "sorted_by(hand, c => c.suit)[0].suit",
             "max_by(hand, c => c.missing)", "max_by(hand, c => 1 // (c.rank - c.rank))", "max_by(hand, (a, b) => a)",
             "[max_by(hand, c => c.rank * k).rank for k in [1, -1]]", "max_by(dice, d => max_by(dice, e => e * d))"]
    for text in texts:
        found = [evaluated(text, scope, test_expr_eval.CTX, {"n": 4}) for scope in scopes]
        assert found[0] == found[1], text
    assert evaluated("max_by(hand, c => 1 // (c.rank - c.rank))", scopes[1], test_expr_eval.CTX, {})[2] == \
        "division by zero"
    made = compile_expression("d => d * n", scopes[1])(test_expr_eval.CTX, {"n": 4})
    body = dict(zip(made.run.__code__.co_freevars, (c.cell_contents for c in made.run.__closure__)))["body"]
    assert body.__code__.co_filename == FILENAME and made(3) == 12


def test_chains_of_tests_of_one_value_take_the_same_branches():
    from tests import test_expr_switch as switch
    scopes = generating(names=switch.SCOPE.names)
    texts = [switch.CHAIN, 'if y.rank == 1 then "ace" else if y.rank == 13 then "king" else if y.rank == 12 then "q" '
             'else "pip"', 'if x == 1 then 1 / 0 else if x == 2 then [x, y] else if x == 3 then y.rank else x + y']
    for text in texts:
        for x in [1, "two", 3, 4, None, 5, True, 1.0, [1], {"a": 1}, 2]:
            found = [evaluated(text, scope, {"x": x, "y": 5}, {}) for scope in scopes]
            assert found[0] == found[1], (text, x)


def test_the_common_cases_written_out_give_the_same_values_and_errors():
    # codegen_fast.py: two ints, a list's index and a list's length in place, anything else through
    # ops.py or the built-in.
    scopes = generating(names=test_expr_fuzz.SCOPE.names, locals={"k": test_expr_fuzz.ANY})
    texts = ["k + 1", "1 + k - 2", "k * k", "k // 2", "k % 3", "7 % k", "7 // k", "k - 1 + k", "[10, 20][k]",
             "[10, 20, 30][k - 1]", "'ab'[k]", "k < 2", "k >= 2", "0 < k <= 2", "2 > k", "k + k < k * 2",
             "len(k)", "len(k) + len([k, k])", "[len(k) for d in dice]"]
    for k in [0, 1, 2, -1, -3, 5, True, 2.5, "a", [1, 2], None, 10**18, -10**18, 10**9 + 7, {"a": 1}, "abc"]:
        for text in texts:
            found = [evaluated(text, scope, None, {"k": k}) for scope in scopes]
            assert found[0] == found[1], (text, k)


def test_the_listings_words_for_a_list_of_cards_are_the_references():
    from interpreter.engine.codegen_legal import _words
    from interpreter.engine.moves import show
    jack, ten = Card(1, "JH", {}), Card(2, "10S", {})
    for value in [[jack, ten], [jack, [ten, 1], True, None, "x"], [], jack, 3, "a", (jack, ten), [2.5, False]]:
        assert _words(value) == show(value)


def test_a_builtins_list_spends_the_work_budget_as_the_closures_do():
    # 3,000 items sorted: 6,000 steps (the list given and the list made); 150 loops pass the
    # budget of a million only when the list made is counted too.
    scopes = generating(names=test_expr_fuzz.SCOPE.names, locals={"k": test_expr_fuzz.ANY})
    for loops in (100, 150):
        text = f"len([len(sorted(k)) for i in 1..{loops}])"
        found = [evaluated(text, scope, None, {"k": list(range(3000))}) for scope in scopes]
        assert found[0] == found[1], loops
    assert found[0][0] == "error"
    # len() of a list, read in place, still spends the list's size: 3,000 steps a call.
    for loops in (300, 340):
        text = f"sum([len(k) for i in 1..{loops}])"
        found = [evaluated(text, scope, None, {"k": list(range(3000))}) for scope in scopes]
        assert found[0] == found[1], loops
    assert found[0][0] == "error" and evaluated("sum([len(k) for i in 1..300])", scopes[1], None,
                                                {"k": list(range(3000))}) == ("value", 900000)


def test_generated_trees_are_placed_at_line_one_by_their_classes():
    # No pass over a generated tree gives its nodes a location: pyast's classes say line 1.
    import ast

    from interpreter.expr.codegen_ast import call, load, pyast
    tree = pyast.Module(body=[pyast.Expr(value=call(load("f"), pyast.Constant(2)))], type_ignores=[])
    assert isinstance(tree.body[0].value, ast.expr) and pyast.expr is ast.expr
    assert (tree.body[0].lineno, tree.body[0].value.col_offset) == (1, 0)
    assert "lineno" not in vars(tree.body[0])
    seen = []
    exec(compile(tree, FILENAME, "exec"), {"f": seen.append})
    assert seen == [2]
    with pytest.raises(TypeError, match="lineno"):
        compile(ast.Module(body=[ast.Expr(value=ast.Constant(2))], type_ignores=[]), FILENAME, "exec")


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
    from interpreter.lean import lean_game
    games = GameLoader(GAMES / f"{path.stem}.yaml", engine="compiled")
    scenarios = scenarios_in_game(games) + scenarios_in_file(path, games)
    walked_steps = 0
    for scenario in scenarios:
        lean = lean_game(scenario.game)
        if lean is None:
            assert path.stem in ("gin_rummy", "dou_dizhu") or scenario.players > 6, scenario.name
            continue
        walked_steps += lean_walked(scenario, lean)
    assert walked_steps > 20 or path.stem in ("gin_rummy", "dou_dizhu")
