"""The lean engine against the reference: games with options and numbers of players of their
own play the same games (the same legal moves in the same order, the same state after every move
through the conversion, the same scores), the games it does not generate say why, and a game that
fails fails with the reference's own error, byte for byte. (tests/test_differential.py plays
every bundled game.)"""
from __future__ import annotations

import json
import random

import pytest

from interpreter.api import load_game
from interpreter.engine.core import evaluate_hint
from interpreter.errors import RulesError
from interpreter.lean.engine import LeanGame
from interpreter.lean.ltypes import Unsupported
from interpreter.tools.lean_playout import play_lean as PLAY_LEAN
from tests.helpers import GAMES, ROOT
from tests.runtime_games import CASES
from tests.test_grids import BELL

FLOOR = ROOT / "benchmarks" / "floor.yaml"
# The options and players each game is also played with (tests/test_differential.py plays each
# game as it comes).
VARIANTS = [
    ("euchre", {"allow_lone_defender": "true"}, None),
    ("euchre", {"stick_the_dealer": "false"}, None),
    ("schmier", {"teams_of_three": "true", "show_trump_discards": "true", "max_deals": "3"}, None),
    ("dice_poker", {"strict_chance": "true"}, 4),
    ("last_card", {}, 5),
    ("crazy_eights", {}, 2),
    ("nerts", {"jokers": "true"}, 2),
    ("nerts", {"jokers": "true", "partnerships": "true", "draw_one": "true"}, 6),
    ("gnoming_a_round", {"three_mulligans": "0", "may_discard_taken": "true"}, 7),
    ("liars_dice", {"wild": "none", "dice_each": "2", "start_chips": "2"}, 6),
    ("liars_dice", {}, 2),
]


def lockstep(loaded, lean: LeanGame, players: int | None, seed: int, most: int | None = None) -> int:
    """One random game through both engines (its first ``most`` moves), compared after every
    move; the moves made."""
    ref = loaded.new_state(players, seed)
    state = lean.new_state(players, seed)
    choose = random.Random(seed)
    while most is None or ref.moves < most:
        assert lean.to_state(state) == ref, f"seed {seed}, move {ref.moves}"
        if loaded.game.hint is not None:        # the bots' hint, to the last bit of a float
            seats = range(ref.players)
            assert [lean.hint(state, s) for s in seats] == [evaluate_hint(loaded.game, ref, s) for s in seats]
        if ref.over:
            break
        seats = loaded.acting_seats(ref)
        assert lean.acting_seats(state) == seats, f"seed {seed}, move {ref.moves}"
        seat = ref.current
        if seat is None:        # free play: any seat that may move
            seat = seats[choose.randrange(len(seats))]
        moves = loaded.legal_moves(ref, seat)
        actions = lean.legal(state, seat)
        assert [lean.action_text(a) for a in actions] == [m.text for m in moves], f"seed {seed}, move {ref.moves}"
        pick = choose.randrange(len(moves))
        loaded.apply(ref, moves[pick], seat)
        lean.step(state, actions[pick], seat)
    if ref.over:
        assert lean.scores(state) == loaded.scores(ref)
        assert lean.results(state) == loaded.results(ref)
    return ref.moves


@pytest.mark.parametrize("name, options, players", VARIANTS, ids=lambda v: str(v))
def test_options_and_players_are_generated_too(name, options, players):
    loaded = load_game(GAMES / f"{name}.yaml", options)
    lean = LeanGame(loaded)
    for seed in range(3):
        lockstep(loaded, lean, players, seed)


def test_a_states_clone_goes_its_own_way():
    loaded = load_game(GAMES / "euchre.yaml")
    lean = LeanGame(loaded)
    state = lean.new_state(None, 4)
    for _ in range(6):
        lean.step(state, lean.legal(state)[0])
    copy = lean.clone(state)
    before = lean.to_state(state)
    lean.step(copy, lean.legal(copy)[-1])
    assert lean.to_state(state) == before and lean.to_state(copy) != before
    assert lean.to_state(lean.from_state(before)) == before


# ------------------------------------------------------------------------------ errors

# Stalled games are found by the table that drives them, not by a move.
BY_THE_TABLE = {"no legal move", "a turn that never ends", "nobody can move in free play"}
# Games whose fault the lean engine sees at load, by the types of its values: the reference runs them.
SENT_TO_THE_REFERENCE = {
    "first of an empty list": "a variable holds int and then card",
    "a parameter's list that is not a list": "parameter 'k' of 'poke' ranges over none",
    "flip of a number": "flipping int",
    "a for over a number": "a 'for' over int",
}


def _outcome(run):
    try:
        run()
    except RulesError as error:
        return error.render()
    return None


@pytest.mark.parametrize("case", sorted(set(CASES) - BY_THE_TABLE - set(SENT_TO_THE_REFERENCE)))
def test_a_game_that_fails_fails_with_the_references_error(case):
    loaded = load_game("probe.yaml", text=CASES[case])
    lean = LeanGame(loaded)
    expected = _outcome(lambda: _play_reference(loaded))
    assert expected is not None
    assert _outcome(lambda: _play_lean(lean)) == expected


# Defined functions for the probes below ("top" and "twice" have a loop: they are called, not
# written in place).
DEFINED = """define:
  top(k): 'max([v for v in 1..6 if v <= k] + [0])'
  twice(k): 'max([k * 2 for v in 1..2])'
  maybe(v): 'if v > 3 then v else none'
triggers: []"""
# Arithmetic on numbers known to be small is left unchecked: a float's and an int's bits are
# bounded from the constants, the card attributes, the operations, what a defined function gives
# and the numbers it is given; past 59 bits, checked.
MAGNITUDES = {
    "a product of a float past the limit": ('"1.5 * 100000000000 * 100000000000"', False),
    "a float floor-divided past the limit": ('"100000000000000000.0 // 0.001"', False),
    "a float divided by an int past the limit": ('"(1.5 * 100000000000) * 10000000 / 1"', False),
    "a small float divided": ('"(2.5 * 3 - 1) / 4 + 7 / 2"', True),
    "a sum of small floats": ('"sum([c.rank / 2 for c in stock.cards])"', True),
    "a product of what functions give": ('"top(3) * top(4) + 1"', True),
    "a function of a small number": ('"twice(3) + 1"', True),
    "a function of a number past the limit": ('"twice(900000000000000000)"', False),
}


