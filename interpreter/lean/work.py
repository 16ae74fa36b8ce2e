"""How much work one evaluation of an expression may do, bounded at load from above.

The reference counts each evaluation's work against ``limits.MAX_EVAL_STEPS`` (loop turns,
function calls, items handed to built-ins, items of the lists made) and stops with an error at
the limit. Where this bound, worked out from the expression alone, keeps it within the limit,
the lean engine counts nothing: the reference can never stop where it goes on. Any other
expression is written to count its work as it runs (``Counted``, ``budget.Budget``). A list's
length is what the game's shape allows where it is known (the seats, a zone's cards, the dice, a
written list or range), else the most any list may hold (``limits.MAX_COLLECTION``); every node
counts, and a list's items count again where they are made or handed on.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ..expr import ANY, BUILTINS, ListOf, MapOf, OneOf
from ..expr import nodes as n
from ..limits import MAX_COLLECTION, MAX_EVAL_STEPS
from .ltypes import BOOL, CARD, INT, NONE, NUM, SEAT, STR, ListT

ANY_LIST = MAX_COLLECTION
FLAT = (INT, NUM, STR, BOOL, NONE, CARD, SEAT)      # items that are never lists or maps
# The items of a grid's lists, by its rows and columns (a line: a row or a column).
GRID_LISTS = {"slots": lambda rows, cols: rows * cols, "rows": lambda rows, cols: rows,
              "cols": lambda rows, cols: cols, "lines": lambda rows, cols: rows + cols}
GRID_ITEMS: dict[str, Callable[[int, int], int]] = {"rows": lambda rows, cols: cols, "cols": lambda rows, cols: rows,
                                                     "lines": max}
GIVES_AN_ITEM = {"first", "last", "max", "min"}       # of one list: one of its items
KEEPS_LENGTH = {"sorted", "reversed", "unique", "without", "sorted_by", "counts", "keys", "values"}


@dataclass(frozen=True, eq=False)
class Counted(n.Node):
    """An expression whose work is not bounded at load: written to count its work as it runs
    (``budget.Budget``), from a full budget."""
    tree: n.Node


def counted(tree: n.Node) -> Counted:
    return Counted(tree.start, tree.end, tree.depth, tree)


class Size(int):
    """A list's most items, and (``item``) the most items each of its lists may have."""
    item: int = ANY_LIST


def lists_of(count: int, item: int) -> Size:
    size = Size(count)
    size.item = item
    return size


def _key(name: str, args: tuple) -> tuple:
    return (name, tuple((int(a), getattr(a, "item", ANY_LIST)) for a in args))


