"""Bad specs made clear: a value that nests deeper each move, zones of millions of piles, a
misspelt member in a defined function's body, and an error on a very long line (exact messages,
rendered as the command line shows them)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.errors import ExprCheckError, LimitError, Position, RulesError, Source, flatten
from interpreter.play.render import render_view
from interpreter.play.tui.board import Board

RULES = str(Path(sys.executable).parent / "rules")


def rendered(text: str) -> str:
    """Every error of loading ``text``, rendered as ``rules validate`` prints them."""
    with pytest.raises(RulesError) as caught:
        load_game("g.yaml", text=text)
    return "\n".join(e.render() for e in flatten([caught.value]))


# -- a value nested deeper each move -----------------------------------------------------------

#  1 name: Nest
#  2 players: {min: 2, max: 2}
#  3 variables:
#  4   game:
#  5     v: []
#  6     n: 0
#  7     k: [0]
#  8 flow:
#  9   phases:
# 10     - name: play
# 11       turns: {from: 0}
# 12       moves: [go]
# 13 moves:
# 14   go:
# 15     do:
# 16       - set: {v: "[v]"}
# 17       - add: {n: 1}
# 18       - if: n >= 450
# 19         then: [end_game]
NEST = """\
name: Nest
players: {min: 2, max: 2}
variables:
  game:
    v: []
    n: 0
    k: [0]
flow:
  phases:
    - name: play
      turns: {from: 0}
      moves: [go]
moves:
  go:
    do:
      - set: {v: "[v]"}
      - add: {n: 1}
      - if: n >= 450
        then: [end_game]
"""


def test_a_value_nested_deeper_each_move_stops_the_game_at_the_effect(tmp_path):
    # Drawn at the end of the game, 450 levels used to crash the board with a RecursionError.
    game = tmp_path / "nest.yaml"
    game.write_text(NEST)
    done = subprocess.run([RULES, "play", str(game), "--seed", "1", "--bot", "random", "--human", "none",
                           "--plain"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr == f"""\
{game}:16:15: error: v would nest lists and maps more than 64 levels deep
   16 |       - set: {{v: "[v]"}}
      |               ^
while P1 played 'go' (move 64; round 1, phase 'play')
hint: keep values side by side in one list rather than each inside the next
"""


def test_a_value_64_levels_deep_is_stored_and_drawn():
    game = load_game("nest.yaml", text=NEST)
    state = game.new_state(seed=0)
    for _ in range(63):
        game.apply(state, "go")
    depth, value = 0, state.vars["v"]
    while isinstance(value, list):
        depth, value = depth + 1, value[0] if value else None
    assert depth == 64
    assert "v: …  n: 63  k: 0" in render_view(game.view(state, 0))
    with pytest.raises(LimitError):
        game.apply(state, "go")


def test_a_value_stored_at_a_key_counts_the_level_of_the_variable_that_holds_it():
    game = load_game("nest.yaml", text=NEST.replace('{v: "[v]"}', '{"k[0]": "k"}'))
    state = game.new_state(seed=0)
    for _ in range(63):
        game.apply(state, "go")
    with pytest.raises(LimitError) as caught:
        game.apply(state, "go")
    assert caught.value.render().splitlines()[:3] == [
        "nest.yaml:16:15: error: k[0] would nest lists and maps more than 64 levels deep",
        """   16 |       - set: {"k[0]": "k"}""",
        "      |               ^^^^^^",
    ]


def test_a_view_line_nested_too_deep_is_refused_at_the_line():
    text = NEST + """\
define:
  deep(x): '[[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]]]'
view:
  game:
    far: deep(deep(deep(deep(1))))
"""
    game = load_game("nest.yaml", text=text)
    state = game.new_state(seed=0)
    with pytest.raises(LimitError) as caught:
        game.view(state, 0)
    assert caught.value.render() == """\
nest.yaml:24:10: error: view: 'far' nests lists and maps more than 64 levels deep
   24 |     far: deep(deep(deep(deep(1))))
      |          ^^^^^^^^^^^^^^^^^^^^^^^^^
