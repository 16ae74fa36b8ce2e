"""Exact values for every construct of the expression language."""
from dataclasses import dataclass

import pytest

from interpreter.errors import EvalError
from interpreter.expr import (
    ANY,
    INT,
    STR,
    Binding,
    ListOf,
    Member,
    ObjectType,
    Scope,
    UserFunction,
    compile_expression,
    compile_functions,
    register_object_type,
)


@dataclass(frozen=True)
class Card:
    rank: int
    suit: str


CARD = ObjectType("card", {"rank": Member(INT, lambda c: c.rank, "the rank"),
                           "suit": Member(STR, lambda c: c.suit, "the suit")})
register_object_type(Card, CARD)

HAND = [Card(12, "h"), Card(3, "s"), Card(12, "d")]
SCOPE = Scope(
    names={
        "dice": Binding(ListOf(INT), lambda ctx: ctx["dice"]),
        "hand": Binding(ListOf(CARD), lambda ctx: ctx["hand"]),
        "loose": Binding(ANY, lambda ctx: ctx["loose"]),
        "sheet": Binding(ANY, lambda ctx: {"ones": 3, "twos": None}),
    },
    locals={"n": INT},
)
CTX = {"dice": [6, 2, 6, 1, 5], "hand": HAND, "loose": Card(7, "c")}


def run(text, env=None):
    return compile_expression(text, SCOPE)(CTX, env or {"n": 4})


@pytest.mark.parametrize("text, value", [
    # literals
    ("42", 42), ("1.5", 1.5), ('"text"', "text"), ("'text'", "text"), (r'"a\"b\\c\nd"', 'a"b\\c\nd'),
    (r"'it\'s'", "it's"), ("true", True), ("false", False), ("none", None), ("[1, 2, 3]", [1, 2, 3]),
    ("[]", []), ('{"ones": 1, "twos": 2}', {"ones": 1, "twos": 2}), ("{1: 'a', 2: 'b'}", {1: "a", 2: "b"}),
    ("{}", {}), ("1..6", [1, 2, 3, 4, 5, 6]), ("3..2", []), ("[1, 2,]", [1, 2]),
    # arithmetic
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("7 - 2 - 1", 4), ("7 / 2", 3.5), ("6 / 2", 3), ("7 // 2", 3),
    ("-7 // 2", -4), ("7 % 3", 1), ("-n", -4), ("--3", 3), ("1.5 + 1", 2.5), ('"ab" + "cd"', "abcd"),
    ("[1] + [2, 3]", [1, 2, 3]), ("2 * -3", -6), ("n * n - 1", 15),
    # comparison and membership
    ("1 < 2", True), ("2 <= 2", True), ("3 > 4", False), ("3 >= 4", False), ("1 == 1.0", True),
    ("1 != 2", True), ("1 <= n <= 6", True), ("1 <= 7 <= 6", False), ("1 < 2 < 3 < 2", False),
    ("6 in dice", True), ("3 not in dice", True), ('"b" in "abc"', True), ('"ones" in sheet', True),
    ('"ab" < "b"', True), ("[1, 2] < [1, 3]", True),
    # boolean logic and conditionals
    ("true and false", False), ("true or false", True), ("not true", False), ("not 1 > 2", True),
    ("false and loose.missing", False), ("true or loose.missing", True), ("true and true and false", False),
    ("false or false or true", True), ("if n > 3 then 'big' else 'small'", "big"),
    ("if n > 9 then 1 else if n > 3 then 2 else 3", 2),
    # access
    ("dice[0]", 6), ("dice[-1]", 5), ("dice[1:3]", [2, 6]), ("dice[:2]", [6, 2]), ("dice[3:]", [1, 5]),
    ("dice[:]", [6, 2, 6, 1, 5]), ('"hello"[1:3]', "el"), ("hand[0].rank", 12), ("hand[1].suit", "s"),
    ("loose.rank", 7), ("sheet.ones", 3), ('sheet["twos"]', None), ('{"a": {"b": 5}}.a.b', 5),
    # comprehensions, generators, lambdas
    ("[d * 2 for d in dice if d > 4]", [12, 12, 10]), ("[c.suit for c in hand if c.rank == 12]", ["h", "d"]),
    ("[x + y for x in 1..2 for y in [10, 20]]", [11, 21, 12, 22]),
    ("[x for x in 1..6 if x > 1 if x < 4]", [2, 3]), ("[k for k in {'a': 1, 'b': 2}]", ["a", "b"]),
    ("sum(d for d in dice if d == 6)", 12), ("any(d == 1 for d in dice)", True),
    ("all(d > 1 for d in dice)", False), ("max_by(hand, c => c.rank).suit", "h"),
    ("min_by(hand, c => c.rank).suit", "s"),
    ("sorted_by(hand, c => c.suit)[0].suit", "d"),
])
def test_value(text, value):
    assert run(text) == value