class Work:
    """Bounds of sizes and work for one game's expressions (``module.Module`` asks)."""

    def __init__(self, module: Any, players: int):
        self.m = module
        self.game = module.game
        self.players = players
        self.cards = module.shape.cards_for[players]
        self.most_piles = module.shape.most_piles[players]
        self._sizes: dict[tuple, int] = {}
        self._work: dict[tuple, int] = {}

    def forget(self) -> None:
        """Bounds are worked out afresh in each pass: the variables' types may have grown."""
        self._sizes.clear()
        self._work.clear()

    def fits(self, node: n.Node, locals_: dict | None = None) -> bool:
        return self.of(node, locals_ or {}) <= MAX_EVAL_STEPS

    # -- sizes of lists -----------------------------------------------------------------------------
    def size(self, node: n.Node, locals_: dict) -> int:
        """The most items the list ``node`` gives may have."""
        found = self._size(node, locals_)
        if found > self.cards and _every_pile(self._piles(node, {})):
            return self.cards        # the cards of piles none of which is met twice
        return found

    def _size(self, node: n.Node, locals_: dict) -> int:
        if isinstance(node, n.ListDisplay):
            return len(node.items)
        if isinstance(node, n.Range):
            low, high = self.least(node.low, locals_), self.most(node.high, locals_)
            return ANY_LIST if low is None or high is None else min(ANY_LIST, max(0, high - low + 1))
        if isinstance(node, n.Name):
            return self._name_size(node.name, locals_)
        if isinstance(node, n.Member) and node.name == "cards":
            return lists_of(self.cards, 0)
        if isinstance(node, n.Member) and node.name in GRID_LISTS and self.m.shape.grids:
            grids = [z.grid for z in self.m.shape.zones.values() if z.grid is not None]
            item = max(GRID_ITEMS[node.name](*grid) for grid in grids) if node.name in GRID_ITEMS else 0
            return lists_of(max(GRID_LISTS[node.name](*grid) for grid in grids), item)
        if isinstance(node, n.Member) and node.name in self.most_piles:
            return self.most_piles[node.name]
        if isinstance(node, n.Member) and node.name == "dice" and self.game.dice_per == "seat":
            return lists_of(self.game.dice_count, 0)        # a seat's cup ('dice' names no variable)
        if isinstance(node, n.Member) and self.m.level_of_name(node.name) in ("seat", "team"):
            return self._var_size(self.m.level_of_name(node.name), node.name)
        if isinstance(node, n.Comprehension):
            total, inner = 1, dict(locals_)
            for loop in node.loops:
                total *= self.size(loop.iterable, inner)
                inner[loop.var] = self._item_size(loop.iterable, inner)
            return lists_of(min(total, ANY_LIST), self.size(node.element, inner))
        if isinstance(node, n.Slice):
            return self.size(node.obj, locals_)
        if isinstance(node, n.Index):
            return self._item_size(node.obj, locals_)
        if isinstance(node, n.IfElse):
            test = self.known(node.test, locals_)
            if test is not None:        # an option decides: the branch it takes
                return self.size(node.then if test else node.other, locals_)
            return max(self.size(node.then, locals_), self.size(node.other, locals_))
        if isinstance(node, n.Arith) and all(op == "+" for op, _ in node.steps):
            return min(ANY_LIST, self.size(node.first, locals_) + sum(self.size(x, locals_) for _, x in node.steps))
        if isinstance(node, n.Call) and isinstance(node.callee, n.Name) and node.args:
            name = node.callee.name
            if name in self.m.definitions and name not in locals_:
                return self._defined_size(name, self._arg_sizes(node, locals_))
            if name in KEEPS_LENGTH:
                return self.size(node.args[0], locals_)
            if name in ("first", "last") and len(node.args) == 1:
                return self._item_size(node.args[0], locals_)
            if name == "range" and len(node.args) <= 2 and name not in locals_:
                low = self.least(node.args[0], locals_) if len(node.args) == 2 else 0
                high = self.most(node.args[-1], locals_)
                return ANY_LIST if low is None or high is None else min(ANY_LIST, max(0, high - low))
            if name == "flatten" and isinstance(node.args[0], n.Comprehension):
                inner = self._loop_locals(node.args[0], locals_)
                return min(ANY_LIST, self.size(node.args[0], locals_) * self.size(node.args[0].element, inner))
        return ANY_LIST

    # -- the cards of distinct piles ----------------------------------------------------------------
    def _piles(self, node: n.Node, loops: dict) -> set | None:
        """Where a list of cards made of piles' cards (``.cards``, joined by ``+`` and
        ``flatten``) takes them from, when no pile can be met twice: the zones, each with the
        loop variable its pile depends on (None once every pile of a loop is taken); else None.
        A card lies in one pile, so such a list holds each card at most once. ``loops``: each
        loop variable -> (the zone whose piles it goes through, or None for a seat; the
        variable the list it goes through depends on)."""
        if isinstance(node, n.Member) and node.name == "cards":
            return self._pile_of(node.obj, loops)
        if isinstance(node, n.Arith) and all(op == "+" for op, _ in node.steps):
            found: set = set()
            for part in [node.first] + [x for _, x in node.steps]:
                piles = self._piles(part, loops)
                if piles is None or piles & found or {z for z, _ in piles} & {z for z, _ in found}:
                    return None
                found |= piles
            return found
        if isinstance(node, n.Name) and node.name in self.m.definitions and not self.m.definitions[node.name][0] \
                and node.name not in loops:
            return self._piles(self.m.parse(self.m.definitions[node.name][1]), {})
        if isinstance(node, n.Call) and isinstance(node.callee, n.Name) and node.callee.name == "flatten" \
                and node.callee.name not in self.m.definitions and len(node.args) == 1 \
                and isinstance(node.args[0], n.Comprehension) and len(node.args[0].loops) == 1:
            return self._flattened(node.args[0], loops)
        return None

    def _flattened(self, node: n.Comprehension, loops: dict) -> set | None:
        loop = node.loops[0]
        over = self._distinct_list(loop.iterable, loops)
        if over is None:
            return None
        inner = self._piles(node.element, {**loops, loop.var: over})
        if inner is None or any(var != loop.var for _, var in inner):
            return None     # a pile that is the same in every turn of the loop
        return {(zone, over[1]) for zone, _ in inner}

    def _distinct_list(self, node: n.Node, loops: dict) -> tuple | None:
        """A list of different seats or piles: (the zone, None for seats; what it depends on)."""
        if isinstance(node, n.Name) and node.name == "players" and self.m.writer.names.kinds.get("players") == "flow":
            return (None, None)
        if isinstance(node, n.Name) and node.name in self.most_piles and node.name not in loops \
                and self.m.shape.zones[node.name].per == "game":
            return (node.name, None)
        if isinstance(node, n.Member) and node.name in self.most_piles and self._per_seat(node, loops):
            return (node.name, cast(n.Name, node.obj).name)
        return None

    def _per_seat(self, node: n.Member, loops: dict) -> bool:
        """A seat's own zone read through a loop over different seats (a zone per team is not:
        partners share it)."""
        return isinstance(node.obj, n.Name) and node.obj.name in loops and loops[node.obj.name][0] is None \
            and self.m.shape.zones[node.name].per == "seat"

    def _pile_of(self, node: n.Node, loops: dict) -> set | None:
        """The pile ``node`` names, as ``_piles`` gives it."""
        zones = self.m.shape.zones
        if isinstance(node, n.Name) and node.name in loops and loops[node.name][0] is not None:
            return {(loops[node.name][0], node.name)}
        if isinstance(node, n.Name) and node.name in zones and node.name not in loops \
                and zones[node.name].per == "game" and zones[node.name].piles is None:
            return {(node.name, None)}
        if isinstance(node, n.Member) and node.name in zones and zones[node.name].piles is None \
                and self._per_seat(node, loops):
            return {(node.name, cast(n.Name, node.obj).name)}
        return None

    def _loop_locals(self, node: n.Comprehension, locals_: dict) -> dict:
        inner = dict(locals_)
        for loop in node.loops:
            inner[loop.var] = self._item_size(loop.iterable, inner)
        return inner

    def item_size(self, node: n.Node, locals_: dict) -> int:
        return self._item_size(node, locals_)

    def _item_size(self, node: n.Node, locals_: dict) -> int:
        """The most items each list in the list ``node`` gives may have (a grid's line's)."""
        return getattr(self._size(node, locals_), "item", ANY_LIST)

    # -- bounds of ints (the ends of ranges) -------------------------------------------------------
    def most(self, node: n.Node, locals_: dict) -> int | None:
        """The largest value an int expression may take, when known at load."""
        return self._bound(node, locals_, upper=True)

    def least(self, node: n.Node, locals_: dict) -> int | None:
        """The smallest value an int expression may take, when known at load."""
        return self._bound(node, locals_, upper=False)

    def _bound(self, node: n.Node, locals_: dict, upper: bool) -> int | None:
        if isinstance(node, n.Literal) and type(node.value) is int:
            return node.value
        if isinstance(node, n.Name) and node.name == "player_count" and node.name not in locals_:
            return self.players
        if isinstance(node, n.Call) and isinstance(node.callee, n.Name) and node.callee.name == "len" \
                and node.args and node.callee.name not in self.m.definitions:
            return self.size(node.args[0], locals_) if upper else 0
        if isinstance(node, n.Arith) and all(op in "+-" for op, _ in node.steps):
            total = self._bound(node.first, locals_, upper)
            for op, operand in node.steps:
                bound = self._bound(operand, locals_, upper if op == "+" else not upper)
                if total is None or bound is None:
                    return None
                total = total + bound if op == "+" else total - bound
            return total
        return None

    def _arg_sizes(self, node: n.Call, locals_: dict) -> tuple:
        return tuple(self.size(arg, locals_) for arg in node.args)

    def _name_size(self, name: str, locals_: dict) -> int:
        if name in locals_:
            return locals_[name]
        level = self.m.level_of_name(name)
        if level is not None:
            return self._var_size(level, name)
        if name in self.most_piles and self.m.writer.names.kinds.get(name) == "zone":
            return self.most_piles[name]
        if name == "players":
            return lists_of(self.players, 0)
        if name == "dice":
            return lists_of(self.game.dice_count, 0)
        if name == "playable" and self.game.tricks is not None:
            return self.cards
        if name in self.m.definitions and not self.m.definitions[name][0]:
            return self._defined_size(name, ())
        return ANY_LIST

    def _var_size(self, level: str, name: str) -> int:
        """A variable's most items, and none in each when its items are never lists or maps."""
        items = self.m.var_types.get((level, name))
        flat = isinstance(items, ListT) and items.elem in FLAT
        return lists_of(self.m.var_sizes.get((level, name), ANY_LIST), 0 if flat else ANY_LIST)

    def _defined_size(self, name: str, args: tuple) -> int:
        """The size a defined function's list may have, its list parameters as large as given."""
        key = _key(name, args)
        if key not in self._sizes:
            self._sizes[key] = ANY_LIST       # recursion is refused at load: this is never read back
            params = self.m.definitions[name][0]
            self._sizes[key] = self.size(self.m.parse(self.m.definitions[name][1]), dict(zip(params, args)))
        return self._sizes[key]

    # -- work -----------------------------------------------------------------------------------------
    def of(self, node: n.Node, locals_: dict) -> int:
        """The most steps one evaluation of ``node`` may count (a bound, never less)."""
        if isinstance(node, n.Comprehension):
            return self._loops(node, locals_)
        if isinstance(node, n.Lambda):
            return 1 + self.of(node.body, locals_)
        if isinstance(node, n.Range):
            return 1 + self.size(node, locals_) + self.of(node.low, locals_) + self.of(node.high, locals_)
        if isinstance(node, n.Call) and isinstance(node.callee, n.Name):
            return self._call(node, locals_)
        if isinstance(node, n.Name) and node.name in self.m.definitions and node.name not in locals_:
            return 1 + self._defined_work(node.name, ())
        if isinstance(node, n.Arith) and any(op == "+" for op, _ in node.steps):
            made = self.size(node, locals_) if self._listy(node) else 0
            return 1 + made + sum(self.of(child, locals_) for child in n.children(node))
        if isinstance(node, n.IfElse):
            test = self.known(node.test, locals_)
            if test is not None:        # an option decides: the test, then the branch it takes
                return 1 + self.of(node.test, locals_) + self.of(node.then if test else node.other, locals_)
        if isinstance(node, n.BoolOp):      # evaluated up to the first operand an option decides
            operands = list(node.operands)
            for k, operand in enumerate(operands):
                if self.known(operand, locals_) is (node.op == "or"):
                    operands = operands[:k + 1]
                    break
            return 1 + sum(self.of(operand, locals_) for operand in operands)
        return 1 + sum(self.of(child, locals_) for child in n.children(node))

    def known(self, node: n.Node, locals_: dict, depth: int = 0) -> bool | None:
        """A test's value where the options decide it at load (an option that is true or false,
        ``and``, ``or`` and ``not`` of such tests, a definition giving one), else None."""
        if depth > len(self.m.definitions):      # definitions naming each other in a ring
            return None
        if isinstance(node, n.Literal) and isinstance(node.value, bool):
            return node.value
        if isinstance(node, n.Name) and node.name not in locals_:
            value = self.game.options.get(node.name)
            if isinstance(value, bool):
                return value
            if node.name in self.m.definitions and not self.m.definitions[node.name][0]:
                return self.known(self.m.parse(self.m.definitions[node.name][1]), {}, depth + 1)
            return None
        if isinstance(node, n.Not):
            inner = self.known(node.operand, locals_, depth)
            return None if inner is None else not inner
        if isinstance(node, n.BoolOp):
            deciding = node.op == "or"      # a true operand decides an 'or', a false one an 'and'
            values = [self.known(operand, locals_, depth) for operand in node.operands]
            if deciding in values:
                return deciding
            return None if None in values else not deciding
        if isinstance(node, n.Call) and isinstance(node.callee, n.Name) and node.callee.name not in locals_ \
                and node.callee.name in self.m.definitions:
            params, body = self.m.definitions[node.callee.name]
            return self.known(self.m.parse(body), dict.fromkeys(params, ANY_LIST), depth + 1)
        return None

    def _listy(self, node: n.Arith) -> bool:
        return isinstance(node.first, (n.ListDisplay, n.Comprehension)) or any(
            isinstance(x, (n.ListDisplay, n.Comprehension)) for _, x in node.steps)

    def _loops(self, node: n.Comprehension, locals_: dict) -> int:
        turns, work = 1, 0
        inner = dict(locals_)
        for loop in node.loops:
            work += turns * self.of(loop.iterable, inner)
            turns = min(turns * self.size(loop.iterable, inner), MAX_EVAL_STEPS + 1)
            inner[loop.var] = self._item_size(loop.iterable, inner)
            work += turns * (1 + sum(self.of(c, inner) for c in loop.conditions))
        return work + turns * (1 + self.of(node.element, inner))

    def _call(self, node: n.Call, locals_: dict) -> int:
        name = cast(n.Name, node.callee).name       # a call's callee is a name (the checker's)
        args = sum(self.of(arg, locals_) for arg in node.args)
        if name in self.m.definitions and name not in locals_:
            return 1 + args + self._defined_work(name, self._arg_sizes(node, locals_))
        handed = self.size(node.args[0], locals_) if node.args and _takes_a_list(name, len(node.args)) else 0
        lambdas = [arg for arg in node.args if isinstance(arg, n.Lambda)]
        # What it gives counts as a list made: one of the items it was handed, or as many items.
        made = handed
        if name in GIVES_AN_ITEM and len(node.args) == 1:       # its items' size where it is known
            made = min(handed, getattr(self._size(node.args[0], locals_), "item", handed))
        return 1 + args + handed * (1 + sum(self.of(f.body, locals_) for f in lambdas)) + made

    def _defined_work(self, name: str, args: tuple) -> int:
        """The work of a defined function's body, its list parameters as large as given."""
        key = _key(name, args)
        if key not in self._work:
            self._work[key] = MAX_EVAL_STEPS + 1      # never read back (no recursion)
            params = self.m.definitions[name][0]
            self._work[key] = self.of(self.m.parse(self.m.definitions[name][1]), dict(zip(params, args)))
        return self._work[key]


def _every_pile(piles: set | None) -> bool:
    return piles is not None and all(var is None for _, var in piles)


def _takes_a_list(name: str, given: int) -> bool:
    """Whether a built-in's first argument may be a list whose items it goes through (the
    functions of tricks take a card; ``max(a, b)`` is handed its values one by one)."""
    builtin = BUILTINS.get(name)
    if builtin is None or not builtin.params or builtin.variadic and given > len(builtin.params):
        return False
    kind = builtin.params[0].type
    return isinstance(kind, (ListOf, MapOf, OneOf)) or kind == ANY
