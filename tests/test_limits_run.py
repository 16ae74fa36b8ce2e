"""Bounded work while a game runs: inputs that used to hang or exhaust memory stop with a limit
error that names its place (exact messages, rendered as the command line shows them), the same on
every engine (``engine``: the lean engine's errors are the reference's, played again)."""
from __future__ import annotations

import pytest

from interpreter.api import load_game
from interpreter.engine import effects
from interpreter.errors import LimitError
from interpreter.expr import Scope, compile_expression
from interpreter.expr.runtime import STEPS
from interpreter.lean import lean_game

#  1 name: G
#  2 players: {min: 2, max: 2}
#  3 decks:
#  4   main: {standard: true, zone: stock}
#  5 zones:
#  6   stock: {face: down}
#  7   hand: {per: seat, visible_to: owner}
#  8 variables:
#  9   game:
# 10     x: 0
# 11     a: [1]
# 12     m: {}
# 13 flow:
# 14   rounds: 1
# 15   phases:
# 16     - name: play
# 17       turns: {from: 0}
# 18       moves: [go]
# 19 setup:
BASE = """\
name: G
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
variables:
  game:
    x: 0
    a: [1]
    m: {}
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [go]
setup:
"""
GO = """\
moves:
  go:
    do: [end_game]
"""


def started(text: str, engine: str) -> tuple:
    """The game, its lean engine (on ``lean``, where it generates the game: else None, and the
    reference plays, as the commands choose) and its state after set-up."""
    game = load_game("g.yaml", text=text)
    lean = lean_game(game) if engine == "lean" else None
    return game, lean, lean.new_state(seed=0) if lean else game.new_state(seed=0)


def limit_at_start(setup: str, moves: str = GO, engine: str = "reference") -> str:
    """The limit error of starting the game with these setup effects, rendered."""
    with pytest.raises(LimitError) as caught:
        started(BASE + setup + moves, engine)
    return caught.value.render()


def test_nested_for_effects_share_one_budget(engine):
    # Lists known only at run time (x is 0); with lists known at load, validate says it (test_limits_load).
    setup = """\
  - for: i in 1..1000 + x
    do:
      - for: j in 1..1000 + x
        do:
          - for: k in 1..1000 + x
            do:
              - add: {x: 0}
"""
    assert limit_at_start(setup, engine=engine) == """\
g.yaml:24:18: error: these loops take more than 100000 turns
   24 |           - for: k in 1..1000 + x
      |                  ^^^^^^^^^^^^^^^^
while the game was set up (before the first round)
hint: loop over fewer items, or nest fewer loops"""


def test_the_expressions_in_a_loop_spend_the_loop_budget(engine):
    setup = """\
  - for: i in 1..1000 + x
    do:
      - set: {x: 'sum(k for k in 1..10000) * 0'}
"""
    assert limit_at_start(setup, engine=engine) == """\
g.yaml:22:19: error: expression takes too many steps (limit 1000000)
   22 |       - set: {x: 'sum(k for k in 1..10000) * 0'}
      |                   ^^^^^^^^^^^^^^^^^^^^^^^^
while the game was set up (before the first round)
hint: loop over fewer items, or split the work"""


def test_a_variable_that_doubles_by_sharing_itself_stops_at_its_limit(engine):
    setup = "  - set: {a: 'range(0, 1000)'}\n" + "".join("  - set: {a: '[a, a]'}\n" for _ in range(40))
    assert limit_at_start(setup, engine=engine) == """\
g.yaml:27:11: error: a would hold more than 100000 items (counting those of the lists and maps inside it)
   27 |   - set: {a: '[a, a]'}
      |           ^
while the game was set up (before the first round)
hint: keep fewer values, or a count of them"""


def test_a_variable_that_doubles_by_adding_itself_stops_at_its_limit(engine):
    setup = "  - for: i in 1..60\n    do:\n      - add: {a: a}\n"
    assert limit_at_start(setup, engine=engine) == """\
g.yaml:22:15: error: a would hold more than 100000 items (counting those of the lists and maps inside it)
   22 |       - add: {a: a}
      |               ^
while the game was set up (before the first round)
hint: keep fewer values, or a count of them"""