while the game's view lines were shown (before the first move; round 1, phase 'play')
hint: keep values side by side in one list rather than each inside the next"""


def nested(levels: int, inner: object = 1) -> list:
    value: object = inner
    for _ in range(levels):
        value = [value]
    return value  # type: ignore[return-value]


def deep_view() -> dict:
    """A view whose values nest 8 and 9 lists deep, and 5,000 (as a server or a bug might send)."""
    view = load_game("nest.yaml", text=NEST).view(load_game("nest.yaml", text=NEST).new_state(seed=0), 0)
    view["vars"] = {"$map": {"a": nested(8), "b": nested(9), "c": nested(5000)}}
    view["seat_vars"] = [{"$map": {"s": nested(8)}}, {"$map": {"s": nested(5000)}}]
    view["shown"] = {"game": {"g": nested(8)}, "seat": {"t": [nested(9), nested(3000)]}}
    return view


def test_drawing_a_view_stops_at_eight_levels_however_deep_its_values():
    assert render_view(deep_view()) == """\
== Nest: round 1, play, P1 to play ==
a: 1  b: …  c: …  g: 1
   P1  P2
s   1   …
t   …   …"""


def test_the_full_screen_board_draws_deep_values_the_same_way():
    view = deep_view()
    assert Board(0, color=False).values(view).plain == "g 1\n  P1 P2\ns  1  …\nt  …  …\n"
    view["shown"]["game"] = {}      # without view lines of its own, the board shows the game's variables
    assert Board(0, color=False).values(view).plain == "a 1  b …  c …\n  P1 P2\ns  1  …\nt  …  …\n"


# -- the number of piles -----------------------------------------------------------------------

#  1 name: Piles
#  2 players: {min: 2, max: 4}
#  3 teams:
#  4   of: seat % 2
#  5 options:
#  6   extra: {type: int, default: 1, min: 1, max: 100000}
#  7 zones:
#  8   work: {per: seat, piles: 4}
#  9   table: {piles: 4}
# 10   won: {per: team}
# 11 flow: ...
PILES = """\
name: Piles
players: {min: 2, max: 4}
teams:
  of: seat % 2
options:
  extra: {type: int, default: 1, min: 1, max: 100000}
zones:
  work: {per: seat, piles: 4}
  table: {piles: 4}
  won: {per: team}
flow:
  phases:
    - name: play
      turns: {from: 0}
      moves: [go]
moves:
  go:
    do: [end_game]
"""
PILES_HINT = "hint: every zone's piles are counted, a zone's 'piles:' once for each owner of a zone per seat or team"


def piles(old: str, new: str) -> str:
    assert old in PILES, old
    return PILES.replace(old, new, 1)


def test_the_piles_game_is_valid():
    game = load_game("g.yaml", text=PILES)
    assert {name: len(p) for name, p in game.new_state(players=4).zones.items()} == {"work": 16, "table": 4, "won": 2}


@pytest.mark.parametrize("old, new, expected", [
    ("work: {per: seat, piles: 4}", "work: {per: seat, piles: 10000000}", f"""\
g.yaml:8:28: error: zone 'work' has 20000000 piles with 2 players: more than the limit of 10000
    8 |   work: {{per: seat, piles: 10000000}}
      |                            ^^^^^^^^
{PILES_HINT}"""),
    ("table: {piles: 4}", "table: {piles: 999999999999 * player_count}", f"""\
g.yaml:9:18: error: zone 'table' has 1999999999998 piles with 2 players, and the zones before it 8: more than the limit of 10000
    9 |   table: {{piles: 999999999999 * player_count}}
      |                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^
{PILES_HINT}"""),
    ("table: {piles: 4}", "table: {piles: 'if player_count == 4 then 9990 else 1'}", f"""\
g.yaml:9:19: error: zone 'table' has 9990 piles with 4 players, and the zones before it 16: more than the limit of 10000
    9 |   table: {{piles: 'if player_count == 4 then 9990 else 1'}}
      |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
{PILES_HINT}"""),
    ("won: {per: team}", "won: {per: team, piles: 'extra * 5000'}", f"""\