@pytest.mark.parametrize("case", sorted(MAGNITUDES))
def test_numbers_left_unchecked_are_within_the_limit_and_the_others_fail_as_the_references(case):
    from tests.runtime_games import probe
    value, fits = MAGNITUDES[case]
    loaded = load_game("probe.yaml", text=probe(f"      - set: {{n: {value}}}").replace("triggers: []", DEFINED))
    lean = LeanGame(loaded)
    expected = _outcome(lambda: _play_reference(loaded))
    assert (expected is None) == fits
    assert _outcome(lambda: _play_lean(lean)) == expected
    assert ("_number(" not in _move_text(lean)) == fits


def _move_text(lean) -> str:
    """The generated text of the probe's move and of the functions it calls (written first)."""
    text = lean.program.text()
    return text.split("class State")[0] + text.split("def m_0")[1].split("\ndef ")[0]


def _n_after_the_first_move(loaded, lean) -> tuple:
    """The probe's ``n`` after its first move, on the lean engine and on the reference."""
    state, reference = lean.new_state(None, 1), loaded.new_state(None, 1)
    lean.step(state, lean.legal(state)[0])
    loaded.apply(reference, loaded.legal_moves(reference, reference.current)[0], reference.current)
    return lean.to_state(state).vars["n"], reference.vars["n"]


def test_a_call_a_filter_makes_is_made_once_for_the_item_too():
    from tests.runtime_games import probe
    value = '"sum([top(v) * 10 for v in 1..6 if top(v) > 2])"'
    loaded = load_game("probe.yaml", text=probe(f"      - set: {{n: {value}}}").replace("triggers: []", DEFINED))
    lean = LeanGame(loaded)
    text = _move_text(lean)
    assert text.count("d_top_0(s, me, _") == 1 and "for _call" in text     # called once an item
    assert _n_after_the_first_move(loaded, lean) == (180, 180)


def test_the_items_a_filter_keeps_from_none_are_numbers():
    from tests.runtime_games import probe
    value = '"sum([maybe(v) for v in 1..6 if maybe(v) != none])"'
    loaded = load_game("probe.yaml", text=probe(f"      - set: {{n: {value}}}").replace("triggers: []", DEFINED))
    lean = LeanGame(loaded)
    assert "B_sum" not in _move_text(lean) and "sum(" in _move_text(lean)
    assert _n_after_the_first_move(loaded, lean) == (15, 15)


def test_a_seat_variable_a_comprehension_reads_for_each_item_is_read_once_before_it():
    from tests.runtime_games import probe
    game = probe('      - set: {n: "sum([marks[k] for k in [0, 1, 2] if marks[k] > 1])"}').replace(
        "  game: {n: 0, who: 0, nobody: none}", "  game: {n: 0, who: 0, nobody: none}\n  seat: {marks: [1, 2, 3]}")
    loaded = load_game("probe.yaml", text=game)
    lean = LeanGame(loaded)
    assert "for _marks" in _move_text(lean) and _move_text(lean).count("s.sv_marks[me]") == 1
    assert _n_after_the_first_move(loaded, lean) == (5, 5)


def _play_reference(loaded):
    state = loaded.new_state(None, 1)
    while not state.over:
        loaded.apply(state, loaded.legal_moves(state, state.current)[0], state.current)
    loaded.scores(state)


def _play_lean(lean):
    state = lean.new_state(None, 1)
    while not state.over:
        lean.step(state, lean.legal(state)[0])
    lean.scores(state)


def _logging_probe(letters: int) -> str:
    """The probe, its move logging a text of ``letters`` letters twice."""
    text = CASES["division by zero"].replace("nobody: none}", "nobody: none, word: ''}")
    return text.replace('      - set: {n: "1 // (n - n)"}\n', f"""\
      - set: {{word: "join(['abcdefghij' for i in 1..{letters // 10}], '')"}}
      - log: 'said {{word}} and {{word}}'
""")


@pytest.mark.parametrize("letters, fails", [(40_000, False), (60_000, True)])
def test_a_log_line_of_texts_is_measured_as_the_reference_measures_it(letters, fails):
    loaded = load_game("probe.yaml", text=_logging_probe(letters))
    expected = _outcome(lambda: _play_reference(loaded))
    assert (expected is not None) == fails
    if fails:
        assert "this line would be longer than 100000 characters" in expected
    assert _outcome(lambda: _play_lean(LeanGame(loaded))) == expected


def test_a_seat_that_is_none_where_a_turn_begins_fails_with_the_references_error():
    """A variable that holds a seat or none (here none) as the seat to begin the turns."""
    text = CASES["turns.from gives none"].replace("nobody: none}", "nobody: none, chosen: none}")
    text = text.replace("{from: nobody,", "{from: chosen,")
    text = text.replace("      - set: {n: 1}\n", "      - set: {chosen: me}\n")
    loaded = load_game("probe.yaml", text=text)
    lean = LeanGame(loaded)
    assert "s.current = (s.v_chosen) % s.players" in lean.program.source
    expected = _outcome(lambda: _play_reference(loaded))
    assert expected == """\
probe.yaml:15:21: error: expected a seat, got none
   15 |       turns: {from: chosen, each: once}
      |                     ^^^^^^
while the game was set up (round 1, phase 'play')"""
    assert _outcome(lambda: _play_lean(lean)) == expected


def test_the_probe_and_its_grid_are_generated():
    assert "_grid_put_at" in LeanGame(load_game("probe.yaml", text=CASES["a grid slot out of range"])).program.source


@pytest.mark.parametrize("case", sorted(SENT_TO_THE_REFERENCE))
def test_a_value_of_the_wrong_kind_sends_the_game_to_the_reference(case):
    with pytest.raises(Unsupported) as caught:
        LeanGame(load_game("probe.yaml", text=CASES[case]))
    assert caught.value.reason == SENT_TO_THE_REFERENCE[case]


