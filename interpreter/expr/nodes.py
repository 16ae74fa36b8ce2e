"""The syntax tree of an expression.

Every node records where it sits in the expression text (``start``/``end`` offsets, end
exclusive) and its ``depth`` (1 for a leaf). The builder computes the depth bottom-up while
parsing, so the depth limit is enforced before anything walks the tree recursively.
Operator chains are flat: ``a + b - c`` is one ``Arith`` node with two steps.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)
class Node:
    start: int
    end: int
    depth: int


@dataclass(frozen=True, eq=False)
class Literal(Node):
    value: Any


@dataclass(frozen=True, eq=False)
class Name(Node):
    name: str


@dataclass(frozen=True, eq=False)
class ListDisplay(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, eq=False)
class MapDisplay(Node):
    pairs: tuple[tuple[Node, Node], ...]


@dataclass(frozen=True, eq=False)
class Range(Node):
    """``low..high``, both ends included."""

    low: Node
    high: Node


@dataclass(frozen=True, eq=False)
class Negation(Node):
    operand: Node


@dataclass(frozen=True, eq=False)
class Not(Node):
    operand: Node


@dataclass(frozen=True, eq=False)
class Arith(Node):
    """``first op1 x1 op2 x2 ...``, evaluated left to right; ``steps`` holds (op, operand)."""

    first: Node
    steps: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, eq=False)
class Compare(Node):
    """A comparison chain: ``a < b <= c`` means ``a < b and b <= c``."""

    first: Node
    steps: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, eq=False)
class BoolOp(Node):
    op: str  # "and" | "or"
    operands: tuple[Node, ...]


@dataclass(frozen=True, eq=False)
class IfElse(Node):
    test: Node
    then: Node
    other: Node


@dataclass(frozen=True, eq=False)
class Member(Node):
    obj: Node
    name: str
    name_start: int


@dataclass(frozen=True, eq=False)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, eq=False)
class Slice(Node):
    obj: Node
    low: Node | None
    high: Node | None


@dataclass(frozen=True, eq=False)
class Call(Node):
    callee: Node
    args: tuple[Node, ...]


@dataclass(frozen=True, eq=False)
class Lambda(Node):
    params: tuple[str, ...]
    body: Node


@dataclass(frozen=True, eq=False)
class For(Node):
    var: str
    iterable: Node
    conditions: tuple[Node, ...]


@dataclass(frozen=True, eq=False)
class Comprehension(Node):
    """``[element for ... if ...]``; a generator argument ``f(x for x in xs)`` is one too."""

    element: Node
    loops: tuple[For, ...]


@dataclass(frozen=True, eq=False)
class Tuple(Node):
    """``(a, b)``: only meaningful as the parameters of a lambda; the checker refuses it elsewhere."""

    items: tuple[Node, ...]


def names_in(node: Node) -> set[str]:
    """Every name the expression mentions (iteratively: trees may be deep)."""
    found: set[str] = set()
    todo: list[Any] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, Name):
            found.add(item.name)
        elif isinstance(item, Node):
            todo.extend(v for k, v in vars(item).items() if k not in ("start", "end", "depth"))
        elif isinstance(item, (tuple, list)):
            todo.extend(item)
    return found


def all_nodes(root: Node):
    """Every node of a tree, the root first (iteratively: trees may be deep)."""
    todo: list[Any] = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, Node):
            yield item
            todo.extend(v for k, v in vars(item).items() if k not in ("start", "end", "depth"))
        elif isinstance(item, (tuple, list)):
            todo.extend(item)


def children(node: Node):
    """The direct sub-expressions of a node (for constant folding)."""
    if isinstance(node, ListDisplay):
        yield from node.items
    elif isinstance(node, MapDisplay):
        for key, value in node.pairs:
            yield key
            yield value
    elif isinstance(node, Range):
        yield from (node.low, node.high)
    elif isinstance(node, (Negation, Not)):
        yield node.operand
    elif isinstance(node, (Arith, Compare)):
        yield node.first
        for _op, operand in node.steps:
            yield operand
    elif isinstance(node, BoolOp):
        yield from node.operands
    elif isinstance(node, IfElse):
        yield from (node.test, node.then, node.other)
    elif isinstance(node, Index):
        yield from (node.obj, node.index)
    elif isinstance(node, Slice):
        yield from (x for x in (node.obj, node.low, node.high) if x is not None)