def test_a_map_in_a_variable_holds_at_most_the_limit_of_keys(monkeypatch):
    monkeypatch.setattr(effects, "MAX_COLLECTION", 10)
    setup = "  - for: i in 1..10\n    do:\n      - set: {'m[i]': 1}\n      - set: {'m[-i]': 1}\n"
    assert limit_at_start(setup).splitlines()[0] == (
        "g.yaml:22:15: error: cannot set m[i]: m already holds 10 keys")


def listing_error(params: str, engine: str, when: str = "") -> str:
    moves = f"moves:\n  go:\n    params:\n{params}{when}    do: [end_game]\n"
    game, lean, state = started(BASE + "  - set: {x: 1}\n" + moves, engine)
    with pytest.raises(LimitError) as caught:
        lean.legal(state, state.current) if lean else game.legal_moves(state)
    return caught.value.render()


def test_parameters_whose_product_explodes_stop_the_listing(engine):
    # Each list is counted as it is made: the first list of the third parameter is one too many.
    params = ("      a: {from: 'range(0, 1000 * x)'}\n      b: {from: 'range(0, 1000 * x)'}\n"
              "      c: {from: 'range(0, 100000 * x)'}\n")
    assert listing_error(params, engine) == """\
g.yaml:26:18: error: the parameters of move 'go' give more than 100000 choices
   26 |       c: {from: 'range(0, 100000 * x)'}
      |                  ^^^^^^^^^^^^^^^^^^^^
while the legal moves of P1 were listed (before the first move; round 1, phase 'play')
hint: draw from shorter lists, use fewer parameters, or check each choice in 'when' sooner"""


def test_sub_collections_are_counted_before_they_are_made(engine):
    assert listing_error("      cards: {subset_of: stock.cards}\n", engine) == """\
g.yaml:24:26: error: the parameters of move 'go' give more than 100000 choices
   24 |       cards: {subset_of: stock.cards}
      |                          ^^^^^^^^^^^
while the legal moves of P1 were listed (before the first move; round 1, phase 'play')
hint: draw from shorter lists, use fewer parameters, or check each choice in 'when' sooner"""


def test_a_condition_on_the_first_parameter_keeps_the_listing_small():
    moves = ("moves:\n  go:\n    params:\n      a: {from: 1..1000}\n      b: {from: 1..1000}\n"
             "    when: a == 3 and b == 4\n    do: [end_game]\n")
    game = load_game("g.yaml", text=BASE + "  - set: {x: 1}\n" + moves)
    assert [m.text for m in game.legal_moves(game.new_state(seed=0))] == ["go 3 4"]


# Lists and strings an expression makes spend their size from its work budget: a loop cannot make
# many large ones in few steps (each of these used to build 10**10 items, or run out of memory).
SIZED = [
    ("[1..100000 for i in 1..100000]", 2, 9),
    ("[range(0, 100000) for i in 1..100000]", 2, 16),
    ("[s + s for s in [str(1..5000)] for i in 1..100000]", 2, 5),
    ("[x[1:] for x in [1..100000] for i in 1..100000]", 2, 5),
]


@pytest.mark.parametrize("text, col, width", SIZED, ids=[c[0] for c in SIZED])
def test_the_lists_and_strings_an_expression_makes_spend_their_size(text, col, width):
    compiled = compile_expression(text, Scope())
    with pytest.raises(LimitError) as caught:
        compiled(None)
    error = caught.value
    assert (error.message, error.pos.col, error.pos.width) == (
        "expression takes too many steps (limit 1000000)", col, width)


def steps_spent(text: str) -> int:
    """The work an expression spends from a budget handed in (as a 'for' effect hands its own)."""
    budget = [1000]
    compile_expression(text, Scope()).fn(None, {STEPS: budget})
    return 1000 - budget[0]


def test_a_constant_list_a_loop_goes_through_is_not_copied_or_counted_twice():
    assert steps_spent("[1 for d in 1..3 for e in 1..4]") == 3 + 12          # a step for each turn
    assert steps_spent("[1..4 for d in 1..3]") == 3 + 3 * 4                  # a turn, and the list it makes


def test_a_log_line_is_bounded_like_any_string(engine):
    setup = "  - set: {a: 'range(0, 1000)'}\n  - log: 'all: {[a for i in 1..1000]}'\n"
    assert limit_at_start(setup, engine=engine) == """\
g.yaml:21:10: error: this line would be longer than 100000 characters
   21 |   - log: 'all: {[a for i in 1..1000]}'
      |          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
while the game was set up (before the first round)"""