# ------------------------------------------------------------------------------ work

UNBOUNDED = """
name: Pairs
players: {min: 2, max: 2}
variables:
  game: {xs: [], n: 0}
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      until: n >= 3
      moves: [grow]
moves:
  grow:
    do:
      - add: {xs: n}
      - set: {n: 'len([a + b for a in xs for b in xs]) + 1'}
      - end_turn
"""


def test_work_not_bounded_at_load_is_counted_as_it_runs():
    """Two loops over a list that may grow without bound: the reference stops such an evaluation
    at its budget; the lean engine counts the work of that one expression as it runs (from a
    full budget), and plays as the reference."""
    loaded = load_game("pairs.yaml", text=UNBOUNDED)
    lean = LeanGame(loaded)
    counted = [line.strip() for line in lean.program.text().splitlines() if "_fill()" in line]
    assert set(counted) == {"s.v_n = _fill() or len(_charged([_number(_a1 + _b2) for _a1 in _charged(s.v_xs) "
                            "for _b2 in _charged(s.v_xs)])) + 1"}
    assert lockstep(loaded, lean, None, 1) == 2


def test_work_not_bounded_in_a_for_effect_sends_the_game_to_the_reference():
    """A 'for' effect's turns share one budget: an evaluation in its body cannot count from a
    full one, so that game is not generated."""
    text = UNBOUNDED.replace("      - set: {n: 'len([a + b for a in xs for b in xs]) + 1'}\n",
                             "      - for: k in [1, 2]\n        do:\n"
                             "          - set: {n: 'len([a + b for a in xs for b in xs]) + k'}\n")
    with pytest.raises(Unsupported) as caught:
        LeanGame(load_game("pairs.yaml", text=text))
    assert caught.value.reason == ("the work of 'len([a + b for a in xs for b in xs]) + k' in a 'for' effect is not "
                                   "bounded within the budget at load (loops over lists whose length is not known)")


# Each move adds a thousand items to ``xs``, then loops over them and ``ys`` (``WIDTH`` items),
# making a list of five lists for each pair: the reference spends the pair's turn, the inner
# lists' fifteen items and the pair again in ``len`` (17); the lean engine also spends the outer
# list's five items (22).
HEAPS = UNBOUNDED.replace("name: Pairs", "name: Heaps").replace("{xs: [], n: 0}", "{xs: [], ys: [], n: 0}").replace(
    "      - add: {xs: n}\n      - set: {n: 'len([a + b for a in xs for b in xs]) + 1'}\n",
    "      - add: {xs: '1..1000'}\n      - set: {ys: '1..WIDTH'}\n"
    "      - set: {n: 'len([[[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 2, 3], [4, 5, 6]] for a in xs for b in ys])'}\n")


def test_an_evaluation_past_the_budget_fails_with_the_references_error():
    loaded = load_game("heaps.yaml", text=HEAPS.replace("WIDTH", "80"))     # 1000 + 17 * 80,000 steps
    expected = _outcome(lambda: _play_reference(loaded))
    assert expected is not None and "expression takes too many steps (limit 1000000)" in expected
    assert _outcome(lambda: _play_lean(LeanGame(loaded))) == expected


def test_where_only_the_lean_count_runs_out_the_game_goes_on_from_the_references_state(monkeypatch):
    """851,000 steps for the reference, 1,101,000 for the lean count: the reference plays the
    move, and the lean state becomes the reference's."""
    loaded = load_game("heaps.yaml", text=HEAPS.replace("WIDTH", "50"))
    lean = LeanGame(loaded)
    taken = []
    take_over = LeanGame._take_over
    monkeypatch.setattr(LeanGame, "_take_over", lambda self, state, ref: taken.append(ref.moves) or take_over(
        self, state, ref))
    assert lockstep(loaded, lean, None, 1) == 1
    assert taken == [1]
    state = lean.new_state(None, 1)
    lean.step(state, lean.legal(state)[0])
    assert lean.to_state(state).vars["n"] == 50_000
    assert state.over and state.hist == (None, 0) and state.origin == (2, 1)


def test_the_largest_of_several_numbers_is_no_loop():
    """``max(a, b)`` and ``min(a, b)`` are handed numbers, not a list to go through."""
    text = UNBOUNDED.replace("'len([a + b for a in xs for b in xs]) + 1'", "'max(n + 1, min(13, total(n)))'")
    text = text.replace("flow:", "define:\n  total(k): sum([x + k for x in xs])\nflow:")
    loaded = load_game("pairs.yaml", text=text)
    lockstep(loaded, LeanGame(loaded), None, 1)


def test_loops_over_lists_of_known_length_are_generated():
    text = UNBOUNDED.replace("- add: {xs: n}", "- set: {xs: '[n, n + 1, n + 2]'}")
    loaded = load_game("pairs.yaml", text=text)
    lockstep(loaded, LeanGame(loaded), None, 1)


@pytest.mark.parametrize("name, seeds", [("euchre", 4), ("gnoming_a_round_two_players", 1), ("liars_dice", 3)])
def test_a_guess_of_hidden_cards_is_the_references_card_for_card(name, seeds):
    loaded = load_game(GAMES / f"{name}.yaml")
    for seed in range(seeds):
        guesses_alike(loaded, LeanGame(loaded), None, seed)


def guesses_alike(loaded, lean: LeanGame, players: int | None, seed: int) -> None:
    """One random game through both engines, every seat's guess of each position compared with
    the reference's (the same cards dealt, the same cups thrown again, the same generator)."""
    from interpreter.bots.determinize import sample_state
    from interpreter.bots.lean_guess import guess
    ref, state, choose = loaded.new_state(players, seed), lean.new_state(players, seed), random.Random(seed)
    while not ref.over:
        for seat in range(ref.players):
            guessed = guess(lean, state, seat, seed + seat)
            assert lean.to_state(guessed) == sample_state(loaded.game, ref, seat, seed + seat)
            assert lean.to_state(state) == ref          # the guess changed nothing of the state it copied
        moves, actions = loaded.legal_moves(ref, ref.current), lean.legal(state)
        pick = choose.randrange(len(moves))
        loaded.apply(ref, moves[pick], ref.current)
        lean.step(state, actions[pick])


