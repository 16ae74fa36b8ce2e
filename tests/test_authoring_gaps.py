"""What authors of new games stumbled on: chance fixed in scenarios and from Python, typed scenario
values, stacking from Python, the views of cards in variables, decks of some ranks or generated
cards; each with its exact behaviour or message."""
from __future__ import annotations

import textwrap

import pytest

from interpreter.api import load_game
from interpreter.play.render import render_view

# A trick game with no trump, a card and a list of cards held in variables.
NO_TRUMP = """
name: No trump
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
  trick: {}
variables:
  game: {turned: none, seen: []}
tricks:
  zone: trick
  hand: hand
  suit: card.suit
  rank: card.rank
setup:
  - set: {turned: stock.bottom, seen: '[stock.bottom, stock.cards[1]]'}
  - deal: 1
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      until: all(p.hand.empty for p in players)
      moves: [play]
moves:
  play:
    params:
      card: {from: playable}
    do:
      - play_to_trick: card
      - end_turn
"""


def write(tmp_path, text, name="g.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_cards_in_variables_are_shown_as_cards_and_no_trump_is_not_shown(tmp_path):
    game = load_game(write(tmp_path, NO_TRUMP))
    state = game.new_state(2, 0)
    game.apply(state, "play KS")
    assert render_view(game.view(state, 1)).splitlines() == [
        "== No trump: round 1, play, P2 to play ==",
        "turned: A♣  seen: A♣ 2♣",
        "led: ♠ by P1",
        "played: P1 K♠",
        "stock: 50 face down",
        "hand P1: (empty)",
        "hand P2 (you): ♠ Q♠",
        "trick: K♠",
    ]


# ---------------------------------------------------------------- chance fixed in advance

# A dealer drawn at the setup; a pass direction and a number of tricks drawn at each round's start.
CHANCE = """
name: Chance
players: {min: 2, max: 4}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
variables:
  game: {dealer: none, pass_to: none, tricks: 0, turned: none, bidder: none, note: ""}
setup:
  - choose_random: {dealer: players}
flow:
  rounds: 2
  round_start:
    - choose_random: {pass_to: '["left", "right", "across"]', tricks: 1..3}
    - shuffle: stock
    - deal: 2
      from: stock
      to: hand
  phases:
    - name: main
      turns: {from: dealer}
      moves: [go]
moves:
  go:
    do:
      - end_round
scoring:
  score: >-
    (if bidder == me then 10 else 0) + (if turned != none and turned.rank == 11 then 1 else 0)
    + len([c for c in stock.cards if c.face_up])
"""

SCENARIOS = """
scenarios:
  - name: the dealer, the direction and the tricks are fixed
    players: 3
    start:
      choices: {dealer: P3, pass_to: [right, across], tricks: 2}
      stack: {stock: [AS, 2D, 3D, KH]}
    steps:
      - expect: {vars: {dealer: P3, pass_to: right, tricks: 2}, current: P3, zones: {hand: {P1: [AS, KH]}}}
      - go
      - expect: {vars: {pass_to: across}}
  - name: seats and cards in variables, cards face up
    start:
      vars: {bidder: P1, turned: JS, note: P1}
      face_up: [2C, 3C]
    steps:
      - expect: {scores: [13, 3], vars: {note: P1}}
  - name: outcomes left unused
    start:
      choices: {dealer: [P1, P2], tricks: [3, 1, 2]}
    steps:
      - expect: {current: P1}
  - name: an outcome that is not a choice
    start:
      choices: {tricks: 4}
    steps:
      - expect: {current: P1}
"""


def test_scenarios_fix_choose_random_from_the_setup_on_and_report_what_is_unused(tmp_path):
    from interpreter.tools.scenario_run import run_scenarios
    game = write(tmp_path, CHANCE)
    run = run_scenarios(game, [write(tmp_path, SCENARIOS, "s.yaml")])
    path = tmp_path / "s.yaml"
    assert [o.render() for o in run.outcomes] == [
        "PASS the dealer, the direction and the tricks are fixed",
        "PASS seats and cards in variables, cards face up",
        "FAIL outcomes left unused\n"
        f"  {path}:19:25: fixed outcome for dealer never used: P2\n"
        f"  {path}:19:43: fixed outcomes for tricks never used: 1, 2",
        "FAIL an outcome that is not a choice\n"
        f"  {path}:24:7: choose_random: the fixed outcome 4 for tricks is not one of the choices (1, 2, 3)",
    ]


def test_a_text_variable_keeps_the_text_a_scenario_gives_it(tmp_path):
    from interpreter.engine.values import Card, Seat
    from interpreter.tools.scenario_run import _start
    from interpreter.tools.scenarios import GameLoader, scenarios_in_file
    games = GameLoader(write(tmp_path, CHANCE))
    scenario = scenarios_in_file(write(tmp_path, SCENARIOS, "s.yaml"), games)[1]
    state, failure = _start(scenario)
    assert failure is None
    assert state.vars["note"] == "P1" and state.vars["bidder"] == Seat(0)
    assert isinstance(state.vars["turned"], Card) and state.vars["turned"].label == "JS"


def test_a_choice_no_effect_makes_is_an_error_at_its_place(tmp_path):
    from interpreter.tools.scenario_run import run_scenarios
    game = write(tmp_path, CHANCE)
    path = write(tmp_path, "scenarios:\n  - name: it\n    start: {choices: {delaer: P1}}\n"
                           "    steps: [{expect: {current: P1}}]\n", "s.yaml")
    run = run_scenarios(game, [path])
    assert [e.render() for e in run.errors] == [
        f"{path}:3:23: error: no choose_random effect sets 'delaer'\n"
        "    3 |     start: {choices: {delaer: P1}}\n"
        "      |                       ^^^^^^\n"
        "hint: did you mean 'dealer'?"]


def test_python_fixes_chance_with_zone_names_card_labels_and_outcomes(tmp_path):
    game = load_game(write(tmp_path, CHANCE))
    state = game.new_state(3, 5, stack={"stock": ["AS", "2D", "3D", "KH"]}, choices={"dealer": "P2", "tricks": [3, 1]})
    assert (state.current, state.vars["tricks"]) == (1, 3)
    assert game.view(state, 0)["zones"]["hand"][0] == ["AS", "KH"]
    game.apply(state, "go")
    assert state.vars["tricks"] == 1 and not state.presets.unused and state.clone().presets is None


@pytest.mark.parametrize("kwargs, message", [
    ({"stack": {"stok": ["AS"]}}, "unknown zone 'stok'\nhint: did you mean 'stock'?"),
    ({"stack": {"hand": ["AS"]}}, "'hand': zone 'hand' is one per seat; write it as hand[P1]"),
    ({"stack": {"stock": ["AS", "AS"]}}, "card 'AS' is named 2 times, but the game has 1 such card"),
    ({"stack": {"stock": ["AX"]}}, "unknown card 'AX'\nhint: cards are named by their labels, as AS or 10H"),
    ({"choices": {"deler": "P1"}}, "no choose_random effect sets 'deler'\nhint: did you mean 'dealer'?"),
    ({"players": 5}, "Chance is for 2 to 4 players, not 5"),
])
def test_python_names_are_checked(tmp_path, kwargs, message):
    from interpreter.errors import OptionError
    game = load_game(write(tmp_path, CHANCE))
    with pytest.raises(OptionError) as caught:
        game.new_state(**{"players": 2, **kwargs})
    assert caught.value.render() == "error: " + message


def test_a_card_stacked_twice_by_id_is_an_error(tmp_path):
    from interpreter import engine
    from interpreter.engine.values import ZoneRef
    from interpreter.errors import OptionError
    game = load_game(write(tmp_path, CHANCE))
    with pytest.raises(OptionError) as caught:
        engine.new_state(game.game, 2, 0, stack={ZoneRef("stock"): [0, 0]})
    assert caught.value.message == "stack: AC is stacked twice"


def test_a_moves_args_are_a_tuple_in_parameter_order_and_by_name_from_the_game():
    from tests.helpers import load
    game = load("dice_poker")
    state = game.new_state(2, 0)
    game.apply(state, "throw")
    move = next(m for m in game.legal_moves(state) if m.text == "score fours")
    assert move.args == ("fours", None)
    assert game.move_args(move) == {"row": "fours", "value": None}


# ---------------------------------------------------------------- the docs name what exists

def test_every_module_path_the_docs_name_exists():
    """Beside the imports (tests/test_layout.py): each `interpreter.x.y` a page names is a module,
    or a name in one, at its place in the tree."""
    import importlib
    import re
    from tests.helpers import ROOT
    named = set()
    for doc in sorted((ROOT / "docs").glob("*.md")):
        named |= set(re.findall(r"`(interpreter(?:\.\w+)+)", doc.read_text(encoding="utf-8")))
    assert "interpreter.bots.determinize.sample_state" in named or "interpreter.bots.determinize" in named
    for dotted in sorted(named):
        parts = dotted.split(".")
        for cut in range(len(parts), 1, -1):        # the longest module, then names inside it
            try:
                found = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError:
                continue
            for name in parts[cut:]:
                assert hasattr(found, name), dotted
                found = getattr(found, name)
            break
        else:
            raise AssertionError(f"{dotted} names no module")


def test_every_built_in_name_is_listed_in_the_language_reference():
    from interpreter.engine import game_types, tricks
    from tests.helpers import ROOT
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text[text.index("### Names"):text.index("### Members, indexes and slices")]
    built_in = list(game_types.flow_bindings(None, None)) + list(tricks.bindings(None, None)) + ["dice"]
    assert built_in[:7] == ["me", "current", "players", "player_count", "round", "turn", "phase"]
    assert [name for name in built_in if f"| `{name}` |" not in section] == []


# The flow as docs/language.md tells it: what turns.from, next, turn_end and triggers see, and a
# phase whose until holds when it starts.
FLOW = """
name: Flow
players: {min: 3, max: 3}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
variables:
  game: {log: [], skip: true, dealt: 0}
flow:
  rounds: 1
  round_start:
    - deal: 2
      from: stock
      to: hand
  phases:
    - name: first
      turns: {from: 1, next: 'players[(me.index + turn) % player_count]'}
      until: turn > 3
      turn_end: [{set: {log: 'log + [["end", me.index, current.index, turn]]'}}]
      moves: [go]
    - name: skipped
      start: [{set: {log: 'log + [["start", me.index, current == none]]'}}]
      turns: {from: 'players[(me.index + 1) % player_count]'}
      turn_start: [{set: {log: 'log + [["turn_start", me.index]]'}}]
      end: [{set: {log: 'log + [["end_phase", phase]]'}}]
      until: skip
      moves: [go]
    - name: last
      turns: {from: 0}
      moves: [go]
moves:
  go:
    do: [end_turn]
triggers:
  - when: dealt == 0 and hand.size == 2
    do: [{set: {dealt: 'stock.size', log: 'log + [["trigger", me.index]]'}}]
"""


def test_the_flow_runs_its_parts_in_the_documented_order(tmp_path):
    game = load_game(write(tmp_path, FLOW))
    state = game.new_state(3, 0)
    assert (state.vars["log"], state.current) == ([["trigger", 1]], 1)   # after the deal, before any move
    for _ in range(3):
        game.apply(state, "go")
    assert state.vars["log"] == [
        ["trigger", 1],
        ["end", 1, 1, 1], ["end", 0, 0, 2], ["end", 0, 0, 3],   # next: me the seat whose turn ended, turn the next
        ["start", 0, True], ["turn_start", 1], ["end_phase", "skipped"],   # until holds at its start
    ]
    assert (game.game.phase_names[state.phase], state.current) == ("last", 0)


# ---------------------------------------------------------------- decks

DECKS = """
name: Decks
players: {min: 2, max: 4}
decks:
  euchre:
    standard: true
    ranks: [9, 10, J, Q, K, A]
    zone: stock
  numbers:
    cards:
      - each: {colour: [red, green, blue, yellow], rank: 1..12}
        label: '{colour}{rank}'
        kind: number
      - {kind: wild, label: W, count: 2}
    zone: other
zones:
  stock: {face: down}
  other: {face: down}
flow:
  rounds: 1
  phases:
    - name: main
      turns: {from: 0}
      moves: [go]
moves:
  go:
    do: [end_game]
scoring:
  score: 'sum([c.rank for c in stock.cards]) + len([c for c in other.cards if c.kind == "number" and c.rank > 10])'
"""


def test_a_standard_deck_of_some_ranks_and_cards_generated_from_values(tmp_path):
    game = load_game(write(tmp_path, DECKS))
    labels = [c.label for c in game.game.card_table(2)]
    assert labels[:6] == ["AC", "9C", "10C", "JC", "QC", "KC"] and len(labels) == 24 + 48 + 2
    assert labels[24:27] == ["red1", "red2", "red3"] and labels[-4:] == ["yellow11", "yellow12", "W", "W"]
    card = game.game.card_table(2)[24]
    assert (card.attrs["colour"], card.attrs["rank"], card.attrs["kind"]) == ("red", 1, "number")
    assert game.scores(game.new_state(2)) == [4 * (1 + 9 + 10 + 11 + 12 + 13) + 8] * 2


@pytest.mark.parametrize("old, new, message", [
    ("    standard: true\n    ranks", "    ranks",
     "5:5: error: 'ranks:' keeps some ranks of the standard deck, and this deck is not one\n"
     "    5 |     ranks: [9, 10, J, Q, K, A]\n      |     ^^^^^\nhint: add 'standard: true'"),
    ("ranks: [9, 10, J, Q, K, A]", "ranks: [9, 10, B]",
     "6:20: error: 'B' in decks.euchre.ranks[2] is not a rank: 2 to 10, A, J, Q or K (or 1 to 13)\n"
     "    6 |     ranks: [9, 10, B]\n      |                    ^"),
    ("rank: 1..12", "rank: 12..1",
     "10:58: error: the range 12..1 is empty\n"
     "   10 |       - each: {colour: [red, green, blue, yellow], rank: 12..1}\n"
     "      |                                                          ^^^^^\nhint: write the lower end first, as 1..12"),
    ("rank: 1..12", "rank: 1-12",
     "10:58: error: '1-12' in decks.numbers.cards[0].each.rank is not a range such as 1..12, or a list of values\n"
     "   10 |       - each: {colour: [red, green, blue, yellow], rank: 1-12}\n"
     "      |                                                          ^^^^"),
    ("label: '{colour}{rank}'", "label: '{color}{rank}'",
     "11:16: error: the label names '{color}', which is not an attribute of these cards\n"
     "   11 |         label: '{color}{rank}'\n      |                ^^^^^^^^^^^^^^^\n"
     "hint: the attributes are: colour, kind, rank"),
    ("rank: 1..12", "rank: 1..12, kind: [a]",
     "10:65: error: 'kind' is given both in 'each:' and beside it\n"
     "   10 |       - each: {colour: [red, green, blue, yellow], rank: 1..12, kind: [a]}\n"
     "      |                                                                 ^^^^"),
    ("rank: 1..12", "rank: 1..1000000",
     "10:9: error: 'each:' makes more than 100000 cards\n"
     "   10 |       - each: {colour: [red, green, blue, yellow], rank: 1..1000000}\n      |         ^^^^"),
])
def test_deck_declarations_are_checked(tmp_path, old, new, message):
    from interpreter.errors import ErrorList
    assert old in DECKS
    path = write(tmp_path, DECKS.replace(old, new, 1))
    with pytest.raises(ErrorList) as caught:
        load_game(path)
    assert caught.value.render() == f"{path}:{message}"


def test_a_list_given_for_an_expression_suggests_quoting_it(tmp_path):
    from interpreter.errors import ErrorList
    text = CHANCE.replace("      - end_round", "      - flip: [at(first), at(second)]\n      - end_round")
    path = write(tmp_path, text)
    with pytest.raises(ErrorList) as caught:
        load_game(path)
    assert caught.value.render() == (
        f"{path}:27:15: error: expected an expression, got a list in moves.go.do[0].flip\n"
        "   27 |       - flip: [at(first), at(second)]\n"
        "      |               ^^^^^^^^^^^^^^^^^^^^^^^\n"
        "hint: a list in an expression is written inside it: quote the whole of it, as '[at(first), at(second)]'")


def test_a_seat_beyond_the_table_in_start_vars_is_an_error(tmp_path):
    from interpreter.tools.scenario_run import run_scenarios
    path = write(tmp_path, "scenarios:\n  - name: it\n    start: {vars: {bidder: P3}}\n"
                           "    steps: [{expect: {current: P1}}]\n", "s.yaml")
    run = run_scenarios(write(tmp_path, CHANCE), [path])
    assert [e.message for e in run.errors] == ["there is no seat P3: this scenario has 2 players (P1 to P2)"]
    assert (run.errors[0].pos.line, run.errors[0].pos.col) == (3, 28)


def test_a_card_stacked_in_two_zones_fails_the_scenario_at_its_stack(tmp_path):
    from interpreter.tools.scenario_run import run_scenarios
    path = write(tmp_path, "scenarios:\n  - name: it\n    start:\n      stack: {stock: [AS], hand: {P1: [AS]}}\n"
                           "    steps: [{expect: {current: P1}}]\n", "s.yaml")
    run = run_scenarios(write(tmp_path, CHANCE), [path])
    assert [o.render() for o in run.outcomes] == [f"FAIL it\n  {path}:4:7: stack: AS is stacked twice\n"
                                                  "    hint: each card is in one place; name another copy, or the card once"]


ORDER = """
name: Order
players: {min: 2, max: 2}
variables:
  game: {chosen: none}
flow:
  rounds: 1
  phases:
    - name: main
      turns: {from: 0}
      moves: [zeta, alpha]
moves:
  alpha:
    params:
      n: {from: '[3, 1, 2]'}
      word: {from: '["b", "a"]'}
    do: [end_game]
  zeta:
    do: [end_game]
"""


def test_legal_moves_come_in_declaration_order_not_sorted(tmp_path):
    game = load_game(write(tmp_path, ORDER))
    assert [m.text for m in game.legal_moves(game.new_state())] == [
        "zeta", "alpha 3 b", "alpha 3 a", "alpha 1 b", "alpha 1 a", "alpha 2 b", "alpha 2 a"]
