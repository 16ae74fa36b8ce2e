"""A chain of ``if x == a then ... else if x == b ...`` is one look-up, with the chain's meaning."""
from __future__ import annotations

import pytest

from interpreter.errors import EvalError
from interpreter.expr import ANY, Binding, Scope, compile_expression

READS: list = []


def subject(ctx):
    READS.append(1)
    return ctx["x"]


SCOPE = Scope(names={"x": Binding(ANY, subject), "y": Binding(ANY, lambda ctx: ctx["y"])})
CHAIN = ('if x == 1 then "one" else if x == "two" then "two" else if x in [3, 4, 1] then "three or four" '
         'else if x == none then "nothing" else "other"')


def run(text, **values):
    return compile_expression(text, SCOPE)(values, {})


@pytest.mark.parametrize("x, expected", [
    (1, "one"), ("two", "two"), (3, "three or four"), (4, "three or four"), (None, "nothing"),
    (5, "other"), ("one", "other"), (True, "one"), (1.0, "one"), (4.0, "three or four"),
    ([1], "other"), ({"a": 1}, "other"),
])
def test_each_value_takes_the_branch_the_chain_gives_it(x, expected):
    assert run(CHAIN, x=x) == expected


def test_the_value_tested_is_worked_out_once_not_once_per_case():
    READS.clear()
    assert run(CHAIN, x=5) == "other"
    assert len(READS) == 1


def test_a_short_chain_compares_in_order():
    READS.clear()
    assert run('if x == 1 then "a" else if x == 2 then "b" else "c"', x=2) == "b"
    assert len(READS) == 2


def test_a_chain_that_changes_what_it_tests_keeps_the_rest_in_order():
    text = 'if x == 1 then "a" else if x == 2 then "b" else if y == 3 then "c" else if x == 4 then "d" else "e"'
    assert [run(text, x=x, y=y) for x, y in [(1, 3), (2, 3), (4, 3), (4, 0), (9, 0)]] == ["a", "b", "c", "d", "e"]


def test_a_chain_on_a_member_fails_where_the_chain_would():
    text = 'if y.rank == 1 then "ace" else if y.rank == 13 then "king" else if y.rank == 12 then "queen" else "pip"'
    with pytest.raises(EvalError) as caught:
        run(text, x=0, y=5)
    assert caught.value.headline() == "<expression>:1:4: error: int has no member 'rank'"
