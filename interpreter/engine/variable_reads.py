"""What an expression reads, when that is little: the game variables it depends on, if it reads
nothing else of the state of play (no zone, no seat, no acting seat, no function of the context).

Such an expression's value depends only on its locals and those variables (the options are
constant, a card's printed attributes never change), so the engine may keep its value for the
same locals and the same values of those variables (``tricks``: a card's effective suit and rank,
which only change with the trump). The analysis follows the checker's rules for names (a local,
then a host name, then a defined function, then a built-in) and reads the bodies of the defined
functions it calls; anything it does not know makes the answer None.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..expr import nodes as n
from ..expr import parse_expression
from ..expr.nodes import children

if TYPE_CHECKING:
    from ..expr.functions import UserFunction
    from ..expr.scope import Scope

FLOW_NAMES = {"me", "current", "players", "player_count", "round", "turn", "phase", "dice"}
# Card members read from the state of play (the others are printed on the card, or its identity).
CARD_STATE = {"face_up", "owner", "slot"}


def variables_read(scope: Scope, game: Any, node: n.Node, locals_: set[str]) -> tuple[str, ...] | None:
    """The game variables ``node`` reads (sorted), or None when it may read anything else of the
    state of play."""
    found: set[str] = set()
    try:
        _Reads(scope, game, found).visit(node, frozenset(locals_))
    except _Impure:
        return None
    return tuple(sorted(found))


class _Impure(Exception):
    """The expression reads something besides its locals, options and game variables."""


class _Reads:
    def __init__(self, scope: Scope, game: Any, found: set[str]):
        self.scope, self.game, self.found = scope, game, found
        self.bodies: set[str] = set()       # the defined functions already read (or being read)
        types = game.types
        other = set(types.seat.members) | set(types.zone.members)
        self.pure_members = set(types.card.members) - CARD_STATE - other
        variables = game.variables
        self.host = {name for level in variables.values() for name in level} | set(game.zones) | FLOW_NAMES
        self.game_variables = set(variables.get("game", {})) - set(game.zones) - FLOW_NAMES
        self.options = set(game.options) - self.host

    def visit(self, node: Any, bound: frozenset) -> None:
        kind = type(node)
        if kind is n.Literal:
            return
        if kind is n.Name:
            return self.name(node.name, bound)
        if kind is n.Member:
            if node.name not in self.pure_members:
                raise _Impure
            return self.visit(node.obj, bound)
        if kind is n.Call:
            return self.call(node, bound)
        if kind is n.Lambda:
            return self.visit(node.body, bound | set(node.params))
        if kind is n.Comprehension:
            inner = bound
            for loop in node.loops:
                self.visit(loop.iterable, inner)
                inner = inner | {loop.var}
                for condition in loop.conditions:
                    self.visit(condition, inner)
            return self.visit(node.element, inner)
        if kind in _PLAIN:
            for child in children(node):
                self.visit(child, bound)
            return
        raise _Impure

    def name(self, name: str, bound: frozenset) -> None:
        if name in bound:
            return
        if name in self.scope.names:
            if name in self.game_variables:
                self.found.add(name)
                return
            if name in self.options:
                return
            raise _Impure
        function = self.scope.functions.get(name)
        if function is None or function.params:
            raise _Impure
        self.body(function)

    def call(self, node: n.Call, bound: frozenset) -> None:
        callee = node.callee
        if not isinstance(callee, n.Name) or callee.name in bound or callee.name in self.scope.names:
            raise _Impure
        for arg in node.args:
            self.visit(arg, bound)
        function = self.scope.functions.get(callee.name)
        if function is not None:
            return self.body(function)
        builtin = self.scope.registry.get(callee.name)
        if builtin is None or builtin.needs_ctx:
            raise _Impure

    def body(self, function: UserFunction) -> None:
        if function.name in self.bodies:
            return
        self.bodies.add(function.name)
        self.visit(parse_expression(function.body_text, function.locate), frozenset(function.params))


_PLAIN = (n.ListDisplay, n.MapDisplay, n.Range, n.Negation, n.Not, n.Arith, n.Compare, n.BoolOp, n.IfElse,
          n.Index, n.Slice)