# ------------------------------------------------------------------------------ dice per seat

# Three dice in each seat's cup, thrown at every round's start: a seat throws its own cup again
# (all of it, or the dice it chooses), or the next seat's (named by a number, taken round the
# table), or shows its cup, or the cups of seat 0 and of a number past the last seat.
CUPS = """
name: Cups
players: {min: 2, max: 4, default: 3}
dice: {count: 3, faces: 4, per: seat, visible_to: owner, sorted: false}
variables:
  game: {throws: 0}
  seat: {best: 0}
flow:
  rounds: 3
  round_start:
    - for: p in players
      do:
        - roll: p.dice
          of: p
  phases:
    - name: play
      turns: {from: 0, each: once}
      moves: [again, some, next, show, show_all, keep]
moves:
  again:
    do:
      - roll: dice
      - add: {throws: 1}
      - end_turn
  some:
    params:
      chosen: {subset_of: dice}
    do:
      - roll: chosen
      - end_turn
  next:
    do:
      - roll: 'players[(me.index + 1) % player_count].dice'
        of: 'me.index + 1'
      - end_turn
  show:
    do:
      - reveal_dice: me
      - set: {best: 'max(dice)'}
      - end_turn
  show_all:
    do:
      - reveal_dice: '[0, player_count + 1]'
      - end_turn
  keep:
    do: [end_turn]
scoring:
  score: 'sum(dice) + best + len([p for p in players if p.dice[0] > 2])'
"""
CUP_KINDS = {"owner, unsorted": {}, "nobody's, sorted": {"visible_to: owner": "visible_to: none", "false": "true"},
             "everyone's": {"visible_to: owner": "visible_to: all"}}


def _cups(changes: dict | None = None, text: str = CUPS):
    for old, new in (changes or {}).items():
        text = text.replace(old, new)
    return load_game("cups.yaml", text=text)


@pytest.mark.parametrize("kind", sorted(CUP_KINDS))
def test_cups_play_and_are_guessed_as_the_references(kind):
    loaded = _cups(CUP_KINDS[kind])
    lean = LeanGame(loaded)
    assert "_roll_cup(" in lean.program.source and "_reveal_dice(" in lean.program.source
    for players in (2, 3, 4):
        for seed in range(6):
            lockstep(loaded, lean, players, seed)
            guesses_alike(loaded, lean, players, seed)


def test_liars_dice_runs_on_the_lean_engine():
    from interpreter.api import lean_reason
    assert lean_reason(load_game(GAMES / "liars_dice.yaml")) is None


def test_a_thrown_cup_is_a_new_list_and_a_clone_keeps_its_own():
    lean = LeanGame(_cups())
    state = lean.new_state(3, 2)
    lean.step(state, _action(lean, state, "show"))      # P1 shows its cup
    copy = lean.clone(state)
    cups, before = state.dice[:], lean.to_state(state)
    lean.step(copy, _action(lean, copy, "again"))       # P2 throws its own cup in the copy
    assert lean.to_state(state) == before and all(a is b for a, b in zip(state.dice, cups))
    assert copy.dice[1] is not state.dice[1] and copy.dice[0] is state.dice[0]
    lean.step(copy, _action(lean, copy, "next"))        # P3 throws P1's cup: no longer shown
    assert (state.dice_shown, copy.dice_shown) == ([0], [])
    again = lean.from_state(lean.to_state(copy))
    assert lean.to_state(again) == lean.to_state(copy) and again.dice[0] is not copy.dice[0]


def _action(lean: LeanGame, state, text: str) -> int:
    return next(a for a in lean.legal(state) if lean.action_text(a) == text)


@pytest.mark.parametrize("effect, message", [
    ("      - roll: 5", "roll: no die shows 5"),
    ("      - roll: dice\n        of: 'if throws > 9 then 1 else true'", "roll: 'of' must be a seat, not true"),
    ("      - reveal_dice: '[me, none]'", "reveal_dice must be a seat, not none"),
])
def test_a_dice_effect_that_fails_fails_with_the_references_error(effect, message):
    loaded = _cups(text=CUPS.replace("      - add: {throws: 1}\n", effect + "\n"))
    expected = _outcome(lambda: _play_reference(loaded))
    assert message in expected
    assert _outcome(lambda: _play_lean(LeanGame(loaded))) == expected


def test_a_move_that_fails_in_a_guess_fails_with_the_references_error():
    """The guess remembers how the reference would make it, to replay a failure exactly."""
    from interpreter.bots.lean_guess import guess
    loaded = load_game("probe.yaml", text=CASES["division by zero"])
    lean = LeanGame(loaded)
    state = lean.new_state(None, 1)
    guessed = guess(lean, state, state.current, 7)
    with pytest.raises(RulesError) as caught:
        lean.step(guessed, lean.legal(guessed)[0])
    assert caught.value.message == "division by zero"


# ------------------------------------------------------------------------------ rules show

def test_rules_show_names_the_engine_and_prints_the_generated_module():
    import ast

    from click.testing import CliRunner

    from cli import main
    runner = CliRunner()
    shown = runner.invoke(main, ["show", "euchre"])
    assert shown.exit_code == 0
    assert shown.output.splitlines()[-1] == ("engine: lean (a module generated for this game: rules show --generated "
                                             "prints it)")
    dou_dizhu = runner.invoke(main, ["show", "dou_dizhu"])
    assert dou_dizhu.output.splitlines()[-1] == (
        "engine: lean (a module generated for this game: rules show --generated prints it); the work of 3 expressions "
        "is counted as it runs, not bounded at load: '[chars(c) for c in playable_combos]', "
        "'cards_of(join(combo, \"\"))', 'is_bomb(join(combo, \"\"))'")
    gnoming = runner.invoke(main, ["show", "gnoming_a_round"])
    assert gnoming.output.splitlines()[-1] == ("engine: lean (a module generated for this game: rules show --generated "
                                               "prints it)")
    generated = runner.invoke(main, ["show", "euchre", "--generated"])
    assert generated.exit_code == 0
    assert generated.output.startswith("# Euchre: the lean engine's module. Its constants:\n#   K0 = 'clubs'\n")
    tree = ast.parse(generated.output)
    names = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert {"State", "new_state", "clone", "legal", "step", "settle", "scores", "hint"} <= names
    # The engine's face calls step and legal with their guards written in: the same bodies in a try.
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for name, arguments in (("step", "s, a, me"), ("legal", "s, me")):
        guarded = functions[f"guarded_{name}"].body[0]
        assert [ast.dump(node) for node in guarded.body] == [ast.dump(node) for node in functions[name].body]
        assert ast.unparse(guarded.handlers[0]) == f"except Exception:\n    return _failed_{name}({arguments})"
    both = runner.invoke(main, ["show", "euchre", "--generated", "--resolved"])
    assert both.exit_code == 2 and "give --resolved or --generated, not both" in both.output


