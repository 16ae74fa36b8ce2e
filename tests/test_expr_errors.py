"""Bad expressions: exact messages, positions and hints, at load time and at run time."""
from dataclasses import dataclass

import pytest

from interpreter.errors import (
    ErrorList,
    EvalError,
    ExprCheckError,
    ExprSyntaxError,
    LimitError,
    Position,
    Source,
)
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
)


@dataclass(frozen=True)
class Token:
    rank: int


PIECE = ObjectType("piece", {"rank": Member(INT, lambda p: p.rank), "colour": Member(STR, lambda p: "red")})
SCOPE = Scope(names={
    "throws": Binding(INT, lambda ctx: 2),
    "dice": Binding(ListOf(INT), lambda ctx: [1, 2, 3]),
    "pieces": Binding(ListOf(PIECE), lambda ctx: [Token(1)]),
    "x": Binding(ANY, lambda ctx: ctx),
})

LOAD_ERRORS = [
    # (text, error class, message, column, width, hint)
    ("1 +", ExprSyntaxError, "unexpected end of expression: expected a value after '+'", 4, 1, None),
    ('"abc', ExprSyntaxError, "unterminated string", 1, 4, 'close it with "'),
    ("a b", ExprSyntaxError, "unexpected name 'b' after 'a'", 3, 1, None),
    ("", ExprSyntaxError, "empty expression", 1, 1, None),
    (")", ExprSyntaxError, "unexpected ')' at the start: expected a value", 1, 1, None),
    ("[1, 2", ExprSyntaxError, "unexpected end of expression: expected ']' or ',' after '2'", 6, 1, None),
    ("f(1 2)", ExprSyntaxError, "unexpected number 2 after '1': expected ')' or ','", 5, 1,
     "separate items with ','"),
    ("if throws then 1", ExprSyntaxError, "unexpected end of expression: expected 'else' after '1'", 17, 1, None),
    ("[d for d dice]", ExprSyntaxError, "unexpected name 'dice' after 'd': expected 'in'", 10, 4, None),
    ('{"a" 1}', ExprSyntaxError, "unexpected number 1 after '\"a\"': expected ':'", 6, 1, None),
    ("x if throws else 1", ExprSyntaxError, "unexpected 'if' after 'x'", 3, 2,
     "write 'if condition then a else b': the condition comes first"),
    ("2 ** 3", ExprSyntaxError, "unexpected '*' after '*': expected a value", 4, 1,
     "there is no power operator: multiply, or use product()"),
    ("lambda d: d", ExprSyntaxError, "unexpected name 'd' after 'lambda'", 8, 1, "write a function as 'x => ...'"),
    ("throws = 3", ExprSyntaxError, "unexpected character '='", 8, 1, "use '==' to compare"),
    ("x && x", ExprSyntaxError, "unexpected character '&'", 3, 1, "use 'and'"),
    ('"a\\q"', ExprSyntaxError, "unknown escape '\\q' in string", 3, 2, 'use \\" \\\' \\\\ \\n or \\t'),
    ("(1, 2)", ExprSyntaxError, "a list in parentheses is only allowed before '=>'", 1, 6, "use [a, b] for a list"),
    ("(d, 1) => d", ExprSyntaxError, "the left side of '=>' must be a name or names in parentheses", 1, 6,
     "write 'x => ...' or '(a, b) => ...'"),
    ("cnt(dice, 6)", ExprCheckError, "unknown function 'cnt'", 1, 3, "did you mean 'count', 'int' or 'counts'?"),
    ("count(dice)", ExprCheckError, "count() takes 2 arguments (1 given)", 1, 11, None),
    ("join(dice, ',', 1)", ExprCheckError, "join() takes 1 or 2 arguments (3 given)", 1, 18, None),
    ("__import__('os')", ExprCheckError, "names may not begin with '_'", 1, 10, None),
    ("x.__class__", ExprCheckError, "names may not begin with '_'", 3, 9, None),
    ("thorws + 1", ExprCheckError, "unknown name 'thorws'", 1, 6, "did you mean 'throws'?"),
    ("1 + \"a\"", ExprCheckError, "cannot add int and str", 1, 7, None),
    ("true * 2", ExprCheckError, "cannot multiply bool and int", 1, 8, None),
    ("not 3", ExprCheckError, "'not' needs a bool, got int", 1, 5, None),
    ("throws and true", ExprCheckError, "'and' needs bool operands, got int", 1, 6, None),
    ("if throws then 1 else 2", ExprCheckError, "the condition of 'if' must be a bool, got int", 4, 6, None),
    ("1 < 'a'", ExprCheckError, "cannot compare int and str", 1, 7, None),
    ("3 .x", ExprCheckError, "int has no member 'x'", 4, 1, None),
    ("pieces[0].rnak", ExprCheckError, "piece has no member 'rnak'", 11, 4, "did you mean 'rank'?"),
    ("max_by(pieces, p => p.rnak)", ExprCheckError, "piece has no member 'rnak'", 23, 4, "did you mean 'rank'?"),
    ("len(3)", ExprCheckError, "argument 1 of len() must be list, map or str, not int", 5, 1, None),
    ("sorted_by(dice, (a, b) => a)", ExprCheckError,
     "the function given to sorted_by() must take 1 parameter, not 2", 17, 11, None),
    ("throws(1)", ExprCheckError, "'throws' is not a function", 1, 9, None),
    ("len", ExprCheckError, "'len' is a function", 1, 3, "call it: len(...)"),
    ("[d for d in throws]", ExprCheckError, "cannot loop over int", 13, 6, None),
    ("[d for d in dice if d]", ExprCheckError, "the condition after 'if' must be a bool, got int", 21, 1, None),
    ("dice['a']", ExprCheckError, "an index must be an int, got str", 6, 3, None),
    ("{[1]: 2}", ExprCheckError, "map keys must be strings or ints, got list of int", 2, 3, None),
    ("'a'..3", ExprCheckError, "the ends of a range must be ints, got str", 1, 3, None),
    ("(" * 61 + "1" + ")" * 61, LimitError, "expression nested too deeply (more than 60 levels)", 2, 121,
     "split it up, for example with a defined function"),
    ("1" * 19, LimitError, "number has 19 digits (limit 18)", 1, 19, None),
]