g.yaml:10:28: error: zone 'won' has 10000 piles with 2 players, and the zones before it 12: more than the limit of 10000
   10 |   won: {{per: team, piles: 'extra * 5000'}}
      |                            ^^^^^^^^^^^^
{PILES_HINT}"""),
], ids=["ten million per seat", "a huge expression", "only with the most players", "per team"])
def test_too_many_piles_are_refused_at_load_at_the_piles_value(old, new, expected):
    assert rendered(piles(old, new)) == expected


def test_piles_are_counted_with_the_options_given():
    text = piles("table: {piles: 4}", "table: {piles: extra}")
    load_game("g.yaml", text=text)
    with pytest.raises(LimitError) as caught:
        load_game("g.yaml", {"extra": "9995"}, text=text)
    assert caught.value.headline() == ("g.yaml:9:18: error: zone 'table' has 9995 piles with 2 players, and the "
                                       "zones before it 8: more than the limit of 10000")


def test_piles_not_known_at_load_are_counted_when_the_game_is_set_up():
    # With 2 players the count fails (left to new_state), so loading cannot count the others.
    text = piles("table: {piles: 4}", "table: {piles: 'if player_count == 2 then 1 // 0 else 20000'}")
    game = load_game("g.yaml", text=text)
    with pytest.raises(LimitError) as caught:
        game.new_state(players=3)
    assert caught.value.render() == f"""\
g.yaml:9:19: error: zone 'table' has 20000 piles with 3 players, and the zones before it 12: more than the limit of 10000
    9 |   table: {{piles: 'if player_count == 2 then 1 // 0 else 20000'}}
      |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
while the game was set up (before the first round)
{PILES_HINT}"""


@pytest.mark.parametrize("teams, expected", [
    ("seat * 100000000", "g.yaml:4:7: error: teams.of gives team 100000000 to P2; teams are numbered from 0 to 63"),
    ("seat - 1", "g.yaml:4:7: error: teams.of gives team -1 to P1; teams are numbered from 0 to 63"),
])
def test_team_numbers_are_bounded_before_a_team_is_kept_for_each(teams, expected):
    # A team is kept for each number up to the largest: a hundred million would be gigabytes.
    with pytest.raises(LimitError) as caught:
        load_game("g.yaml", text=piles("of: seat % 2", f"of: {teams}"))
    assert caught.value.headline() == expected
    assert caught.value.hint == "number the teams from 0, as 'seat % 2' does for two teams"


def test_validate_refuses_ten_million_piles_quickly(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text(piles("work: {per: seat, piles: 4}", "work: {per: seat, piles: 10000000}"))
    done = subprocess.run([RULES, "validate", str(game)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (f"{game}:8:28: error: zone 'work' has 20000000 piles with 2 players: "
                                           "more than the limit of 10000")


# -- a defined function's parameters, typed by its calls ---------------------------------------

#  1 name: G
#  2 players: {min: 2, max: 2}
#  3 decks:
#  4   main: {standard: true, zone: stock}
#  5 zones:
#  6   stock: {face: down}
#  7   hand: {per: seat, visible_to: owner}
#  8 define:
#  9   value(card): card.rank
# 10 flow: ...
# 20     when: value(c) > 3
DEFINE = """\
name: G
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
define:
  value(card): card.rank
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [go]
moves:
  go:
    params:
      c: {from: hand.cards}
    when: value(c) > 3
    do: [end_game]
"""


def defined(definitions: str, when: str = "value(c) > 3") -> str:
    return DEFINE.replace("  value(card): card.rank\n", definitions).replace("value(c) > 3", when)


def test_the_define_game_is_valid():
    load_game("g.yaml", text=DEFINE)


def test_a_misspelt_member_of_a_parameter_called_with_cards_is_an_error_at_load():
    assert rendered(defined("  value(card): card.rnk\n")) == """\
g.yaml:9:21: error: card has no member 'rnk'
    9 |   value(card): card.rnk
      |                     ^^^
