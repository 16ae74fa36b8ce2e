"""Grid zones, wild sets (set_value), follow-up chains and interrupts, on their own: a classic
six-card Golf and a small game of interrupts written here, plus Gnoming A Round's hidden cards."""
from __future__ import annotations

import json

import pytest

from interpreter.api import load_game
from interpreter.bots.agents import RandomBot
from interpreter.bots.determinize import sample_state
from interpreter.engine.context import Ctx, active
from interpreter.engine.values import ZoneRef, to_json
from interpreter.errors import EvalError, ExprCheckError, RulesError
from interpreter.expr import Scope, compile_expression
from interpreter.expr.wild import set_value
from interpreter.play.card_text import card_text
from interpreter.play.render import render_view
from tests.helpers import load

# Six-card Golf: a 2x3 grid each; turn two cards up; draw from the stock or take the discard's top
# and swap it for a grid card (the card pushed out is discarded), or discard what you drew.
# A column of two equal ranks scores 0; when a grid is all face up, the round ends.
GOLF = """
name: Golf
players: {min: 2, max: 4}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  discard: {top_only: true}
  hand: {per: seat, visible_to: owner}
  grid: {per: seat, face: down, grid: {rows: 2, cols: 3}}
variables:
  game: {drawn: false}
define:
  spots: '[s for s in 0..5 if not grid.slots[s].face_up]'
  value(card): 'if card.rank == 13 then 0 else if card.rank > 10 then 10 else card.rank'
  pair(col): set_value(col, c => false, c => c.rank) != none
  points(g): sum(value(c) for col in g.cols if not pair(col) for c in col)
setup:
  - shuffle: stock
  - deal: 6
    from: stock
    to: grid
  - move: stock.top
    to: discard
flow:
  rounds: 1
  phases:
    - name: open
      turns: {from: 0, each: once}
      moves: [open]
    - name: play
      turns: {from: 0}
      until: any(all(c.face_up for c in p.grid.cards) for p in players)
      moves: [draw, swap, throw]
moves:
  open:
    params: {spot: {from: '[0, 1, 2]'}}
    do:
      - flip: '[grid.slots[spot], grid.slots[spot + 3]]'
        face: up
      - end_turn
  draw:
    when: not drawn
    do:
      - move: stock.top
        to: hand
      - set: {drawn: true}
  swap:
    params: {spot: {from: 0..5}}
    when: drawn
    do:
      - move: hand.top
        to: grid
        slot: spot
        face: up
        displace_to: discard
      - set: {drawn: false}
      - end_turn
  throw:
    when: drawn
    do:
      - move: hand.top
        to: discard
      - set: {drawn: false}
      - end_turn
triggers:
  - when: stock.empty and discard.size > 1
    do:
      - move: discard.cards[0:-1]
        to: stock
      - shuffle: stock
scoring:
  score: points(grid)
  order: low
"""

# P1 rings a bell: every other seat that is awake answers or ignores it, in turn order, then
# P1's turn ends. A seat answering may ring a second bell at once (an interrupt in an interrupt).
BELL = """
name: Bell
players: {min: 3, max: 4}
variables:
  game: {ringing: 0, heard: []}
  seat: {asleep: false}
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      until: len(heard) >= 6
      turn_start:
        - set: {ringing: 0}
      moves: [ring, answer, ignore, echo]
moves:
  ring:
    when: ringing == 0
    do:
      - set: {ringing: 1}
      - interrupt: '[players[(me.index + k) % player_count] for k in 1..player_count - 1]'
        moves: [answer, ignore, echo]
      - end_turn
  answer:
    when: ringing > 0 and not asleep
    do:
      - add: {heard: me}
  ignore:
    when: ringing > 0 and not asleep
    do: []
  echo:
    when: ringing == 1 and not asleep
    do:
      - set: {ringing: 2}
      - add: {heard: me}
      - interrupt: players[0]
        moves: [answer]
      - end_turn
"""


@pytest.fixture(scope="module")
def golf():
    return load_game("golf.yaml", text=GOLF)


@pytest.fixture(scope="module")
def bell():
    return load_game("bell.yaml", text=BELL)


def evaluate(text, state, expression):
    """The value of an expression (no seat acting: seats are named players[i]) in the game written
    as ``text``, with cards written by their labels."""
    # A bot's hint, not a view line: a view may not show cards some seat may not see.
    game = load_game("probe.yaml", text=text + f"bot:\n  hint: '{expression}'\n")
    with active(game.game, state):
        value = to_json(game.game.hint(Ctx(game.game, state), {}))
    return _labels(value, game.game.card_table(state.players))


def _labels(value, table):
    if isinstance(value, list):
        return [_labels(v, table) for v in value]
    if isinstance(value, dict) and "$card" in value:
        return table[value["$card"]].label
    if isinstance(value, dict) and "$seat" in value:
        return f"P{value['$seat'] + 1}"
    return value


# ---------------------------------------------------------------- grid zones