def test_a_bot_playing_a_move_whose_lean_count_runs_out_has_the_reference_play_it():
    """The bots step the lean module's bare ``step``: there too the reference plays the move."""
    from interpreter.bots.ops import lean_ops
    loaded = load_game("heaps.yaml", text=HEAPS.replace("WIDTH", "50"))
    lean = LeanGame(loaded)
    ops = lean_ops(lean)
    world = lean.new_state(None, 1)
    ops.play(world, ops.legal(world)[0])
    reference = loaded.new_state(None, 1)
    loaded.apply(reference, loaded.legal_moves(reference, 0)[0], 0)
    assert lean.to_state(world) == reference and reference.vars["n"] == 50_000


def _lowered_budget(monkeypatch, limit: int) -> None:
    """The work budget of an evaluation lowered to ``limit``, in both engines (and the lean module
    written afresh: the kept one was written for the usual budget)."""
    import interpreter.limits
    from interpreter.engine import effects, legal
    from interpreter.lean import budget, module, work
    monkeypatch.setenv("RULES_NO_CACHE", "1")
    for holder in (interpreter.limits, effects, legal, budget, module, work):
        monkeypatch.setattr(holder, "MAX_EVAL_STEPS", limit)


def _random_play(play_to_end):
    try:
        return play_to_end()
    except RulesError as error:
        return error.render()


@pytest.mark.parametrize("limit, fails", [(1000, [True, True, True]), (5000, [False, True, True]),
                                          (10_000, [False, False, False])])
def test_the_lean_count_of_work_is_never_below_the_references(monkeypatch, limit, fails):
    """Dou dizhu's combinations of a hand count their work as they run. With the budget lowered,
    each game whose reference runs out of it fails on the lean engine at the same move with the
    same error (at 5000 steps, two games at different places); the others end with the same
    scores, never handed to the reference."""
    _lowered_budget(monkeypatch, limit)
    loaded = load_game(GAMES / "dou_dizhu.yaml")
    lean = LeanGame(loaded)
    taken = []
    take_over = LeanGame._take_over
    monkeypatch.setattr(LeanGame, "_take_over", lambda self, state, ref: taken.append(ref.moves) or take_over(
        self, state, ref))

    def reference(seed):
        state, choose = loaded.new_state(None, seed), random.Random(seed)
        while not state.over:
            moves = loaded.legal_moves(state, state.current)
            loaded.apply(state, moves[choose.randrange(len(moves))], state.current)
        return state.moves, loaded.scores(state)

    def on_lean(seed):
        state, choose = lean.new_state(None, seed), random.Random(seed)
        while not state.over:
            actions = lean.legal(state)
            lean.step(state, actions[choose.randrange(len(actions))])
        return state.moves, lean.scores(state)

    outcomes = [_random_play(lambda: reference(seed)) for seed in range(3)]
    assert [isinstance(expected, str) for expected in outcomes] == fails
    assert [_random_play(lambda: on_lean(seed)) for seed in range(3)] == outcomes
    assert taken == []


def test_nerts_with_jokers_counts_the_work_it_cannot_bound_with_seven_or_eight_seats():
    """Nerts with jokers and 7 or 8 seats could loop past the budget by its bounds (a run with a
    joker is checked card by card): those expressions count their work as they run."""
    loaded = load_game(GAMES / "nerts.yaml", {"jokers": "true"})
    lean = LeanGame(loaded)
    # in ``settle``, and in the first turn of the settling and its loop of ``step`` and ``guarded_step``
    assert lean.program.text().count("if _fill() or (not s.v_hand_over and _all") == 5
    assert lockstep(loaded, lean, 8, 0, most=600) == 600


def test_a_branch_an_option_turns_off_counts_nothing_in_the_bound_of_work():
    """Without jokers, Nerts's 'wild(a, b)' ('jokers and ...') is false at load: the runs of
    cards it would check are never checked, so every table up to 8 seats runs on the lean
    engine, and plays as the reference."""
    from interpreter.lean.module import Module
    bounds = {}
    for jokers in ("false", "true"):
        module = Module(load_game(GAMES / "nerts.yaml", {"jokers": jokers}).game)
        tree = module.parse("not hand_over and all(stuck(p) for p in layouts)")
        bounds[jokers] = [module.budgets[players].of(tree, {}) for players in (2, 8)]
        assert [module.budgets[8].known(module.parse(text), {}) for text in ("jokers", "not jokers or partnered",
                                                                              "wild(p, q)", "partnered and jokers")] \
            == ([False, True, False, False] if jokers == "false" else [True, False, None, False])
    assert bounds == {"false": [5738, 79382], "true": [97850, 1533590]}
    loaded = load_game(GAMES / "nerts.yaml")
    lean = LeanGame(loaded)
    assert "_fill()" not in lean.program.text()
    assert lockstep(loaded, lean, 8, 0) > 1000


