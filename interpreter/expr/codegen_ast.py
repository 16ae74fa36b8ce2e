"""The pieces generated code is built from: names, assignments and calls as ``ast`` nodes, and
the one pass that gives every node of a generated tree its (single) location."""
from __future__ import annotations

import ast

LOAD, STORE = ast.Load(), ast.Store()     # shared, as Python's own parser shares them
# Generated code has no source lines: every node is at line 1 (set in one pass, see ``locate``).
_AT_LINE_ONE = {"lineno": 1, "col_offset": 0, "end_lineno": 1, "end_col_offset": 0}


def locate(root: ast.AST) -> None:
    """What ``ast.fix_missing_locations`` does for a tree without any location, in one quicker
    pass (it is most of the cost of generating code at load)."""
    todo = [root]
    while todo:
        node = todo.pop()
        fields = node.__dict__
        if "lineno" in node._attributes:
            fields.update(_AT_LINE_ONE)
        for value in list(fields.values()):
            if type(value) is list:
                todo.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST) and value is not LOAD and value is not STORE:
                todo.append(value)


def load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=LOAD)


def store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=STORE)


def assign(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign(targets=[store(name)], value=value)


def call(fn: ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(func=fn, args=list(args), keywords=[])

CTX = load("ctx")


def arguments(names: list[str]) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=a) for a in names], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
