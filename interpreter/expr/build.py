"""Turns the parser's reductions into syntax-tree nodes, while the parser runs.

The builder is handed to Lark as an inline transformer, so nodes are made bottom-up as the
LALR parser reduces, with no recursion. It computes each node's depth on the way and stops
as soon as the depth limit is passed. It never sees positions as file coordinates: a problem
is raised as ``BuildProblem`` with offsets, and the parser turns it into a positioned error.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from lark import Token, Transformer

from .. import limits
from . import nodes as n

_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "n": "\n", "t": "\t"}


class BuildProblem(Exception):
    """A problem found while building, at text offsets; ``kind`` is "syntax" or "limit"."""

    def __init__(self, kind: str, message: str, start: int, end: int, hint: str | None = None):
        super().__init__(message)
        self.kind, self.message, self.start, self.end, self.hint = kind, message, start, end, hint


def _bounds(item: Any) -> tuple[int, int] | None:
    if isinstance(item, Token):     # lark's types allow a token without a place: the lexer's have one
        return cast("tuple[int, int]", (item.start_pos, item.end_pos))
    if isinstance(item, n.Node):
        return item.start, item.end
    return None


def _span(children: list) -> tuple[int, int]:
    found = [b for b in map(_bounds, children) if b is not None]
    return min(b[0] for b in found), max(b[1] for b in found)


def _make(cls: type, children: list, *fields: Any, kids: tuple = ()) -> n.Node:
    """A node spanning ``children``, one level deeper than its deepest child node."""
    start, end = _span(children)
    depth = 1 + max((k.depth for k in kids if k is not None), default=0)
    _check_depth(depth, start, end)
    return cls(start, end, depth, *fields)


def _check_depth(depth: int, start: int, end: int) -> None:
    if depth > limits.MAX_EXPR_DEPTH:
        raise BuildProblem("limit", f"expression nested too deeply (more than {limits.MAX_EXPR_DEPTH} levels)",
                           start, end, "split it up, for example with a defined function")


def _nodes(children: list) -> list:
    return [c for c in children if isinstance(c, n.Node)]


def _steps(children: list) -> tuple[tuple[str, n.Node], ...]:
    """Pairs (operator, operand) from ``[x0, op, x1, op, op, x2, ...]`` ("not in" is two tokens)."""
    steps, op = [], []
    for child in children[1:]:
        if isinstance(child, Token):
            op.append(str(child))
        else:
            steps.append((" ".join(op), child))
            op = []
    return tuple(steps)


def _int_literal(token: Token) -> int:
    digits = len(token.lstrip("0")) or 1
    if digits > limits.MAX_INT_DIGITS:
        raise BuildProblem("limit", f"number has {digits} digits (limit {limits.MAX_INT_DIGITS})",
                           cast(int, token.start_pos), cast(int, token.end_pos))
    return int(token)


def _decimal_literal(token: Token) -> float:
    _int_literal(Token("INT", token.split(".")[0], token.start_pos, end_pos=token.end_pos))
    return float(token)


def _string_literal(token: Token) -> str:
    body, out, i = token[1:-1], [], 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            code = body[i + 1]
            if code not in _ESCAPES:
                at = cast(int, token.start_pos) + 1 + i
                raise BuildProblem("syntax", f"unknown escape '\\{code}' in string", at, at + 2,
                                   'use \\" \\\' \\\\ \\n or \\t')
            out.append(_ESCAPES[code])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


_LITERALS = {
    "INT": _int_literal,
    "DECIMAL": _decimal_literal,
    "STRING": _string_literal,
    "TRUE": lambda t: True,
    "FALSE": lambda t: False,
    "NONE": lambda t: None,
}


class Builder(Transformer):
    """One method per grammar rule; each receives the rule's children and returns a node."""

    def literal(self, c):
        token = c[0]
        return _make(n.Literal, c, _LITERALS[token.type](token))

    def name(self, c):
        return _make(n.Name, c, str(c[0]))

    def list_display(self, c):
        items = tuple(_nodes(c))
        return _make(n.ListDisplay, c, items, kids=items)

    def map_display(self, c):
        pairs = tuple(p for p in c if isinstance(p, tuple))
        return _make(n.MapDisplay, c, pairs, kids=tuple(x for p in pairs for x in p))

    def pair(self, c):
        return (c[0], c[1])

    def paren(self, c):
        # Brackets count towards the depth limit even though they make no node of their own.
        inner = c[1]
        start, end = _span(c)
        _check_depth(inner.depth + 1, start, end)
        return replace(inner, start=start, end=end, depth=inner.depth + 1)

    def tuple(self, c):
        items = tuple(_nodes(c))
        return _make(n.Tuple, c, items, kids=items)

    def range_expr(self, c):
        return _make(n.Range, c, c[0], c[1], kids=(c[0], c[1]))

    def negation(self, c):
        return _make(n.Negation, c, c[1], kids=(c[1],))

    def not_op(self, c):
        return _make(n.Not, c, c[1], kids=(c[1],))

    def arith(self, c):
        return _make(n.Arith, c, c[0], _steps(c), kids=tuple(_nodes(c)))

    term = arith

    def comparison(self, c):
        return _make(n.Compare, c, c[0], _steps(c), kids=tuple(_nodes(c)))

    def or_test(self, c):
        return _make(n.BoolOp, c, "or", tuple(c), kids=tuple(c))

    def and_test(self, c):
        return _make(n.BoolOp, c, "and", tuple(c), kids=tuple(c))

    def if_else(self, c):
        test, then, other = _nodes(c)
        return _make(n.IfElse, c, test, then, other, kids=(test, then, other))

    def member(self, c):
        obj, _dot, name = c
        return _make(n.Member, c, obj, str(name), name.start_pos, kids=(obj,))

    def index(self, c):
        obj, _open, inside, _close = c
        if isinstance(inside, tuple):
            low, high = inside
            return _make(n.Slice, c, obj, low, high, kids=(obj, low, high))
        return _make(n.Index, c, obj, inside, kids=(obj, inside))

    def slice(self, c):
        return (c[0], c[1])

    def call(self, c):
        callee, args = c[0], c[2]
        args = () if args is None else args
        return _make(n.Call, c, callee, args, kids=(callee, *args))

    def argument_list(self, c):
        return tuple(_nodes(c))

    def generator(self, c):
        return (self.list_comprehension(c),)

    def list_comprehension(self, c):
        element, *loops = _nodes(c)
        return _make(n.Comprehension, c, element, tuple(loops), kids=(element, *loops))

    def comp_for(self, c):
        var, iterable, *conditions = c
        return _make(n.For, c, str(var), iterable, tuple(conditions), kids=(iterable, *conditions))

    def comp_if(self, c):
        return c[0]

    def lambda_def(self, c):
        head, body = c
        return _make(n.Lambda, c, _lambda_params(head), body, kids=(body,))


def _lambda_params(head: n.Node) -> tuple[str, ...]:
    found = head.items if isinstance(head, n.Tuple) else (head,)
    if not all(isinstance(item, n.Name) for item in found):
        raise BuildProblem("syntax", "the left side of '=>' must be a name or names in parentheses",
                           head.start, head.end, "write 'x => ...' or '(a, b) => ...'")
    items = cast("tuple[n.Name, ...]", found)
    names = [item.name for item in items]
    for item in items:
        if names.count(item.name) > 1:
            raise BuildProblem("syntax", f"parameter '{item.name}' appears twice", item.start, item.end)
    return tuple(names)
