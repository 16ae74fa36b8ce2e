"""Bad game files at the structure (schema) and semantic levels: exact messages, places and hints.

Each case is a small game text and the errors it must give, rendered in full: the headline
``file:line:col: error: message``, the source line, the caret under the place, and the hint.
The caret lines below are written to sit under the source line above them, so a column can be
checked by eye.
"""
from __future__ import annotations

import pytest

from interpreter.api import load_game
from interpreter.errors import (
    ErrorList,
    ExprCheckError,
    ExprSyntaxError,
    RulesError,
    SchemaError,
    SpecError,
    flatten,
)

# A small valid game; the cases below change one thing in it. Line numbers, for counting:
#  1 name: G
#  2 players: {min: 2, max: 4}
#  3 variables:
#  4   game:
#  5     throws: 0
#  6 flow:
#  7   phases:
#  8     - name: main
#  9       moves: [go]
# 10 moves:
# 11   go:
# 12     when: throws < 3
# 13     do:
# 14       - add: {throws: 1}
# 15       - end_turn
BASE = """\
name: G
players: {min: 2, max: 4}
variables:
  game:
    throws: 0
flow:
  phases:
    - name: main
      moves: [go]
moves:
  go:
    when: throws < 3
    do:
      - add: {throws: 1}
      - end_turn
"""


