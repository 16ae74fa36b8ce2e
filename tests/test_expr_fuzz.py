"""Whatever text comes in, only the product's own errors come out, in bounded time."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.errors import RulesError
from interpreter.expr import (
    ANY,
    INT,
    Binding,
    ListOf,
    Scope,
    UserFunction,
    compile_expression,
)

SCOPE = Scope(
    names={"dice": Binding(ListOf(INT), lambda ctx: [6, 2, 6, 0]), "n": Binding(INT, lambda ctx: 0),
           "thing": Binding(ANY, lambda ctx: {"a": [1, "x", None], "b": 0})},
    locals={"k": ANY},
    functions={"double": UserFunction("double", ["v"], "v * 2"), "total": UserFunction("total", [], "sum(dice)")},
)
ALPHABET = "abdeikn xyz_019.,:;()[]{}+-*/%<>=!'\"\\\n\té=> "
TOKENS = ["dice", "n", "thing", "k", "double", "total", "len", "sum", "max_by", "range", "count", "sorted", "x",
          "0", "1", "7", "99999", "2.5", '"s"', "'t'", "true", "none", "[", "]", "(", ")", "{", "}", ",", ":", ".",
          "..", "+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">=", "in", "not", "and", "or", "if", "then",
          "else", "for", "=>", "_x", "a", "\"", "a"]
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def compile_and_run(text):
    try:
        compiled = compile_expression(text, SCOPE)
        result = compiled(None, {"k": [1, 2]})
        if callable(result):
            result(1)
    except RulesError:
        pass


@SETTINGS
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_random_text_raises_only_rules_errors(text):
    compile_and_run(text)


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=25))
def test_random_token_sequences_raise_only_rules_errors(tokens):
    compile_and_run(" ".join(tokens))


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=25))
def test_random_token_sequences_without_spaces_raise_only_rules_errors(tokens):
    compile_and_run("".join(tokens))


def _grow(inner):
    binary = st.sampled_from(["+", "-", "*", "/", "//", "%", "==", "<", "in", "not in", "and", "or", ".."])
    calls = st.sampled_from(["len", "sum", "max", "sorted", "unique", "first", "counts", "str", "abs", "round",
                             "double", "reversed", "any", "keys", "flatten", "int"])
    return st.one_of(
        st.tuples(inner, binary, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"(not {e})"),
        inner.map(lambda e: f"-({e})"),
        st.tuples(calls, inner).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}:]"),
        st.tuples(inner, inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]} for x in {t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"max_by({t[0]}, x => {t[1]})"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(inner, inner).map(lambda t: "{" + f"{t[0]}: {t[1]}" + "}"),
    )


WELL_FORMED = st.recursive(
    st.sampled_from(["dice", "n", "thing", "k", "total", "x", "0", "1", "-3", "2.5", '"s"', "true", "none", "[]",
                     "thing.a", "thing.b", "1..5", "99999"]),
    _grow, max_leaves=12)


@SETTINGS
@given(WELL_FORMED)
def test_well_formed_expressions_raise_only_rules_errors(text):
    compile_and_run(text)