def test_division_gives_an_int_when_exact():
    assert type(run("6 / 3")) is int
    assert type(run("1.5 * 2")) is float


def test_lambda_value_can_be_called_by_the_host():
    add = run("(a, b) => a + b")
    assert add(2, 3) == 5
    with pytest.raises(EvalError) as caught:
        add(1)
    assert caught.value.message == "function takes 2 parameters (1 given)"


def test_locals_of_comprehension_do_not_leak_and_inputs_are_not_mutated():
    dice = [3, 1, 2]
    ctx = {**CTX, "dice": dice}
    compiled = compile_expression("[sorted(dice), reversed(dice), without(dice, [1])]", SCOPE)
    assert compiled(ctx) == [[1, 2, 3], [2, 1, 3], [3, 2]]
    assert dice == [3, 1, 2]


def test_constant_lists_are_fresh_each_evaluation():
    compiled = compile_expression("[1, 2]", SCOPE)
    first = compiled(CTX)
    first.append(3)
    assert compiled(CTX) == [1, 2]


def test_types_are_inferred():
    types = {text: str(compile_expression(text, SCOPE).type) for text in
             ["1 + 2", "1 / 2", '"a" + "b"', "dice", "[c.rank for c in hand]", "counts(dice)", "hand[0]",
              "n > 1", "loose.rank", "if true then 1 else 2.5", "x => x"]}
    assert types == {
        "1 + 2": "int", "1 / 2": "number", '"a" + "b"': "str", "dice": "list of int",
        "[c.rank for c in hand]": "list of int", "counts(dice)": "map of int to int", "hand[0]": "card",
        "n > 1": "bool", "loose.rank": "any", "if true then 1 else 2.5": "number", "x => x": "function",
    }


def test_user_functions_call_each_other_in_any_order():
    defs = {
        "pair_score": UserFunction("pair_score", ["v"], "2 * v + bonus"),
        "bonus": UserFunction("bonus", [], "count(dice, 6)"),
        "best": UserFunction("best", ["xs", "f"], "max_by(xs, f)"),
    }
    compiled = compile_functions(defs, SCOPE)
    assert sorted(compiled) == ["best", "bonus", "pair_score"]
    scope = SCOPE.child(functions=defs)
    assert compile_expression("pair_score(5) + bonus", scope)(CTX) == 14
    assert compile_expression("best(dice, d => -d)", scope)(CTX) == 1


def test_function_bodies_do_not_see_callers_locals():
    defs = {"f": UserFunction("f", ["x"], "x + n")}
    with pytest.raises(Exception) as caught:
        compile_functions(defs, SCOPE)
    assert caught.value.message == "unknown name 'n'"


def test_child_scope_adds_locals_and_names():
    scope = SCOPE.child(locals={"k": INT}, names={"seven": Binding(INT, lambda ctx: 7)})
    assert compile_expression("k * seven + n", scope)(CTX, {"k": 2, "n": 1}) == 15
    assert "k" not in SCOPE.locals


def test_registry_extension_does_not_touch_the_shared_registry():
    from interpreter.expr import BUILTINS, Param

    registry = BUILTINS.extended()
    registry.register("double", [Param("x", INT)], INT, "Twice x.", lambda x: 2 * x, example="double(2) → 4")
    registry.register("seat_count", [], INT, "Seats in play.", lambda ctx: len(ctx["dice"]), needs_ctx=True)
    scope = SCOPE.child(registry=registry)
    assert compile_expression("double(seat_count())", scope)(CTX) == 10
    assert BUILTINS.get("double") is None


def test_raw_closure_evaluates_without_wrapping():
    compiled = compile_expression("n + 1", SCOPE)
    assert compiled.fn(CTX, {"n": 1}) == 2
    assert compiled.text == "n + 1" and str(compiled.pos) == "<expression>:1:1"