def test_a_grid_is_dealt_slot_by_slot_and_read_by_rows_columns_and_lines(golf):
    state = golf.new_state(2, seed=3)
    table = golf.game.card_table(2)
    grid = [table[c].label for c in state.zones["grid"][0]]
    assert len(grid) == 6
    assert evaluate(GOLF, state, "players[0].grid.slots") == grid
    assert evaluate(GOLF, state, "players[0].grid.rows") == [grid[:3], grid[3:]]
    assert evaluate(GOLF, state, "players[0].grid.cols") == [[grid[i], grid[i + 3]] for i in range(3)]
    assert evaluate(GOLF, state, "players[0].grid.lines") == [grid[:3], grid[3:]] + [[grid[i], grid[i + 3]]
                                                                                   for i in range(3)]
    assert evaluate(GOLF, state, "[players[0].grid.row_count, players[0].grid.col_count, stock.row_count]") == [2, 3, 0]
    assert evaluate(GOLF, state, "[c.slot for c in players[0].grid.cards]") == [0, 1, 2, 3, 4, 5]
    assert evaluate(GOLF, state, "discard.top.slot") is None


def test_a_card_put_at_a_slot_displaces_the_card_there(golf):
    state = golf.new_state(2, seed=3)
    for move in ("open 0", "open 2", "draw"):
        golf.apply(state, move)
    drawn = state.zones["hand"][0][0]
    old = state.zones["grid"][0][4]
    golf.apply(state, "swap 4")
    assert state.zones["grid"][0][4] == drawn and drawn in state.face_up
    assert state.zones["discard"][0][-1] == old and state.zones["hand"][0] == []
    assert state.current == 1


def test_a_card_taken_out_of_a_grid_leaves_its_slot_empty_and_the_next_one_fills_it(golf):
    state = golf.new_state(2, seed=3)
    grid = state.zones["grid"][1]
    second = grid[1]
    golf.game.place(state, second, ZoneRef("discard"),
                    None, False)
    assert grid[1] is None and len(grid) == 6
    assert evaluate(GOLF, state, "players[1].grid.slots[1]") is None
    assert evaluate(GOLF, state, "players[1].grid.size") == 5
    view = golf.view(state, 0)
    assert view["zones"]["grid"][1][1] == "" and view["zones"]["grid"][1][0] is None
    assert view["grids"] == {"grid": [2, 3]}
    golf.game.place(state, second, ZoneRef("grid", 1),
                    None, False)
    assert grid[1] == second


def test_slot_errors_are_reported_in_the_games_words(golf):
    state = golf.new_state(2, seed=3)
    with pytest.raises(EvalError) as caught:
        evaluate(GOLF, state, "stock.slots")
    assert caught.value.message == "stock is not a grid (declare the zone with grid: {rows: ..., cols: ...})"
    card = state.zones["stock"][0][-1]
    with pytest.raises(EvalError) as caught:
        golf.game.place(state, card, ZoneRef("grid", 0), None, False, slot=6)
    assert caught.value.message == "grid[P1] has slots 0 to 5, not 6"
    with pytest.raises(EvalError) as caught:
        golf.game.place(state, card, ZoneRef("discard"), None, False, slot=0)
    assert caught.value.message == "move: discard is not a grid, so it has no slots"
    with pytest.raises(EvalError) as caught:
        golf.game.place(state, card, ZoneRef("grid", 0), None, False)
    assert caught.value.message == "grid[P1] has no empty slot"


def test_displace_to_without_a_slot_is_a_positioned_error():
    text = GOLF.replace("        slot: spot\n", "")
    with pytest.raises(RulesError) as caught:
        load_game("golf.yaml", text=text)
    rendered = caught.value.render()
    assert rendered.startswith("golf.yaml:55:9: error: 'displace_to' goes with 'slot': only a card put at a slot "
                               "displaces one")
    assert rendered.endswith("hint: add 'slot:', or remove 'displace_to:'")


def test_a_slot_holding_a_card_needs_displace_to(golf):
    text = GOLF.replace("        displace_to: discard\n", "")
    game = load_game("golf.yaml", text=text)
    state = game.new_state(2, seed=3)
    for move in ("open 0", "open 2", "draw"):
        game.apply(state, move)
    with pytest.raises(EvalError) as caught:
        game.apply(state, "swap 1")
    assert caught.value.message == "move: slot 1 of grid[P1] held a card; say where it goes with 'displace_to'"


def test_golf_plays_to_the_end_and_scores_columns(golf):
    for seed in range(5):
        state = golf.new_state(3, seed)
        bots = [RandomBot(golf.game, s, seed) for s in range(3)]
        while not state.over:
            seat = golf.acting_seats(state)[0]
            golf.apply(state, bots[seat].choose(state, golf.legal_moves(state, seat)))
        assert state.over
    state = golf.new_state(2, seed=3)
    cols = evaluate(GOLF, state, "[[c.rank for c in col] for col in players[0].grid.cols]")
    expected = sum(min(r, 10) if r != 13 else 0 for col in cols if col[0] != col[1] for r in col)
    assert golf.scores(state)[0] == expected


