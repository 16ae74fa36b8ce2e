"""The pieces generated code is built from: ``pyast``, Python's ``ast`` node classes each placed
at line 1, and names, assignments and calls made of them."""
from __future__ import annotations

import _ast
import ast
import types

# Generated code has no source lines: every node of it is at line 1. The classes of ``pyast`` say
# so once, as class attributes, which Python's compiler reads as it reads an instance's; so no
# pass over each tree gives every node its location (that pass was most of the cost of generating
# code at load).
_AT_LINE_ONE = {"lineno": 1, "col_offset": 0, "end_lineno": 1, "end_col_offset": 0}


def _placed_at_line_one() -> types.SimpleNamespace:
    """``ast``'s names, each concrete node class with a location replaced by a subclass of it at
    line 1 (abstract ones such as ``ast.expr`` are kept, so that ``isinstance`` still reads them)."""
    classes = [c for c in vars(_ast).values() if isinstance(c, type) and issubclass(c, ast.AST)]
    abstract = {base for c in classes for base in c.__bases__}
    space = types.SimpleNamespace(**{k: v for k, v in vars(ast).items() if not k.startswith("__")})
    for cls in classes:
        if cls not in abstract and "lineno" in cls._attributes:
            setattr(space, cls.__name__, type(cls.__name__, (cls,), {**_AT_LINE_ONE, "__module__": __name__}))
    return space


pyast = _placed_at_line_one()
LOAD, STORE = pyast.Load(), pyast.Store()     # shared, as Python's own parser shares them


def load(name: str) -> ast.Name:
    return pyast.Name(id=name, ctx=LOAD)


def store(name: str) -> ast.Name:
    return pyast.Name(id=name, ctx=STORE)


def assign(name: str, value: ast.expr) -> ast.stmt:
    return pyast.Assign(targets=[store(name)], value=value)


def call(fn: ast.expr, *args: ast.expr) -> ast.Call:
    return pyast.Call(func=fn, args=list(args), keywords=[])

CTX = load("ctx")


def arguments(names: list[str]) -> ast.arguments:
    return pyast.arguments(posonlyargs=[], args=[pyast.arg(arg=a) for a in names], vararg=None, kwonlyargs=[],
                           kw_defaults=[], kwarg=None, defaults=[])