@pytest.mark.parametrize("text, kind, message, col, width, hint", LOAD_ERRORS, ids=[c[0][:20] for c in LOAD_ERRORS])
def test_load_error(text, kind, message, col, width, hint):
    with pytest.raises(kind) as caught:
        compile_expression(text, SCOPE)
    error = caught.value
    assert (error.message, error.pos.line, error.pos.col, error.pos.width, error.hint) == \
        (message, 1, col, width, hint)


def test_at_least_25_distinct_bad_expressions():
    assert len({case[0] for case in LOAD_ERRORS}) >= 25


def test_2000_deep_nesting_is_a_clean_limit_error():
    text = "(" * 1999 + "1" + ")" * 1999
    assert len(text) <= 4000
    with pytest.raises(LimitError) as caught:
        compile_expression(text, SCOPE)
    assert caught.value.message == "expression nested too deeply (more than 60 levels)"


def test_long_operator_chains_are_flat_not_deep():
    assert compile_expression("+".join(["1"] * 1500), SCOPE)(None) == 1500
    assert compile_expression(" and ".join(["true"] * 400), SCOPE)(None) is True


@pytest.mark.parametrize("text", ["-" * 100 + "1", "x" + ".a" * 100, "not " * 100 + "true",
                                  "[" * 100 + "]" * 100])
def test_deep_prefix_and_postfix_chains_hit_the_depth_limit(text):
    with pytest.raises(LimitError) as caught:
        compile_expression(text, SCOPE)
    assert caught.value.message == "expression nested too deeply (more than 60 levels)"


def test_5000_digit_literal_is_refused_before_parsing():
    with pytest.raises(LimitError) as caught:
        compile_expression("9" * 5000, SCOPE)
    assert caught.value.message == "expression too long: 5000 characters (limit 4000)"


def test_all_check_errors_are_reported_together_in_order():
    with pytest.raises(ErrorList) as caught:
        compile_expression("[thorws, cnt(1), (not 3)]", SCOPE)
    assert caught.value.headline() == "\n".join([
        "<expression>:1:2: error: unknown name 'thorws'",
        "<expression>:1:10: error: unknown function 'cnt'",
        "<expression>:1:18: error: 'not' needs a bool, got int",
    ])


def test_expected_type_from_the_caller():
    with pytest.raises(ExprCheckError) as caught:
        compile_expression("throws + 1", SCOPE, expect=ListOf(INT))
    assert caught.value.message == "expected list of int, got int"