def test_a_move_that_fails_in_free_play_fails_with_the_references_error():
    """The seats that moved are replayed with their moves: here P2, P1, then P2 again fails."""
    text = CASES["division by zero"].replace("      turns: {from: who, each: once}\n", "")
    text = text.replace('      - set: {n: "1 // (n - n)"}\n      - end_turn\n',
                        '      - add: {n: 1}\n      - set: {who: "1 // (3 - n)"}\n')
    loaded = load_game("probe.yaml", text=text)
    lean = LeanGame(loaded)
    assert lean.free_play

    def play(apply, legal, state):
        for seat in (1, 0, 1):
            apply(state, legal(state, seat)[0], seat)

    expected = _outcome(lambda: play(loaded.apply, loaded.legal_moves, loaded.new_state(None, 1)))
    assert expected == """\
probe.yaml:20:21: error: division by zero
   20 |       - set: {who: "1 // (3 - n)"}
      |                     ^^^^^^^^^^^^
while P2 played 'poke' (move 3; round 1, phase 'play')"""
    assert _outcome(lambda: play(lean.step, lean.legal, lean.new_state(None, 1))) == expected


# Interrupts: the bell of tests/test_grids.py, and a version in which seats doze off and wake up
# (a seat asleep has no move in an interrupt: it is skipped).
DOZING = BELL.replace("      moves: [ring, answer, ignore, echo]", "      moves: [ring, doze, answer, ignore, echo]") \
    .replace("moves:\n  ring:", "moves:\n  doze:\n    when: ringing == 0\n    do:\n      - set: {asleep: not asleep}\n"
             "      - end_turn\n  ring:")


@pytest.mark.parametrize("text", [BELL, DOZING], ids=["bell", "dozing"])
def test_interrupts_play_as_the_references(text):
    loaded = load_game("bell.yaml", text=text)
    lean = LeanGame(loaded)
    for players in (3, 4):
        for seed in range(12):
            lockstep(loaded, lean, players, seed)
    assert "intr_advance" in lean.program.source
    state = lean.new_state(3, 0)
    lean.step(state, lean.legal(state)[0])          # P1 rings: P2 answers first
    assert (state.current, [lean.action_text(a) for a in lean.legal(state)]) == (1, ["answer", "ignore", "echo"])
    assert lean.to_state(state).vars["$interrupts"] == [
        {"seats": [1, 2], "moves": ["answer", "ignore", "echo"], "resume": 0, "after": ["end_turn"], "acting": True}]
    again = lean.from_state(lean.to_state(state))
    assert again.intr == state.intr and again.intr[0][0] is not state.intr[0][0]
    copy = lean.clone(state)
    lean.step(copy, lean.legal(copy)[0])
    assert state.intr[0][0] == [1, 2] and copy.intr[0][0] == [2]


def test_a_seat_with_no_move_in_an_interrupt_is_skipped():
    lean = LeanGame(load_game("bell.yaml", text=DOZING))
    state = lean.new_state(3, 0)

    def play(text):
        lean.step(state, next(a for a in lean.legal(state) if lean.action_text(a) == text))
    play("doze")                # P1 falls asleep; P2 rings: P3 answers, P1 asleep has no move
    play("ring")
    play("answer")
    assert (state.current, state.intr) == (2, None)


def test_an_interrupt_of_no_seat_fails_with_the_references_error():
    text = BELL.replace("      - interrupt: players[0]", "      - interrupt: 'if heard != [] then none else players[0]'")
    loaded = load_game("bell.yaml", text=text)
    lean = LeanGame(loaded)

    def play(apply, legal, state):
        apply(state, legal(state)[0])           # ring
        apply(state, legal(state)[2])           # echo, with P2 heard

    expected = _outcome(lambda: play(loaded.apply, loaded.legal_moves, loaded.new_state(3, 0)))
    assert expected.splitlines()[0] == "bell.yaml:36:9: error: interrupt: expected seats, got none"
    assert _outcome(lambda: play(lean.step, lean.legal, lean.new_state(3, 0))) == expected


@pytest.mark.parametrize("expression, players, most", [
    ("everything", 3, 162),                                     # every pile of every zone, once: every card
    ("everything", 8, 432),
    ("flatten([p.stock.cards for p in players])", 3, 162),      # each seat's own pile
    ("box.cards + box.cards", 3, 324),                          # a pile met twice: its cards twice
    ("flatten([completed.cards for p in players])", 3, 486),    # the same pile in every turn of the loop
    ("range(0, len(box.cards))", 3, 162),
    ("foundations", 3, 12),                                     # piles: (if jokers then 6 else 4) * player_count
    ("me.work", 3, 4),
])
def test_the_most_items_a_list_may_hold_follow_the_game_and_its_players(expression, players, most):
    from interpreter.lean.module import Module
    module = Module(load_game(GAMES / "nerts.yaml").game)
    assert module.budgets[players].size(module.parse(expression), {}) == most


def test_a_zone_per_team_read_through_each_seat_may_hold_its_cards_twice():
    """Partners share their team's pile: the seats' piles are not different piles."""
    from interpreter.lean.module import Module
    module = Module(load_game(GAMES / "euchre.yaml").game)
    assert module.budgets[4].size(module.parse("flatten([p.won.cards for p in players])"), {}) == 4 * 24
    assert module.budgets[4].size(module.parse("flatten([p.hand.cards for p in players])"), {}) == 24


def test_an_option_known_at_load_is_written_as_the_branch_it_takes():
    """Nerts's partnerships: the layout a seat plays is its partner's only with the option on."""
    alone = LeanGame(load_game(GAMES / "nerts.yaml")).program.source
    paired = LeanGame(load_game(GAMES / "nerts.yaml", {"partnerships": "true"})).program.source
    assert "(me - (me % 2))" not in alone and "(me - (me % 2))" in paired
    assert "if False" not in alone and "False and" not in alone and "False or" not in alone


FOR_IN_SETUP = """
name: Chips set in the setup
players: {min: 2, max: 4}
variables:
  seat: {chips: 0}
setup:
  - for: p in players
    do:
      - set: {chips: 3 + p.index}
        of: p
flow:
  rounds: 1
  phases:
    - name: turns
      turns: {from: 0}
      moves: [pay]
      until: 'any(p.chips == 0 for p in players)'
moves:
  pay:
    do:
      - add: {chips: -1}
      - end_turn
scoring:
  score: chips
"""


