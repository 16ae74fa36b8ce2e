"""Generated code: the common case of an operation written out where it stands, the others left
to the operation of ``ops.py`` it stands for.

An operator of two ints (``+ - * // %``, ``< <= > >=``), the index of a list by an int in its
range and the length of a list are by far the most common in rules
(``players[(p.index + 1) % player_count]``, ``len(hand.cards)``). Their Python operation is
written in place when the values are of those types, with the same checks as
``ops.py`` (a result within ``limits.MAX_INT``, read at run time as ``checked_number`` reads it; no
division by zero); any other value, and any failing check, goes to the ``ops.py`` function, which
gives the same value or raises the same error. So the values, the errors and their positions are
those of the call of ``ops.py`` the closures make, without a call for the common case.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .. import limits
from . import ops
from .codegen_ast import LOAD, assign, call, load

if TYPE_CHECKING:
    import ast  # for the types: pyast's classes are ast's, or subclasses of them placed at line 1
else:
    from .codegen_ast import pyast as ast  # Python's ast, its nodes placed at line 1

# The ops.py functions of two numbers whose Python operator gives their value for two ints
# (``/`` is left out: an exact division gives an int).
_INT_OPERATORS: dict[Callable, ast.operator] = {
    ops.add: ast.Add(), ops.subtract: ast.Sub(), ops.multiply: ast.Mult(),
    ops.floor_divide: ast.FloorDiv(), ops.modulo: ast.Mod(),
}
_BY_ZERO = (ops.floor_divide, ops.modulo)      # these raise for a right side of 0
_ORDERINGS: dict[str, ast.cmpop] = {"<": ast.Lt(), "<=": ast.LtE(), ">": ast.Gt(), ">=": ast.GtE()}


def held(gen: Any, values: list[ast.expr]) -> tuple[list[ast.stmt], list[ast.expr]]:
    """Each value in a temporary (in order: the order of evaluation stays the closures'), unless
    it is a name already: the code below reads each more than once."""
    stmts: list[ast.stmt] = []
    names: list[ast.expr] = []
    for value in values:
        if isinstance(value, ast.Name):
            names.append(value)
            continue
        name = gen.temp()
        stmts.append(assign(name, value))
        names.append(load(name))
    return stmts, names


def _is_int(value: ast.expr) -> ast.expr:
    return ast.Compare(left=call(load("type"), value), ops=[ast.Is()], comparators=[load("int")])


def _both_ints(a: ast.expr, b: ast.expr) -> list[ast.expr]:
    return [_is_int(a), _is_int(b)]


def arithmetic(gen: Any, op: Callable, a: ast.expr, b: ast.expr, result: str) -> list[ast.stmt] | None:
    """``result = op(a, b)`` (``a`` and ``b`` names), with the two ints' case written out; None
    when ``op`` has no such case."""
    operator = _INT_OPERATORS.get(op)
    if operator is None:
        return None
    slow = assign(result, call(gen.const(op), a, b))
    tests = _both_ints(a, b)
    if op in _BY_ZERO:
        tests.append(b)     # 0: the op raises "division by zero"
    bound = ast.Attribute(value=gen.const(limits), attr="MAX_INT", ctx=LOAD)
    within = ast.Compare(left=ast.UnaryOp(op=ast.USub(), operand=bound), ops=[ast.LtE(), ast.LtE()],
                         comparators=[load(result), bound])
    fast = [assign(result, ast.BinOp(left=a, op=operator, right=b)),
            ast.If(test=ast.UnaryOp(op=ast.Not(), operand=within), body=[slow], orelse=[])]
    return [ast.If(test=ast.BoolOp(op=ast.And(), values=tests), body=fast, orelse=[slow])]


def ordering(gen: Any, op: str, a: ast.expr, b: ast.expr) -> ast.expr | None:
    """``a < b`` (and ``<= > >=``) for two ints, else ops.py's comparison; None for another
    operator. ``a`` and ``b`` are names."""
    operator = _ORDERINGS.get(op)
    if operator is None:
        return None
    return ast.IfExp(test=ast.BoolOp(op=ast.And(), values=_both_ints(a, b)),
                     body=ast.Compare(left=a, ops=[operator], comparators=[b]),
                     orelse=call(gen.const(ops.COMPARISONS[op]), a, b))


def index(gen: Any, obj: ast.expr, key: ast.expr, result: str) -> list[ast.stmt]:
    """``result = ops.index(obj, key)`` (names), a list's item at an int in its range read in place."""
    in_range = ast.Compare(left=ast.Constant(0), ops=[ast.LtE(), ast.Lt()],
                           comparators=[key, call(load("len"), obj)])
    is_list = ast.Compare(left=call(load("type"), obj), ops=[ast.Is()], comparators=[load("list")])
    return [ast.If(test=ast.BoolOp(op=ast.And(), values=[is_list, _is_int(key), in_range]),
                   body=[assign(result, ast.Subscript(value=obj, slice=key, ctx=LOAD))],
                   orelse=[assign(result, call(gen.const(ops.index), obj, key))])]


def length(gen: Any, impl: Callable, value: ast.expr) -> ast.expr:
    """``len(value)`` of the language (``impl``, builtins.py's): Python's ``len`` when the value is
    a list, whose length ``impl`` gives as it is; any other value goes to ``impl``."""
    is_list = ast.Compare(left=call(load("type"), value), ops=[ast.Is()], comparators=[load("list")])
    return ast.IfExp(test=is_list, body=call(load("len"), value), orelse=call(gen.const(impl), value))