where value(card) is called: card is a card
hint: did you mean 'rank'?"""


def test_validate_reports_it_at_the_member(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text(defined("  value(card): card.rnk\n"))
    done = subprocess.run([RULES, "validate", str(game)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines()[:2] == [f"{game}:9:21: error: card has no member 'rnk'",
                                            "    9 |   value(card): card.rnk"]


@pytest.mark.parametrize("definitions, when, headline, called", [
    ("  value(card): card.rnk\n  total(cards): sum([value(x) for x in cards])\n", "total(hand.cards) > 3",
     "g.yaml:9:21: error: card has no member 'rnk'", "where value(card) is called: card is a card"),
    ("  value(x): x.rnk\n", "value(c) + value(me) > 3",
     "g.yaml:9:15: error: card has no member 'rnk'", "where value(x) is called: x is a card or a seat"),
    ("  value(x): x.rnk\n", "max_by(hand.cards, d => value(d)) == c",
     "g.yaml:9:15: error: card has no member 'rnk'", "where value(x) is called: x is a card"),
    ("  value(x): x.rnk\n  best: 'max([value(d) for d in hand.cards])'\n", "best > 3",
     "g.yaml:9:15: error: card has no member 'rnk'", "where value(x) is called: x is a card"),
    ("  value(x, n): x + n\n", "value(c, 1) > 3",
     "g.yaml:9:16: error: cannot add card and any", "where value(x, n) is called: x is a card"),
], ids=["through another function", "with cards and seats", "from a lambda", "from a name", "an operator"])
def test_a_body_that_fails_under_every_type_it_is_called_with_is_an_error(definitions, when, headline, called):
    (error,) = flatten([pytest.raises(RulesError, load_game, "g.yaml", text=defined(definitions, when)).value])
    assert isinstance(error, ExprCheckError)
    assert error.headline() == headline
    assert error.context == (called,)


@pytest.mark.parametrize("definitions, when", [
    ("  value(x): x.rnk\n", "c.rank > 3"),                                                  # never called
    ("  value(x): x.rnk\n", "value(c) + value(1) > 3"),                                     # also with an int
    ("  value(x, k): 'if k == 1 then x.rank else x.team'\n", "value(c, 1) + value(me, 2) > 3"),  # each its branch
    ("  value(x): x.rnk\n  total(xs): sum([value(d) for d in xs])\n", "total([1, 2]) > 3"),      # never a card
], ids=["never called", "called with an int too", "a branch for each type", "called with ints only"])
def test_a_body_that_may_work_for_some_call_is_left_to_run_time(definitions, when):
    load_game("g.yaml", text=defined(definitions, when))


# -- an error on a very long line --------------------------------------------------------------

def long_line_error(text: str, col: int, width: int) -> list[str]:
    error = ExprCheckError("unknown name 'v2x'", Position(Source("g.yaml", (text,)), 1, col, width))
    return error.render().splitlines()[1:]


def test_a_long_line_is_cut_around_the_place_of_the_error():
    text = "a" * 1000 + " v2x " + "b" * 1000
    line, caret = long_line_error(text, 1002, 3)
    assert line == "    1 | ..." + "a" * 49 + " v2x " + "b" * 46 + "..."
    assert caret == "      | " + " " * 53 + "^^^"
    assert line[caret.index("^"):caret.index("^") + 3] == "v2x"


def test_a_long_line_is_cut_on_one_side_near_its_ends():
    start = long_line_error("v2x " + "b" * 300, 1, 3)
    assert start == ["    1 | v2x " + "b" * 96 + "...", "      | ^^^"]
    end = long_line_error("a" * 300 + " v2x", 302, 3)
    assert end == ["    1 | ..." + "a" * 96 + " v2x", "      | " + " " * 100 + "^^^"]


def test_a_caret_wider_than_what_is_shown_stops_at_the_cut():
    line, caret = long_line_error("a" * 500, 100, 400)
    assert line == "    1 | ..." + "a" * 100 + "..."
    assert caret == "      | " + " " * 53 + "^" * 50


def test_a_short_line_is_shown_whole():
    assert long_line_error("x + v2x", 5, 3) == ["    1 | x + v2x", "      |     ^^^"]


def test_an_error_on_a_one_line_file_of_900_kb_shows_a_bounded_line(tmp_path):
    game = tmp_path / "long.yaml"
    game.write_text("{name: G, players: {min: 2, max: 2}," + " " * 450_000
                    + "flow: {phases: [{name: play, turns: {from: 0}, moves: [go]}]}, "
                    + "moves: {go: {when: 'trhows > 0', do: [end_game]}}," + " " * 450_000 + "}\n")
    done = subprocess.run([RULES, "validate", str(game)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == f"""\
{game}:1:450120: error: unknown name 'trhows'
    1 | ...s: {{from: 0}}, moves: [go]}}]}}, moves: {{go: {{when: 'trhows > 0', do: [end_game]}}}},                    ...
      |                                                      ^^^^^^
1 error in 1 file
"""