def test_a_for_effect_in_the_setup_is_generated():
    loaded = load_game("chips.yaml", text=FOR_IN_SETUP)
    lean = LeanGame(loaded)
    assert "_turns = [100000]" in lean.program.source.split("def new_state")[1].split("\ndef ")[0]
    for players in (2, 3, 4):
        assert lean.to_state(lean.new_state(players, 0)).seat_vars == [{"chips": 3 + p} for p in range(players)]
        assert lockstep(loaded, lean, players, 0) == 2 * players + 1      # until P1's third payment


# A seat variable set 'of' a seat chosen only by a move (none until then): generated all the same.
CHOSEN_LATER = """\
name: Chosen later
players: {min: 2, max: 2}
variables:
  game: {leader: none}
  seat: {points: 0}
flow:
  rounds: 2
  round_end:
    - if: CONDITION
      then:
        - set: {points: 'leader.points + 1'}
          of: leader
  phases:
    - name: pick
      turns: {from: 0, each: once}
      moves: [lead, wait]
moves:
  lead:
    when: leader == none
    do:
      - set: {leader: me}
      - end_turn
  wait:
    do: [end_turn]
scoring:
  score: points
"""


def test_a_variable_set_of_a_seat_that_starts_as_none_is_generated():
    loaded = load_game("chosen.yaml", text=CHOSEN_LATER.replace("CONDITION", "leader != none"))
    lean = LeanGame(loaded)
    for seed in range(6):
        lockstep(loaded, lean, None, seed)


def test_a_variable_set_of_none_fails_with_the_references_error():
    loaded = load_game("chosen.yaml", text=CHOSEN_LATER.replace("CONDITION", "true").replace("[lead, wait]", "[wait]"))
    expected = _outcome(lambda: _play_reference(loaded))
    assert expected is not None and "none" in expected
    assert _outcome(lambda: _play_lean(LeanGame(loaded))) == expected


def test_an_expression_of_a_seat_that_starts_as_none_is_generated():
    """``who`` is none until a move sets it: the first pass sees only none, a later one a seat."""
    text = CHOSEN_LATER.replace("variables:\n", "decks:\n  main: {standard: true, zone: stock}\nzones:\n"
                                "  stock: {face: down}\n  hand: {per: seat}\nvariables:\n")
    text = text.replace("{points: 'leader.points + 1'}",
                        "{points: 'len(leader.hand.cards + leader.hand.cards + stock.cards)'}")
    loaded = load_game("chosen.yaml", text=text.replace("CONDITION", "leader != none"))
    lean = LeanGame(loaded)
    for seed in range(4):
        lockstep(loaded, lean, None, seed)


# Cards of whole piles joined and moved at once: each pile emptied, its cards after the other's.
WHOLE_PILES = """\
name: Whole piles
players: {min: 2, max: 3}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  pile: {}
  hand: {per: seat, visible_to: owner}
  kept: {per: seat}
setup:
  - shuffle: stock
  - deal: 4
    from: stock
    to: hand
flow:
  rounds: 3
  phases:
    - name: play
      turns: {from: 0, each: once}
      moves: [keep, gather, stack, sweep]
moves:
  keep:
    params: {card: {from: hand.cards}}
    do:
      - move: card
        to: kept
      - move: stock.top
        to: hand
      - end_turn
  gather:
    do:
      - move: hand.cards + kept.cards
        to: hand
      - end_turn
  stack:
    do:
      - move: kept.cards + hand.cards
        to: kept
        at: bottom
      - end_turn
  sweep:
    do:
      - move: hand.cards + pile.cards + kept.cards
        to: pile
        face: down
      - move: stock.top
        to: hand
      - end_turn
scoring:
  score: kept.size
"""


def test_the_cards_of_whole_piles_joined_are_moved_at_once_as_one_by_one():
    loaded = load_game("whole.yaml", text=WHOLE_PILES)
    lean = LeanGame(loaded)
    gather_and_stack = lean.program.source.split("\ndef m_1(")[1].split("\ndef m_3(")[0]
    assert "_lift" not in gather_and_stack and gather_and_stack.count(".clear()") == 4
    for players in (2, 3):
        for seed in range(20):
            lockstep(loaded, lean, players, seed)


def test_a_definition_the_hint_calls_twice_with_the_same_arguments_is_worked_out_once():
    """Dice poker's hint asks 'filled(sheet)' of the same sheet in three places of one
    evaluation (and of the other sheet once): the lean module works each out once a hint, and
    gives the reference's value."""
    loaded = load_game(GAMES / "dice_poker.yaml")
    lean = LeanGame(loaded)
    namespace = lean.program.namespace
    filled = next(name for name in namespace if name.startswith("d_filled"))
    calls = []
    worked_out = namespace[filled]
    namespace[filled] = lambda *args: calls.append(args) or worked_out(*args)
    ref, state = loaded.new_state(2, 3), lean.new_state(2, 3)
    for _ in range(12):
        seat = ref.current
        calls.clear()
        assert lean.hint(state, seat) == evaluate_hint(loaded.game, ref, seat)
        assert len(calls) == len({(me, id(of)) for _, me, of in calls}) == 2
        action = lean.legal(state)[0]
        loaded.apply(ref, lean.action_text(action), seat)
        lean.step(state, action)


def test_greedy_bots_in_free_play_decide_on_the_lean_engine_as_on_the_reference(monkeypatch):
    """In free play a greedy bot plays each of its moves on guesses for its own seat: on the lean
    engine it names the seat, and decides as on the reference, move for move."""
    from click.testing import CliRunner

    from cli import main
    from interpreter.tools import playout
    played_lean = []
    monkeypatch.setattr(playout, "play_lean", lambda *args: played_lean.append(args[3]) or PLAY_LEAN(*args))
    reports = []
    for engine in ("lean", "reference"):
        result = CliRunner().invoke(main, ["simulate", str(GAMES / "nerts.yaml"), "-n", "1", "-p", "2", "--seed", "3",
                                           "--bots", "greedy", "--json", "--engine", engine])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        report.pop("timing")
        reports.append(report)
    assert played_lean == [0] and reports[0] == reports[1] and reports[0]["games"]["finished"] == 1


