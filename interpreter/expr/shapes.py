"""Closures for the common shapes of expressions, spelt out so that they run in fewer steps: a
single comparison, a comprehension with one loop, nested loops, a failed member read."""
from __future__ import annotations

from typing import Any

from .. import limits
from ..errors import EvalError, Position, RulesError
from . import ops
from .runtime import STEPS, Fn, fault, spend, too_many_steps


def read_error(error: Exception, value: Any, member: str) -> Exception:
    """A member read of none fails in the language's words, whether its type was known or not
    (a host's getter knows nothing of none)."""
    if value is None and not isinstance(error, RulesError):
        return EvalError(f"none has no member '{member}'")
    return error


def single_compare(op: str, first: Fn, right: Any, pos: Position) -> Fn:
    """``a op b``, with the common shapes spelt out: equality, and a constant on the right
    (``right`` is the compiler's piece: its closure, and its value when it is constant)."""
    test, other, value = ops.COMPARISONS[op], right.fn, right.value
    if op == "==" and right.constant:
        def equal_to(ctx, env):
            try:
                return first(ctx, env) == value
            except Exception as e:
                raise fault(e, pos) from None
        return equal_to
    if op == "!=" and right.constant:
        def unequal_to(ctx, env):
            try:
                return first(ctx, env) != value
            except Exception as e:
                raise fault(e, pos) from None
        return unequal_to
    if op == "in" and right.constant and isinstance(value, list):
        def member_of(ctx, env):
            try:
                return first(ctx, env) in value
            except Exception as e:
                raise fault(e, pos) from None
        return member_of
    if op == "==":
        def equal(ctx, env):
            try:
                return first(ctx, env) == other(ctx, env)
            except Exception as e:
                raise fault(e, pos) from None
        return equal
    if right.constant:
        def against_constant(ctx, env):
            try:
                return test(first(ctx, env), value)
            except Exception as e:
                raise fault(e, pos) from None
        return against_constant

    def single(ctx, env):
        try:
            return test(first(ctx, env), other(ctx, env))
        except Exception as e:
            raise fault(e, pos) from None
    return single


def single_loop(loop: tuple, element: Fn, pos: Position) -> Fn:
    """``[element for var in iterable if condition]``: the common shape, in one Python loop."""
    var, iterable, conditions = loop
    condition = conditions[0] if conditions else None

    def run(ctx: Any, env: dict) -> list:
        out: list = []
        steps = env[STEPS]
        inner = dict(env)
        for value in iterable(ctx, env):
            steps[0] -= 1
            if steps[0] < 0:
                raise too_many_steps()
            inner[var] = value
            if condition is None or condition(ctx, inner):
                out.append(element(ctx, inner))
        if len(out) > limits.MAX_COLLECTION:
            try:
                ops.checked_size(out)
            except Exception as e:
                raise fault(e, pos) from None
        return out
    return run


def run_loops(loops: list, i: int, element: Fn, ctx: Any, env: dict, out: list, reuse: bool) -> None:
    var, iterable, conditions = loops[i]
    last = i == len(loops) - 1
    inner: dict     # reused by every item, or one of its own for each (a lambda may keep it)
    if reuse:
        inner = dict(env)
    for value in iterable(ctx, env):
        spend(env, 1)
        if reuse:
            inner[var] = value
        else:
            inner = {**env, var: value}
        if all(c(ctx, inner) for c in conditions):
            if last:
                out.append(element(ctx, inner))
            else:
                run_loops(loops, i + 1, element, ctx, inner, out, reuse)
