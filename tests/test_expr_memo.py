"""Defined functions' results are remembered by name and arguments within one evaluation, and
for as long as the host keeps the same memo when it hands one in; except a body whose work is
bounded by its size (no loop, range or call, no costly host name), which costs less than its
memo key."""
from __future__ import annotations

from interpreter.expr import INT, Binding, Scope, UserFunction, compile_expression
from interpreter.expr.runtime import MEMO

READS = []


def counted(ctx):
    READS.append(1)
    return 10


SCOPE = Scope(names={"base": Binding(INT, counted, costly=True), "cheap": Binding(INT, counted)}).child(functions={
    "plus": UserFunction("plus", ["n"], "base + n"),
    "total": UserFunction("total", ["xs"], "sum(xs) + base"),
    "bump": UserFunction("bump", ["n"], "if n > 0 then cheap + n else cheap"),
    "largest": UserFunction("largest", ["n"], "max(cheap, n)"),
    "shadow": UserFunction("shadow", ["base"], "base + cheap"),
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


def test_a_body_of_constant_work_is_worked_out_at_each_call():
    READS.clear()
    memo: dict = {}
    assert compile_expression("bump(1) + bump(1)", SCOPE)(None, {MEMO: memo}) == 22
    assert len(READS) == 2 and memo == {}


def test_a_body_with_a_call_is_remembered_though_its_names_are_cheap():
    READS.clear()
    memo: dict = {}
    assert compile_expression("largest(12) + largest(12)", SCOPE)(None, {MEMO: memo}) == 24
    assert len(READS) == 1 and set(memo) == {("largest", (12,))}


def test_a_parameter_named_like_a_costly_name_is_only_a_parameter():
    READS.clear()
    memo: dict = {}
    assert compile_expression("shadow(1) + shadow(1)", SCOPE)(None, {MEMO: memo}) == 22
    assert len(READS) == 2 and memo == {}