def test_a_greedy_bot_at_a_free_play_table_decides_on_the_lean_engine_as_on_the_reference():
    """At a table in free play a greedy bot's decision is made on the lean state equal to the
    table's, for the seat its moves name: the same move as weighed on the reference's state."""
    from interpreter.bots import ops as bot_ops
    from interpreter.bots.agents import GreedyBot
    loaded = load_game(GAMES / "nerts.yaml")
    state, choose = loaded.new_state(3, 5), random.Random(5)
    lean_decisions = []
    made = bot_ops.lean_ops
    compared = 0
    for turn in range(200):
        seat = choose.choice(loaded.acting_seats(state))
        moves = loaded.legal_moves(state, seat)
        if turn % 8 == 0 and len(moves) > 1:
            on_lean = GreedyBot(loaded.game, seat, seed=turn)
            bot_ops.lean_ops = lambda lean: lean_decisions.append(seat) or made(lean)
            try:
                chosen = on_lean.decide(state, moves)
            finally:
                bot_ops.lean_ops = made
            on_reference = GreedyBot(loaded.game, seat, seed=turn)
            assert chosen.text == on_reference._greedy(bot_ops.ReferenceOps(loaded.game), state, moves).text
            compared += 1
        loaded.apply(state, moves[choose.randrange(len(moves))], seat)
    assert compared >= 8 and len(lean_decisions) == compared


def function_source(lean: LeanGame, name: str) -> str:
    """The source of the module's function ``name`` (up to the blank line after it)."""
    return "def " + lean.program.source.split(f"\ndef {name}(")[1].split("\n\n")[0]


def test_a_move_that_ends_the_turn_passes_it_itself_and_lists_a_hand_as_it_is():
    lean = LeanGame(load_game(FLOOR))
    assert function_source(lean, "m_0").splitlines()[-3:] == [
        "    s.up[p_card] = 1", "    s.turns += 1", "    s.current = (s.current + 1) % s.players"]
    step = function_source(lean, "step")
    # the turn passed was the first settling step; the next is written out, then the loop of the rest
    assert "    s.moves += 1\n    while True:\n        if s.over:\n            return\n" in step
    assert "            end_phase(s, me, sig)\n            break\n        return\n    for _ in range(998):\n" in step
    assert "    s.hist = (s.hist, a)\n    p_card = a\n" in step and "m_0(" not in step     # the one move made in step
    # it raises no signal: the list of them is made where the settling goes on
    assert "        if (not any(s.z_hand)):\n            sig = []\n            end_phase(s, me, sig)\n            break\n" in step
    settle = function_source(lean, "settle")
    assert "        if (not any(s.z_hand)):\n" in settle and "ph = " not in settle     # the one phase: not asked
    assert function_source(lean, "legal").splitlines()[-1] == "    return [*s.z_hand[me]]"     # no list made before


CASCADE = """\
name: Cascade
players: {min: 2, max: 2}
variables:
  game: {n: 0}
flow:
  rounds: ROUNDS
  max_rounds: 5000
  phases:
    - name: play
      turns: {from: 0}
      until: n > 0
      moves: [poke]
moves:
  poke:
    do:
      - set: {n: 1}
      - end_turn
scoring:
  score: n
"""


@pytest.mark.parametrize("rounds, settles", [(998, True), (999, False)])
def test_a_turn_passed_in_the_move_counts_against_the_settling_limit(rounds, settles):
    """The first poke ends every round at once, each a step of settling after the turn passed:
    998 rounds settle within the 1000 steps, 999 do not, on both engines."""
    loaded = load_game("cascade.yaml", text=CASCADE.replace("ROUNDS", str(rounds)))
    lean = LeanGame(loaded)
    # the first of the 1000 steps is the turn passed, the next written out before the loop of the rest
    assert "CASCADE" not in lean.program.source and "range(998)" in function_source(lean, "step")
    ref, state = loaded.new_state(seed=0), lean.new_state(seed=0)
    outcomes = []
    for play in (lambda: loaded.apply(ref, loaded.legal_moves(ref)[0]),
                 lambda: lean.step(state, lean.legal(state, state.current)[0])):
        try:
            play()
            outcomes.append("settled")
        except RulesError as error:
            outcomes.append(str(error).splitlines()[0])
    expected = "settled" if settles else ("error: the game did not settle after 1000 automatic steps "
                                          "(a trigger whose effects do not make its condition false?)")
    assert outcomes == [expected, expected]
    if settles:
        assert lean.to_state(state) == ref and ref.over and ref.round == rounds


def test_moves_that_pass_the_turn_themselves_and_others_settle_alike():
    lean = LeanGame(load_game(GAMES / "euchre.yaml"))
    assert "CASCADE = (999, 999, 999, 999, 999, 999, 998)" in lean.program.source
    assert "    for _ in range(CASCADE[move]):" in function_source(lean, "step")


@pytest.mark.parametrize("until, written", [
    ("all(p.hand.empty for p in players)", "(not any(s.z_hand))"),
    ("any(p.hand.empty for p in players)", "(not all(s.z_hand))"),
    ("not any(not p.hand.empty for p in players)", "(not any(s.z_hand))"),
    ("not all(not p.hand.empty for p in players)", "(not all(s.z_hand))"),
    ("all(p.hand.empty for p in players if p.index > 0)", "_all"),      # not every seat: a loop of its own
])
def test_whether_every_or_any_seat_s_pile_is_empty_is_asked_of_the_piles_at_once(until, written):
    text = FLOOR.read_text(encoding="utf-8").replace("rounds: 30", "rounds: 3")
    loaded = load_game("floor.yaml", text=text.replace("all(p.hand.empty for p in players)", until))
    lean = LeanGame(loaded)
    assert f"        if {written}" in function_source(lean, "settle")
    every_hand = "all(p.hand.empty" in until or "any(not" in until
    assert lockstep(loaded, lean, None, 0) == (3 * 36 if every_hand else 3 * 31)     # seat 0 plays its sixth card 31st
