"""Every built-in: its documented example, more exact values, and its failures."""
import re
from pathlib import Path

import pytest

from interpreter.errors import EvalError, LimitError
from interpreter.expr import BUILTINS, Scope, compile_expression

SCOPE = Scope()
DOC = Path(__file__).resolve().parents[1] / "docs" / "language.md"


def run(text):
    return compile_expression(text, SCOPE)(None)


@pytest.mark.parametrize("builtin", BUILTINS.all(), ids=lambda b: b.name)
def test_documented_example_holds(builtin):
    call, result = builtin.example.split(" → ")
    assert run(call) == run(result)


def test_every_builtin_is_documented_with_signature_and_example():
    doc = DOC.read_text(encoding="utf-8")
    headings = re.findall(r"^#### (\w+)$", doc, re.MULTILINE)
    assert sorted(headings) == BUILTINS.names()
    for builtin in BUILTINS.all():
        section = doc.split(f"#### {builtin.name}\n", 1)[1].split("\n#### ", 1)[0]
        assert f"`{builtin.signature}`" in section
        assert builtin.doc in section
        assert builtin.example in section


@pytest.mark.parametrize("text, value", [
    ("len('abc')", 3), ("len({'a': 1})", 1), ("sum([])", 0), ("sum([1.5, 1])", 2.5), ("product([])", 1),
    ("min(3, 1, 2)", 1), ("max([2.5, 1])", 2.5), ("abs(-2.5)", 2.5), ("count([], 1)", 0),
    ("counts([3, 1, 3])", {3: 2, 1: 1}), ("sorted(['b', 'a'])", ["a", "b"]),
    ("sorted_by([[2, 'x'], [1, 'y'], [2, 'z']], p => p[0])", [[1, "y"], [2, "x"], [2, "z"]]),
    ("unique([[1], [1], [2]])", [[1], [2]]), ("any([])", False), ("all([])", True), ("range(3, 3)", []),
    ("max_by([1, 3, 3], x => x % 3 == 0)", 3), ("sum_by([], x => x)", 0), ("floor(-1.5)", -2), ("ceil(-1.5)", -1),
    ("round(-2.5)", -3), ("round(2.4)", 2), ("int(-2.7)", -2), ("int(' 7 ')", 7), ("str('a')", "a"),
    ("str(none)", "none"), ("str(true)", "true"), ("str([1, 'a', {'k': none}])", '[1, "a", {"k": none}]'),
    ("join([1, 'b', 2.5])", "1b2.5"), ("index_of([1, 2], 2)", 1),
    ("without([1, 2], [3])", [1, 2]), ("is_subset([1, 1], [1])", False), ("flatten([])", []),
    ("keys({})", []),
])
def test_value(text, value):
    assert run(text) == value


@pytest.mark.parametrize("text, message", [
    ("first([])", "first() of an empty list"),
    ("last([])", "last() of an empty list"),
    ("max([])", "max() of an empty list"),
    ("max_by([], x => x)", "max_by() of an empty list"),
    ("max([1, 'a'])", "max() cannot compare values of different kinds"),
    ("sorted([1, 'a'])", "sorted() cannot order values of different kinds"),
    ("int('12x')", "int() cannot convert '12x'"),
    ("index_of([1, 2], 3)", "index_of(): 3 is not in the list"),
    ("any([1, true])", "each item of any() must be a bool, got int"),
    ("range(0, 1000000000)", "range too long: 1000000000 elements (limit 100000)"),
    ("product([1000000000, 1000000000, 10])", "number too large: magnitude over 1000000000000000000"),
    ("sum([999999999999999999, 999999999999999999])", "number too large: magnitude over 1000000000000000000"),
])
def test_failure(text, message):
    with pytest.raises((EvalError, LimitError)) as caught:
        run(text)
    assert caught.value.message == message
    assert str(caught.value.pos) == "<expression>:1:1"


def test_arity_messages():
    assert BUILTINS.get("count").arity_problem(1) == "count() takes 2 arguments (1 given)"
    assert BUILTINS.get("join").arity_problem(3) == "join() takes 1 or 2 arguments (3 given)"
    assert BUILTINS.get("max").arity_problem(0) == "max() takes at least 1 argument (0 given)"
    assert BUILTINS.get("len").arity_problem(1) is None
