"""Defined functions' results are remembered by name and arguments within one evaluation, and
for as long as the host keeps the same memo when it hands one in."""
from __future__ import annotations

from interpreter.expr import INT, Binding, Scope, UserFunction, compile_expression
from interpreter.expr.compile import MEMO

READS = []


def counted(ctx):
    READS.append(1)
    return 10


SCOPE = Scope(names={"base": Binding(INT, counted)}).child(functions={
    "plus": UserFunction("plus", ["n"], "base + n"),
    "total": UserFunction("total", ["xs"], "sum(xs) + base"),
})


def test_the_same_call_is_worked_out_once_with_a_memo():
    READS.clear()
    both = compile_expression("plus(1) + plus(1) + plus(2)", SCOPE)
    memo: dict = {}
    assert both(None, {MEMO: memo}) == 11 + 11 + 12
    assert len(READS) == 2 and set(memo) == {("plus", (1,)), ("plus", (2,))}
    assert both(None, {MEMO: memo}) == 34 and len(READS) == 2


def test_without_a_memo_a_call_is_worked_out_once_per_evaluation():
    READS.clear()
    twice = compile_expression("plus(1) + plus(1) + plus(2)", SCOPE)
    assert twice(None, {}) == 34
    assert len(READS) == 2
    assert twice(None, {}) == 34
    assert len(READS) == 4


def test_a_call_with_a_list_argument_is_not_remembered():
    READS.clear()
    memo: dict = {}
    assert compile_expression("total([1, 2]) + total([1, 2])", SCOPE)(None, {MEMO: memo}) == 26
    assert len(READS) == 2 and memo == {}