def variant(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def errors_of(text: str) -> list[RulesError]:
    with pytest.raises(RulesError) as caught:
        load_game("g.yaml", text=text)
    return flatten([caught.value])


def shown(headline: str, line: str | None = None, caret: str | None = None, hint: str | None = None) -> str:
    """The expected rendering of one error; the line number in the gutter comes from the headline."""
    parts = [headline]
    if line is not None:
        number = int(headline.split(":")[1])
        parts += [f"{number:>5} | {line}", f"      | {caret}"]
    if hint:
        parts.append(f"hint: {hint}")
    return "\n".join(parts)


EFFECTS = ("end_turn, end_phase, end_round, end_game, set, add, roll, reveal_dice, choose_random, shuffle, move, deal, "
           "flip, if, for, log, play_to_trick, interrupt")
SHARED_NAMES = "options, zones, variables and definitions share one set of names"

CASES = [
    # ---- the structure (JSON Schema) --------------------------------------------------------------
    ("top-level list", "- name: G\n- players: 2\n", SchemaError, [shown(
        "g.yaml:1:1: error: a game file is a mapping of sections (name:, players:, flow:, ...), not a list",
        "- name: G",
        "^^^^^^^^^")]),
    ("top-level text", "just a game\n", SchemaError, [shown(
        "g.yaml:1:1: error: a game file is a mapping of sections (name:, players:, flow:, ...), "
        "not the text 'just a game'",
        "just a game",
        "^^^^^^^^^^^")]),
    ("missing name", variant("name: G\n", "description: no name\n"), SchemaError, [shown(
        "g.yaml:1:1: error: missing 'name' at the top level",
        "description: no name",
        "^^^^^^^^^^^^^^^^^^^^",
        "add a 'name:' entry")]),
    ("missing players", variant("players: {min: 2, max: 4}\n", ""), SchemaError, [shown(
        "g.yaml:1:1: error: missing 'players' at the top level",
        "name: G",
        "^^^^^^^",
        "add a 'players:' entry")]),
    ("missing flow", variant("flow:\n  phases:\n    - name: main\n      moves: [go]\n", ""), SchemaError, [shown(
        "g.yaml:1:1: error: missing 'flow' at the top level",
        "name: G",
        "^^^^^^^",
        "add a 'flow:' entry")]),
    ("unknown top-level key", variant("moves:\n", "move:\n"), SchemaError, [shown(
        "g.yaml:10:1: error: unknown key 'move' at the top level",
        "move:",
        "^^^^",
        "did you mean 'moves'?")]),
    ("wrong type", variant("{min: 2, max: 4}", "{min: two, max: 4}"), SchemaError, [shown(
        "g.yaml:2:16: error: expected a whole number, got the text 'two' in players.min",
        "players: {min: two, max: 4}",
        "               ^^^")]),
    ("a section of the wrong type", variant("players: {min: 2, max: 4}", "players: 3"), SchemaError, [shown(
        "g.yaml:2:10: error: expected a mapping (key: value lines), got the number 3 in players",
        "players: 3",
        "         ^")]),
    ("yes for a boolean", BASE + "dice: {count: 5, faces: 6, sorted: yes}\n", SchemaError, [shown(
        "g.yaml:16:36: error: expected true or false, got the text 'yes' in dice.sorted",
        "dice: {count: 5, faces: 6, sorted: yes}",
        "                                   ^^^",
        "'yes' is text here; write true or false")]),
    ("numbers out of range", BASE + "dice: {count: 0, faces: 1}\n", SchemaError, [
        shown("g.yaml:16:15: error: expected at least 1, got 0 in dice.count",
              "dice: {count: 0, faces: 1}",
              "              ^"),
        shown("g.yaml:16:25: error: expected at least 2, got 1 in dice.faces",
              "dice: {count: 0, faces: 1}",
              "                        ^")]),
    ("empty name", variant("name: G", "name: ''"), SchemaError, [shown(
        "g.yaml:1:7: error: expected at least one character in name",
        "name: ''",
        "      ^^")]),
    ("unknown key in players", variant("max: 4}", "max: 4, most: 6}"), SchemaError, [shown(
        "g.yaml:2:27: error: unknown key 'most' in players",
        "players: {min: 2, max: 4, most: 6}",
        "                          ^^^^",
        "allowed here: min, max, default, names")]),
    ("bad enum", variant("    - name: main\n", "    - name: main\n      turns: {order: clockwize}\n"),
     SchemaError, [shown(
         "g.yaml:9:22: error: 'clockwize' in flow.phases[0].turns.order is not one of: clockwise, counterclockwise",
         "      turns: {order: clockwize}",
         "                     ^^^^^^^^^",
         "did you mean 'clockwise' or 'counterclockwise'?")]),
    ("empty list of moves", variant("moves: [go]", "moves: []"), SchemaError, [shown(
        "g.yaml:9:14: error: expected at least one item in flow.phases[0].moves",
        "      moves: []",
        "             ^^")]),
    ("phase name not a name", variant("- name: main", "- name: 2nd"), SchemaError, [shown(
        "g.yaml:8:13: error: '2nd' is not a valid name in flow.phases[0].name",
        "    - name: 2nd",
        "            ^^^",
        "names start with a letter and use only letters, digits and _")]),
    ("unknown effect", variant("- add: {throws: 1}", "- sett: {throws: 1}"), SchemaError, [shown(
        "g.yaml:14:9: error: unknown effect 'sett'",
        "      - sett: {throws: 1}",
        "        ^^^^",
        "did you mean 'set'?")]),
    ("unknown effect word", variant("- end_turn", "- end-turn"), SchemaError, [shown(
        "g.yaml:15:9: error: unknown effect 'end-turn'",
        "      - end-turn",
        "        ^^^^^^^^",
        "did you mean 'end_turn'?")]),
    ("a number as an effect", variant("- end_turn", "- 3"), SchemaError, [shown(
        "g.yaml:15:9: error: expected an effect, got the number 3 in moves.go.do[1]",
        "      - 3",
        "        ^",
        "effects are: " + EFFECTS)]),
    ("an empty effect", variant("- end_turn", "- {}"), SchemaError, [shown(
        "g.yaml:15:9: error: an effect cannot be empty in moves.go.do[1]",
        "      - {}",
        "        ^^",
        "effects are: " + EFFECTS)]),
    ("two effects in one item", variant("- add: {throws: 1}", "- add: {throws: 1}\n        roll: dice"),
     SchemaError, [shown(
         "g.yaml:15:9: error: 'roll' starts another effect in moves.go.do[0]",
         "        roll: dice",
         "        ^^^^",
         "each effect is its own list item: start it on a new line as '- roll: ...'")]),
    ("effects not a list", variant("    do:\n      - add: {throws: 1}\n      - end_turn\n", "    do: end_turn\n"),
     SchemaError, [shown(
         "g.yaml:13:9: error: expected a list, got the text 'end_turn' in moves.go.do",
         "    do: end_turn",
         "        ^^^^^^^^")]),
    ("effect missing a key", variant("- add: {throws: 1}", "- move: stock.top"), SchemaError, [shown(
        "g.yaml:14:9: error: missing 'to' in moves.go.do[0]",
        "      - move: stock.top",
        "        ^^^^^^^^^^^^^^^",
        "add a 'to:' entry")]),
    ("bad value in an effect", variant("- add: {throws: 1}", "- flip: stock.top\n        face: sideways"),
     SchemaError, [shown(
         "g.yaml:15:15: error: 'sideways' in moves.go.do[0].face is not one of: up, down",
         "        face: sideways",
         "              ^^^^^^^^")]),
    ("bad for", variant("- add: {throws: 1}", "- for: p of players\n        do: [end_turn]"), SchemaError, [shown(
        "g.yaml:14:14: error: 'p of players' is not valid here in moves.go.do[0].for",
        "      - for: p of players",
        "             ^^^^^^^^^^^^",
        "write 'for: name in list', as in 'for: p in players'")]),
    ("empty set", variant("- add: {throws: 1}", "- set: {}"), SchemaError, [shown(
        "g.yaml:14:14: error: expected at least one entry in moves.go.do[0].set",
        "      - set: {}",
        "             ^^")]),
    ("bad parameter", variant("  go:\n", "  go:\n    params:\n      x: {}\n"), SchemaError, [shown(
        "g.yaml:13:10: error: expected exactly one of 'from' or 'subset_of' in moves.go.params.x",
        "      x: {}",
        "         ^^")]),
    ("unknown key in a move", variant("    when: throws < 3", "    whn: throws < 3"), SchemaError, [shown(
        "g.yaml:12:5: error: unknown key 'whn' in moves.go",
        "    whn: throws < 3",
        "    ^^^",
        "did you mean 'when'?")]),
    ("bad definition name", BASE + "define:\n  f(x,): x\n", SchemaError, [shown(
        "g.yaml:17:3: error: 'f(x,)' is not a valid name in define",
        "  f(x,): x",
        "  ^^^^^",
        "names start with a letter and use only letters, digits and _; a function is written name(a, b)")]),
    ("bad move name", variant("  go:", "  2go:"), SchemaError, [shown(
        "g.yaml:11:3: error: '2go' is not a valid name in moves",
        "  2go:",
        "  ^^^",
        "names start with a letter and use only letters, digits and _")]),

    # ---- declarations -------------------------------------------------------------------------------
    ("min greater than max", variant("{min: 2, max: 4}", "{min: 5, max: 4}"), SpecError, [shown(
        "g.yaml:2:16: error: players: min (5) is greater than max (4)",
        "players: {min: 5, max: 4}",
        "               ^")]),
    ("default players outside", variant("max: 4}", "max: 4, default: 6}"), SpecError, [shown(
        "g.yaml:2:36: error: players: default 6 is outside 2..4",
        "players: {min: 2, max: 4, default: 6}",
        "                                   ^")]),
    ("option default of the wrong kind", BASE + "options:\n  fast: {type: bool, default: 3}\n", SpecError, [shown(
        "g.yaml:17:31: error: option 'fast': the default must be true or false (type: bool), not the number 3",
        "  fast: {type: bool, default: 3}",
        "                              ^")]),
    ("option default yes", BASE + "options:\n  fast: {type: bool, default: 'yes'}\n", SpecError, [shown(
        "g.yaml:17:31: error: option 'fast': the default must be true or false (type: bool), not the text 'yes'",
        "  fast: {type: bool, default: 'yes'}",
        "                              ^^^^^",
        "'yes' is text here; write true or false")]),
    ("int option default true", BASE + "options:\n  target: {type: int, default: true}\n", SpecError, [shown(
        "g.yaml:17:32: error: option 'target': the default must be a whole number (type: int), not 'true'",
        "  target: {type: int, default: true}",
        "                               ^^^^")]),
    ("choice default not a choice", BASE + "options:\n  size:\n    type: choice\n    choices: [small, big]\n"
     "    default: huge\n", SpecError, [shown(
         "g.yaml:20:14: error: option 'size': the default 'huge' is not one of its choices",
         "    default: huge",
         "             ^^^^")]),
    ("choice without choices", BASE + "options:\n  size: {type: choice, default: big}\n", SpecError, [shown(
        "g.yaml:17:3: error: option 'size': a choice option needs 'choices'",
        "  size: {type: choice, default: big}",
        "  ^^^^")]),
    ("a name declared twice", BASE + "zones:\n  throws: {}\n", SpecError, [shown(
        "g.yaml:17:3: error: the name 'throws' is declared twice (first at line 5)",
        "  throws: {}",
        "  ^^^^^^",
        SHARED_NAMES)]),
    ("declared twice, the first one later in the file", "zones:\n  pile: {}\n" + BASE + "define:\n  pile: 1\n",
     SpecError, [shown(
         "g.yaml:19:3: error: the name 'pile' is declared twice (first at line 2)",
         "  pile: 1",
         "  ^^^^",
         SHARED_NAMES)]),

    # ---- names, types and references (the compiled game) ------------------------------------------
    ("phase names an unknown move", variant("moves: [go]", "moves: [go, goo]"), SpecError, [shown(
        "g.yaml:9:19: error: unknown move 'goo' in phase 'main'",
        "      moves: [go, goo]",
        "                  ^^^",
        "did you mean 'go'?")]),
    ("unknown variable in set", variant("- add: {throws: 1}", "- set: {thrown: 1}"), SpecError, [shown(
        "g.yaml:14:15: error: 'thrown' is not a variable",
        "      - set: {thrown: 1}",
        "              ^^^^^^",
        "did you mean 'throws'?")]),
    ("unknown variable, nothing close", variant("- add: {throws: 1}", "- add: {score: 1}"), SpecError, [shown(
        "g.yaml:14:15: error: 'score' is not a variable",
        "      - add: {score: 1}",
        "              ^^^^^",
        "declare it under variables:")]),
    ("unknown name in when", variant("when: throws < 3", "when: thorws < 3"), ExprCheckError, [shown(
        "g.yaml:12:11: error: unknown name 'thorws'",
        "    when: thorws < 3",
        "          ^^^^^^",
        "did you mean 'throws'?")]),
    ("type error in a move", variant("when: throws < 3", "when: throws < \"3\""), ExprCheckError, [shown(
        "g.yaml:12:11: error: cannot compare int and str",
        "    when: throws < \"3\"",
        "          ^^^^^^^^^^^^")]),
    ("a number compared with a text", variant("when: throws < 3", "when: throws == 'one'"), ExprCheckError, [shown(
        "g.yaml:12:11: error: '==' compares int with str: they are never equal",
        "    when: throws == 'one'",
        "          ^^^^^^^^^^^^^^^")]),
    ("an if effect comparing a seat with a number", variant("- add: {throws: 1}", "- if: current != 1\n        then: [end_turn]"),
     ExprCheckError, [shown(
        "g.yaml:14:13: error: '!=' compares seat with int: they are never equal",
        "      - if: current != 1",
        "            ^^^^^^^^^^^^")]),
    ("a list where an expression is expected", variant("- add: {throws: 1}", "- add: {throws: [1, 2]}"),
     SchemaError, [shown(
        "g.yaml:14:23: error: expected an expression, got a list in moves.go.do[0].add.throws",
        "      - add: {throws: [1, 2]}",
        "                      ^^^^^^",
        "a list in an expression is written inside it: quote the whole of it, as '[1, 2]'")]),
    ("a list where an expression is expected, in an effect of an effect",
     variant("- add: {throws: 1}", "- if: throws > 1\n        then:\n          - set: {throws: []}"),
     SchemaError, [shown(
        "g.yaml:16:27: error: expected an expression, got a list in moves.go.do[0].then[0].set.throws",
        "          - set: {throws: []}",
        "                          ^^",
        "a list in an expression is written inside it: quote the whole of it, as '[]'")]),
    ("when is not a condition", variant("when: throws < 3", "when: throws + 1"), ExprCheckError, [shown(
        "g.yaml:12:11: error: expected bool, got int",
        "    when: throws + 1",
        "          ^^^^^^^^^^")]),
    ("syntax error in a define", BASE + "define:\n  half: 'throws / (2'\n", ExprSyntaxError, [shown(
        "g.yaml:17:21: error: unexpected end of expression: expected ')' or ',' after '2'",
        "  half: 'throws / (2'",
        "                    ^")]),
    ("recursion between definitions", BASE + "define:\n  a: b + 1\n  b: a + 1\n", ExprCheckError, [shown(
        "g.yaml:18:6: error: recursion is not allowed: a -> b -> a",
        "  b: a + 1",
        "     ^",
        "a defined function may not call itself, directly or through others")]),
    ("a function called with too many arguments", BASE + "define:\n  inc(x): x + 1\n  two: inc(1, 2)\n",
     ExprCheckError, [shown(
         "g.yaml:18:8: error: inc() takes 1 argument (2 given)",
         "  two: inc(1, 2)",
         "       ^^^^^^^^^")]),
    ("unknown zone in deal", variant("- add: {throws: 1}", "- deal: 3\n        to: hnad") + "zones:\n  hand: {per: seat}\n",
     SpecError, [shown(
         "g.yaml:15:13: error: unknown zone 'hnad'",
         "        to: hnad",
         "            ^^^^",
         "did you mean 'hand'?")]),
    ("deal to a shared zone", variant("- add: {throws: 1}", "- deal: 3\n        to: pile") + "zones:\n  pile: {}\n",
     SpecError, [shown(
         "g.yaml:15:13: error: zone 'pile' must be one per seat",
         "        to: pile",
         "            ^^^^",
         "declare it with 'per: seat' under zones:")]),
    ("unknown name in a log template", variant("- add: {throws: 1}", "- log: 'now {thorws} throws'"),
     ExprCheckError, [shown(
         "g.yaml:14:20: error: unknown name 'thorws'",
         "      - log: 'now {thorws} throws'",
         "                   ^^^^^^",
         "did you mean 'throws'?")]),
    ("unknown name in a for", variant("- add: {throws: 1}", "- for: p in playrs\n        do: [end_turn]"),
     ExprCheckError, [shown(
         "g.yaml:14:19: error: unknown name 'playrs'",
         "      - for: p in playrs",
         "                  ^^^^^^",
         "did you mean 'players'?")]),
    ("unknown name on a later line of a folded text", variant("when: throws < 3", "when: >-\n      throws < 3 and\n"
                                                              "      round > thorws"), ExprCheckError, [shown(
        "g.yaml:14:15: error: unknown name 'thorws'",
        "      round > thorws",
        "              ^^^^^^",
        "did you mean 'throws'?")]),
]


@pytest.mark.parametrize("text, kind, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_game_files_give_these_errors(text, kind, expected):
    errors = errors_of(text)
    assert [e.render() for e in errors] == expected
    assert all(type(e) is kind for e in errors)


def test_the_base_game_is_valid():
    assert load_game("g.yaml", text=BASE).name == "G"


def test_every_structure_error_is_reported_in_line_order():
    text = variant("name: G", "name: 7").replace("{min: 2, max: 4}", "{min: two, max: 4}") \
        .replace("- end_turn", "- end-turn") + "bot: {hnt: total}\n"
    assert [e.headline() for e in errors_of(text)] == [
        "g.yaml:1:7: error: expected text, got the number 7 in name",
        "g.yaml:2:16: error: expected a whole number, got the text 'two' in players.min",
        "g.yaml:15:9: error: unknown effect 'end-turn'",
        "g.yaml:16:7: error: unknown key 'hnt' in bot",
    ]


def test_every_declaration_error_is_reported_in_line_order():
    text = variant("{min: 2, max: 4}", "{min: 5, max: 4}") + (
        "zones:\n  throws: {}\n"
        "options:\n  fast: {type: bool, default: 1}\n  throws: {type: int, default: 2}\n")
    assert [e.headline() for e in errors_of(text)] == [
        "g.yaml:2:16: error: players: min (5) is greater than max (4)",
        "g.yaml:17:3: error: the name 'throws' is declared twice (first at line 5)",
        "g.yaml:19:31: error: option 'fast': the default must be true or false (type: bool), not the number 1",
        "g.yaml:20:3: error: the name 'throws' is declared twice (first at line 5)",
    ]


def test_every_semantic_error_is_reported_in_line_order():
    text = (variant("moves: [go]", "moves: [go, stop]")
            .replace("when: throws < 3", "when: thorws < 3")
            .replace("- add: {throws: 1}", "- add: {score: 1}")
            + "scoring:\n  score: throws + \"a\"\ndefine:\n  bad: '(1'\n")
    errors = errors_of(text)
    assert [e.headline() for e in errors] == [
        "g.yaml:9:19: error: unknown move 'stop' in phase 'main'",
        "g.yaml:12:11: error: unknown name 'thorws'",
        "g.yaml:14:15: error: 'score' is not a variable",
        "g.yaml:17:10: error: cannot add int and str",
        "g.yaml:19:11: error: unexpected end of expression: expected ')' or ',' after '1'",
    ]
    assert [type(e) for e in errors] == [SpecError, ExprCheckError, SpecError, ExprCheckError, ExprSyntaxError]


def test_several_errors_come_as_one_error_list_whose_headline_names_them_all():
    with pytest.raises(ErrorList) as caught:
        load_game("g.yaml", text=variant("{min: 2, max: 4}", "{min: 5, max: 4}") + "zones:\n  throws: {}\n")
    assert caught.value.headline() == (
        "g.yaml:2:16: error: players: min (5) is greater than max (4)\n"
        "g.yaml:17:3: error: the name 'throws' is declared twice (first at line 5)")


def test_an_error_inside_a_set_target_key_points_into_the_key():
    text = BASE.replace("- add: {throws: 1}", '- set: {"throws[thorws]": 1}')
    assert [e.headline() for e in errors_of(text)] == ["g.yaml:14:23: error: unknown name 'thorws'"]


def test_a_when_written_as_true_loads():
    load_game("g.yaml", text=variant("when: throws < 3", "when: true"))


def test_option_ranges_and_choices_are_checked():
    text = variant("players: {min: 2, max: 4}", "players: {min: 2, max: 4}\noptions:\n"
                        "  n: {type: int, default: 5, min: 6, max: 9}\n"
                        "  k: {type: int, default: 5, min: 9, max: 1}\n"
                        "  m: {type: bool, default: true, choices: [1]}")
    assert [e.headline() for e in errors_of(text)] == [
        "g.yaml:4:27: error: option 'n': the default 5 is outside 6..9",
        "g.yaml:5:35: error: option 'k': min (9) is greater than max (1)",
        "g.yaml:6:34: error: option 'm': 'choices' is only for options of type: choice",
    ]


def test_the_flow_names_and_built_in_functions_cannot_be_declared_again():
    text = variant("    throws: 0\n", "    throws: 0\n    round: 1\n    sum: 2\n")
    assert [e.render() for e in errors_of(text)][0].endswith(
        "hint: the flow's own names are current, dice, me, phase, player_count, players, round, turn; choose another")
    assert [e.message for e in errors_of(text)] == [
        "'round' is a name every game has already", "'sum' is the name of a built-in function"]


def test_a_member_of_a_parameter_over_seats_is_checked_at_load():
    # A parameter drawn from a list of seats (or cards) has that type: a misspelt member of it
    # is found when the game loads, not when the move is first tried.
    text = variant("    when: throws < 3\n", "    params:\n      p: {from: players}\n    when: p.indx < 3\n")
    (error,) = errors_of(text)
    assert error.headline() == "g.yaml:14:13: error: seat has no member 'indx'"
    assert error.hint == "did you mean 'index'?"


def test_a_member_of_a_loop_variable_over_seats_is_checked_at_load():
    text = variant("      - add: {throws: 1}\n",
                   "      - for: p in players\n        do:\n          - set: {throws: p.indx}\n")
    (error,) = errors_of(text)
    assert error.headline() == "g.yaml:16:29: error: seat has no member 'indx'"
