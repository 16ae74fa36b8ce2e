"""A chain of ``if x == a then ... else if x == b then ... else ...`` compiled to one look-up.

Rules are often written as such chains (the score of a row by its name, the value of a card by
its rank): evaluated in order, the last case costs a comparison per case before it. When at
least ``MIN_CASES`` tests in a row compare the same plain expression (a name, or a member of
one) with constants, by ``==`` or ``in`` a constant list, the value is worked out once and the
branch found in a table. Expressions have no side effects, so evaluating it once is the same as
evaluating it in every test; the first case to name a constant keeps it, as in the chain.
"""
from __future__ import annotations

import math
from typing import Any, Callable, TypeVar

from . import nodes as n

MIN_CASES = 3
_KEY_TYPES = (int, str, float, bool, type(None))

Fn = Callable[[Any, dict], Any]
T = TypeVar("T")     # a branch: a closure, or the number of one in generated code


def switch_cases(node: n.IfElse, constant_of: Callable[[n.Node], tuple[bool, Any]],
                 targets: dict) -> tuple[n.Node, list[tuple[list, n.Node]], n.Node] | None:
    """The chain starting at ``node`` as (the value tested, [(constants, branch)], the branch
    for any other value), or None when it is not such a chain. ``constant_of`` tells whether a
    node was folded to a constant, and to which value."""
    subject: n.Node | None = None
    cases: list[tuple[list, n.Node]] = []
    current: n.Node = node
    while isinstance(current, n.IfElse):
        case = _case(current.test, constant_of)
        if case is None:
            break
        tested, keys = case
        if subject is None:
            subject = tested
        elif not _same(tested, subject, targets):
            break
        cases.append((keys, current.then))
        current = current.other
    if subject is None or len(cases) < MIN_CASES or not _plain(subject):
        return None
    return subject, cases, current


def switch_fn(subject: Fn, table: dict, other: Fn) -> Fn:
    def switch(ctx, env):
        value = subject(ctx, env)
        try:
            branch = table.get(value, other)
        except TypeError:       # a list or a map equals none of the constants
            branch = other
        return branch(ctx, env)
    return switch


def table_of(cases: list[tuple[list, T]]) -> dict[Any, T]:
    """The branch of each constant: the first case that names it."""
    table: dict[Any, T] = {}
    for keys, branch in cases:
        for key in keys:
            table.setdefault(key, branch)
    return table


def _case(test: n.Node, constant_of: Callable) -> tuple[n.Node, list] | None:
    if not isinstance(test, n.Compare) or len(test.steps) != 1:
        return None
    op, right = test.steps[0]
    constant, value = constant_of(right)
    if not constant:
        return None
    if op == "==" and _key(value):
        return test.first, [value]
    if op == "in" and isinstance(value, list) and all(_key(v) for v in value):
        return test.first, list(value)
    return None


def _key(value: Any) -> bool:
    return type(value) in _KEY_TYPES and not (type(value) is float and math.isnan(value))


def _plain(node: n.Node) -> bool:
    """A name, or a member of a plain expression: cheap and the same each time it is read."""
    return isinstance(node, n.Name) or (isinstance(node, n.Member) and _plain(node.obj))


def _same(a: n.Node, b: n.Node, targets: dict) -> bool:
    if isinstance(a, n.Name) and isinstance(b, n.Name):
        return a.name == b.name and targets.get(id(a)) == targets.get(id(b))
    if isinstance(a, n.Member) and isinstance(b, n.Member):
        return a.name == b.name and _same(a.obj, b.obj, targets)
    return False