def test_render_points_into_the_file_through_the_locator():
    source = Source.from_text("games/x.yaml", "rules:\n  when: thorws < 3\n")

    def locate(offset, width):
        return Position(source, 2, 9 + offset, width)

    with pytest.raises(ExprCheckError) as caught:
        compile_expression("thorws < 3", SCOPE, locate)
    assert caught.value.render() == "\n".join([
        "games/x.yaml:2:9: error: unknown name 'thorws'",
        "    2 |   when: thorws < 3",
        "      |         ^^^^^^",
        "hint: did you mean 'throws'?",
    ])


RUN_ERRORS = [
    # (text, error class, message, column, width)
    ("throws / (throws - 2)", EvalError, "division by zero", 1, 21),
    ("throws % 0 + 1", EvalError, "division by zero", 1, 10),
    ("dice[1] + dice[5]", EvalError, "index 5 out of range for a list of length 3", 11, 7),
    ("x.missing", EvalError, "no key 'missing' in map", 1, 9),
    ("x.k.rank", EvalError, "int has no member 'rank'", 1, 8),
    ("x + 1", EvalError, "cannot add map and int", 1, 5),
    ("not x.k", EvalError, "the operand of 'not' must be a bool, got int", 5, 3),
    ("x.k < 'a'", EvalError, "cannot compare int and str", 1, 9),
    ("range(0, 1000000000)", LimitError, "range too long: 1000000000 elements (limit 100000)", 1, 20),
    ("len(dice + range(0, 99999))", LimitError, "list too long: 100002 elements (limit 100000)", 5, 22),
    ("throws * 1000000000 * 1000000000", LimitError, "number too large: magnitude over 1000000000000000000", 1, 32),
    ("[d for d in 1..1000 for e in 1..1000 if d > e]", LimitError,
     "expression takes too many steps (limit 1000000)", 1, 46),
]


@pytest.mark.parametrize("text, kind, message, col, width", RUN_ERRORS, ids=[c[0][:20] for c in RUN_ERRORS])
def test_run_error(text, kind, message, col, width):
    compiled = compile_expression(text, SCOPE)
    with pytest.raises(kind) as caught:
        compiled({"k": 3})
    error = caught.value
    assert (error.message, error.pos.col, error.pos.width) == (message, col, width)


def test_raw_closure_errors_also_carry_positions():
    compiled = compile_expression("1 + dice[7]", SCOPE)
    with pytest.raises(EvalError) as caught:
        compiled.fn(None, {})
    assert str(caught.value) == "<expression>:1:5: error: index 7 out of range for a list of length 3"


def test_recursion_between_defined_functions_names_the_cycle():
    defs = {
        "a": UserFunction("a", ["n"], "b(n) + 1"),
        "b": UserFunction("b", ["n"], "c(n)"),
        "c": UserFunction("c", ["n"], "a(n - 1)"),
        "ok": UserFunction("ok", [], "2"),
    }
    with pytest.raises(ExprCheckError) as caught:
        compile_functions(defs, SCOPE)
    assert caught.value.message == "recursion is not allowed: a -> b -> c -> a"
    assert caught.value.hint == "a defined function may not call itself, directly or through others"


def test_direct_recursion_and_errors_in_bodies():
    with pytest.raises(ExprCheckError) as caught:
        compile_functions({"f": UserFunction("f", [], "f + 1")}, SCOPE)
    assert caught.value.message == "recursion is not allowed: f -> f"
    defs = {"f": UserFunction("f", ["v"], "v +"), "g": UserFunction("g", [], "f(1)")}
    with pytest.raises(ExprSyntaxError) as caught:
        compile_functions(defs, SCOPE)
    assert caught.value.message == "unexpected end of expression: expected a value after '+'"


def test_calling_a_defined_function_wrongly():
    scope = SCOPE.child(functions={"pair": UserFunction("pair", ["a", "b"], "a + b")})
    with pytest.raises(ExprCheckError) as caught:
        compile_expression("pair(1)", scope)
    assert caught.value.message == "pair() takes 2 arguments (1 given)"
    with pytest.raises(ExprCheckError) as caught:
        compile_expression("pair", scope)
    assert (caught.value.message, caught.value.hint) == ("'pair' is a function of 2 parameters", "call it: pair(a, b)")


def test_run_time_failure_in_a_defined_function_points_into_its_body():
    body = Source.from_text("games/x.yaml", "define:\n  half(v): v / (v - v)\n")
    defs = {"half": UserFunction("half", ["v"], "v / (v - v)", lambda off, w: Position(body, 2, 12 + off, w))}
    compiled = compile_expression("half(2)", SCOPE.child(functions=defs))
    with pytest.raises(EvalError) as caught:
        compiled(None)
    assert str(caught.value) == "games/x.yaml:2:12: error: division by zero"