def test_a_grid_is_drawn_as_rows_and_columns(golf):
    state = golf.new_state(2, seed=3)
    golf.apply(state, "open 0")
    text = render_view(golf.view(state, 0))
    table = golf.game.card_table(2)
    top, bottom = (card_text(table[state.zones["grid"][0][i]].label) for i in (0, 3))
    lines = text.split("grid:\n")[1].splitlines()
    width = max(2, len(top), len(bottom))
    assert lines[0].split() == ["P1", "(you)", "P2"]
    assert lines[1] == "  " + " ".join(c.rjust(width) for c in (top, "##", "##")) + "    " + \
        " ".join(["##".rjust(width)] * 3)
    assert lines[2].split() == [bottom, "##", "##", "##", "##", "##"]


# ---------------------------------------------------------------- hidden cards of a grid

def test_face_down_grid_cards_are_hidden_from_everyone_even_their_owner():
    game = load("gnoming_a_round")
    state = game.new_state(3, seed=5)
    before = game.view(state, 0)
    assert before["zones"]["grid"][0] == [None] * 9
    other = state.clone()
    other.zones["grid"][1][0], other.zones["grid"][0][4] = other.zones["grid"][0][4], other.zones["grid"][1][0]
    other.zones["grid"][2].reverse()
    assert other != state and game.view(other, 0) == before
    sample = sample_state(game.game, state, 0, seed=1)
    assert len(sample.zones["grid"][0]) == 9 and game.view(sample, 0) == before


def test_a_card_drawn_is_seen_by_its_drawer_only():
    game = load("gnoming_a_round")
    state = game.new_state(3, seed=5)
    for move in ("reveal r1c1 r1c2",) * 3 + ("draw",):
        game.apply(state, move)
    assert game.view(state, 0)["zones"]["drawn"][0] != [None]
    assert game.view(state, 1)["zones"]["drawn"][0] == [None]


# ---------------------------------------------------------------- set_value: wild cards in a set

SCOPE = Scope()


@pytest.mark.parametrize("text, value", [
    ("set_value([5, 0, 5], x => x == 0, x => x)", 5),
    ("set_value([0, 0, 0], x => x == 0, x => x)", None),
    ("set_value([0, 0, 0], x => x == 0, x => x, 8)", 8),
    ("set_value([5, 4, 0], x => x == 0, x => x)", None),
    ("set_value([], x => x == 0, x => x, 8)", None),
    ("set_value([5, none, 5], x => x == 0, x => x)", None),
    ("set_value([-1, -1], x => false, x => if x > 0 then x else none)", None),
    ("set_value(['a', 'a'], x => false, x => x)", "a"),
])
def test_set_value(text, value):
    assert compile_expression(text, SCOPE)(None) == value


def test_set_value_errors():
    with pytest.raises(ExprCheckError) as caught:
        compile_expression("set_value(3, x => x == 0, x => x)", SCOPE)
    assert caught.value.message == "argument 1 of set_value() must be list of any, not int"
    with pytest.raises(EvalError) as caught:      # a value only known at run time
        set_value(3, None, None)
    assert caught.value.message == "set_value() needs a list, got int"


# ---------------------------------------------------------------- interrupts

def test_every_other_seat_moves_once_in_turn_order_then_the_turn_ends(bell):
    state = bell.new_state(3)
    bell.apply(state, "ring")
    assert state.current == 1 and [m.text for m in bell.legal_moves(state)] == ["answer", "ignore", "echo"]
    bell.apply(state, "answer")
    assert state.current == 2
    bell.apply(state, "ignore")
    assert state.current == 1 and [m.text for m in bell.legal_moves(state)] == ["ring"]
    assert evaluate(BELL, state, "[ringing, heard]") == [0, ["P2"]]


def test_a_seat_without_a_legal_move_is_skipped(bell):
    state = bell.new_state(4)
    state.seat_vars[2]["asleep"] = True
    bell.apply(state, "ring")
    bell.apply(state, "ignore")
    assert state.current == 3
    bell.apply(state, "ignore")
    assert state.current == 1


def test_an_interrupt_survives_a_json_round_trip(bell):
    state = bell.new_state(3)
    bell.apply(state, "ring")
    again = bell.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state
    bell.apply(again, "answer")
    bell.apply(again, "answer")
    assert again.current == 1 and "$interrupts" not in again.vars


def test_an_interrupting_move_may_interrupt_in_turn(bell):
    state = bell.new_state(3)
    bell.apply(state, "ring")
    bell.apply(state, "echo")            # P2 echoes: P1 must answer before P3's turn in the first interrupt
    assert state.current == 0 and [m.text for m in bell.legal_moves(state)] == ["answer"]
    bell.apply(state, "answer")
    assert state.current == 2
    bell.apply(state, "ignore")
    assert state.current == 1
    assert evaluate(BELL, state, "heard") == ["P2", "P1"]


def test_an_unknown_move_in_an_interrupt_is_a_positioned_error():
    with pytest.raises(RulesError) as caught:
        load_game("bell.yaml", text=BELL.replace("moves: [answer]", "moves: [anwser]"))
    assert caught.value.render().splitlines()[0] == "bell.yaml:37:17: error: unknown move 'anwser' in interrupt"
    assert caught.value.render().splitlines()[-1] == "hint: did you mean 'answer'?"
