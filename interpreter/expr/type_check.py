"""Static check: resolves every name, member and call, infers types, and collects every problem.

The checker never stops at the first problem: it records an ``ExprCheckError`` and carries on
with type ``ANY`` for the faulty part, so one pass reports everything. What it resolves (which
binding a name is, which getter a member uses, which function a call runs) is kept in
``Resolved`` for the compiler, which therefore never looks anything up by name at run time.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..errors import ExprCheckError, ExprSyntaxError, Position, RulesError, did_you_mean
from . import nodes as n
from .functions import Cycle, DependentError
from .scope import Scope
from .types import (
    ANY,
    BOOL,
    FUNC,
    INT,
    NONE,
    NUMBER,
    STR,
    ListOf,
    MapOf,
    ObjectType,
    OneOf,
    Type,
    compatible,
    element_type,
    is_iterable,
    is_numeric,
    join,
    join_all,
)

if TYPE_CHECKING:
    from .registry import Builtin

_LITERAL_TYPES = {bool: BOOL, int: INT, float: NUMBER, str: STR, type(None): NONE}
_VERBS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "divide",
          "%": "take the remainder of"}
_NEVER_ARITHMETIC = (BOOL, NONE, FUNC)
MAP_KEY = OneOf(STR, INT)


@dataclass
class Resolved:
    """What the checker learned, keyed by ``id(node)``, for the compiler."""

    types: dict[int, Type] = field(default_factory=dict)
    targets: dict[int, tuple] = field(default_factory=dict)
    tracked: bool = False   # needs a work budget: it loops, makes functions or calls defined ones


class Checker:
    def __init__(self, scope: Scope, locate: Callable[[int, int], Position], compile_body: Callable):
        self.scope = scope
        self.locate = locate
        self.compile_body = compile_body    # how a defined function's body is compiled, when first used
        self.errors: list[RulesError] = []
        self.resolved = Resolved()
        self._visitors: dict[type, Callable] = {
            n.Literal: self._literal, n.Name: self._name, n.ListDisplay: self._list,
            n.MapDisplay: self._map, n.Range: self._range, n.Negation: self._negation, n.Not: self._not,
            n.Arith: self._arith, n.Compare: self._compare, n.BoolOp: self._bool_op,
            n.IfElse: self._if_else, n.Member: self._member, n.Index: self._index, n.Slice: self._slice,
            n.Call: self._call, n.Lambda: self._lambda, n.Comprehension: self._comprehension,
            n.Tuple: self._tuple,
        }

    # --- plumbing ------------------------------------------------------------------------

    def check(self, node: n.Node, expect: Type | None = None) -> Type:
        result = self.visit(node, dict(self.scope.locals))
        if expect is not None and not compatible(result, expect):
            self.fail(node, f"expected {expect}, got {result}")
        return result

    def visit(self, node: n.Node, local: dict[str, Type], params: list[Type] | None = None) -> Type:
        if isinstance(node, n.Lambda):
            result = self._lambda(node, local, params)
        else:
            result = self._visitors[type(node)](node, local)
        self.resolved.types[id(node)] = result
        return result

    def pos(self, start: int, end: int) -> Position:
        return self.locate(start, max(1, end - start))

    def fail(self, node: n.Node, message: str, hint: str | None = None, *, at: tuple[int, int] | None = None,
             kind: type = ExprCheckError) -> Type:
        start, end = at or (node.start, node.end)
        self.errors.append(kind(message, self.pos(start, end), hint))
        return ANY

    def _want_bool(self, node: n.Node, local: dict, what: str) -> None:
        t = self.visit(node, local)
        if not compatible(t, BOOL):
            self.fail(node, f"{what} must be a bool, got {t}")

    def _private(self, node: n.Node, name: str, at: tuple[int, int] | None = None) -> bool:
        if name.startswith("_"):
            self.fail(node, "names may not begin with '_'", at=at)
            return True
        return False

    # --- leaves and displays -------------------------------------------------------------

    def _literal(self, node: n.Literal, local: dict) -> Type:
        return _LITERAL_TYPES[type(node.value)]

    def _name(self, node: n.Name, local: dict) -> Type:
        name = node.name
        if self._private(node, name):
            return ANY
        if name in local:
            self.resolved.targets[id(node)] = ("local",)
            return local[name]
        if name in self.scope.names:
            binding = self.scope.names[name]
            if binding.acting and self.scope.seatless:
                return self.fail(node, f"'{name}' is {binding.doc}, but no seat acts {self.scope.seatless}",
                                 _seat_named_hint(name))
            self.resolved.targets[id(node)] = ("host", binding)
            return binding.type
        if self.scope.functions.get(name) is not None:
            return self._user_call(node, name, [], local)
        if self.scope.registry.get(name) is not None:
            return self.fail(node, f"'{name}' is a function", f"call it: {name}(...)")
        hint = did_you_mean(name, [*local, *self.scope.visible_names()])
        return self.fail(node, f"unknown name '{name}'", hint)

    def _list(self, node: n.ListDisplay, local: dict) -> Type:
        return ListOf(join_all([self.visit(item, local) for item in node.items]))

    def _map(self, node: n.MapDisplay, local: dict) -> Type:
        key_types, value_types = [], []
        for key, value in node.pairs:
            key_type = self.visit(key, local)
            if not compatible(key_type, MAP_KEY):
                self.fail(key, f"map keys must be strings or ints, got {key_type}")
            key_types.append(key_type)
            value_types.append(self.visit(value, local))
        return MapOf(join_all(key_types), join_all(value_types))

    def _tuple(self, node: n.Tuple, local: dict) -> Type:
        for item in node.items:
            self.visit(item, local)
        return self.fail(node, "a list in parentheses is only allowed before '=>'",
                         "use [a, b] for a list", kind=ExprSyntaxError)

    def _range(self, node: n.Range, local: dict) -> Type:
        for end in (node.low, node.high):
            t = self.visit(end, local)
            if not compatible(t, INT):
                self.fail(end, f"the ends of a range must be ints, got {t}")
        return ListOf(INT)

    # --- operators -----------------------------------------------------------------------

    def _negation(self, node: n.Negation, local: dict) -> Type:
        t = self.visit(node.operand, local)
        if t != ANY and not is_numeric(t):
            return self.fail(node, f"cannot negate {t}")
        return t

    def _not(self, node: n.Not, local: dict) -> Type:
        t = self.visit(node.operand, local)
        if not compatible(t, BOOL):
            self.fail(node, f"'not' needs a bool, got {t}")
        return BOOL

    def _arith(self, node: n.Arith, local: dict) -> Type:
        result = self.visit(node.first, local)
        for op, operand in node.steps:
            right = self.visit(operand, local)
            combined = _arith_type(op, result, right)
            if combined is None:
                self.fail(node, f"cannot {_VERBS[op]} {result} and {right}", at=(node.first.start, operand.end))
                combined = ANY
            result = combined
        return result

    def _compare(self, node: n.Compare, local: dict) -> Type:
        left = self.visit(node.first, local)
        for op, operand in node.steps:
            right = self.visit(operand, local)
            problem = _comparison_problem(op, left, right)
            if problem:
                self.fail(node, problem, at=(node.first.start, operand.end))
            left = right
        return BOOL

    def _bool_op(self, node: n.BoolOp, local: dict) -> Type:
        for operand in node.operands:
            t = self.visit(operand, local)
            if not compatible(t, BOOL):
                self.fail(operand, f"'{node.op}' needs bool operands, got {t}")
        return BOOL

    def _if_else(self, node: n.IfElse, local: dict) -> Type:
        self._want_bool(node.test, local, "the condition of 'if'")
        return join(self.visit(node.then, local), self.visit(node.other, local))

    # --- access --------------------------------------------------------------------------

    def _member(self, node: n.Member, local: dict) -> Type:
        t = self.visit(node.obj, local)
        name_at = (node.name_start, node.end)
        if self._private(node, node.name, at=name_at):
            return ANY
        if isinstance(t, ObjectType):
            member = t.members.get(node.name)
            if member is None:
                return self.fail(node, f"{t} has no member '{node.name}'", did_you_mean(node.name, t.members),
                                 at=name_at)
            self.resolved.targets[id(node)] = ("object", member)
            return member.type
        if isinstance(t, MapOf):
            self.resolved.targets[id(node)] = ("dynamic",)
            return t.value
        if t == ANY:
            self.resolved.targets[id(node)] = ("dynamic",)
            return ANY
        return self.fail(node, f"{t} has no member '{node.name}'", at=name_at)

    def _index(self, node: n.Index, local: dict) -> Type:
        t = self.visit(node.obj, local)
        key = self.visit(node.index, local)
        if isinstance(t, MapOf):
            if not compatible(key, t.key):
                self.fail(node.index, f"a key of this map must be {t.key}, got {key}")
            return t.value
        if t == ANY:
            return ANY
        if isinstance(t, ListOf) or t == STR:
            if not compatible(key, INT):
                self.fail(node.index, f"an index must be an int, got {key}")
            return element_type(t)
        return self.fail(node, f"cannot index {t}")

    def _slice(self, node: n.Slice, local: dict) -> Type:
        t = self.visit(node.obj, local)
        for bound in (node.low, node.high):
            if bound is not None:
                bound_type = self.visit(bound, local)
                if not compatible(bound_type, INT):
                    self.fail(bound, f"a slice bound must be an int, got {bound_type}")
        if isinstance(t, ListOf) or t in (STR, ANY):
            return t
        return self.fail(node, f"cannot slice {t}")

    # --- calls and functions -------------------------------------------------------------

    def _call(self, node: n.Call, local: dict) -> Type:
        callee = node.callee
        if not isinstance(callee, n.Name):
            self.visit(callee, local)
            return self._args_then_fail(node, local, "only functions can be called")
        name = callee.name
        if self._private(callee, name):
            return self._args_then_fail(node, local, None)
        if name in local or name in self.scope.names:
            return self._args_then_fail(node, local, f"'{name}' is not a function")
        if self.scope.functions.get(name) is not None:
            return self._user_call(node, name, list(node.args), local)
        builtin = self.scope.registry.get(name)
        if builtin is None:
            candidates = [*self.scope.registry.names(), *self.scope.functions.names()]
            hint = did_you_mean(name, candidates)
            return self._args_then_fail(node, local, f"unknown function '{name}'", hint, at=(callee.start, callee.end))
        return self._builtin_call(node, builtin, local)

    def _args_then_fail(self, node: n.Call, local: dict, message: str | None, hint: str | None = None,
                        at: tuple[int, int] | None = None) -> Type:
        for arg in node.args:
            self.visit(arg, local)
        return self.fail(node, message, hint, at=at) if message else ANY

    def _builtin_call(self, node: n.Call, builtin: Builtin, local: dict) -> Type:
        problem = builtin.arity_problem(len(node.args))
        if problem:
            return self._args_then_fail(node, local, problem)
        arg_types: list[Type] = []
        for i, arg in enumerate(node.args):
            param = builtin.param_at(i)
            arg_types.append(self._argument(builtin, i, arg, arg_types, local))
            if not compatible(arg_types[-1], param.type):
                self.fail(arg, f"argument {i + 1} of {builtin.name}() must be {param.type}, not {arg_types[-1]}")
                arg_types[-1] = ANY
        self.resolved.targets[id(node)] = ("builtin", builtin)
        return builtin.result_type(arg_types)

    def _argument(self, builtin: Builtin, i: int, arg: n.Node, earlier: list[Type], local: dict) -> Type:
        """A lambda given to a function that applies it to the items of another argument gets
        those items' type for its parameter, so ``max_by(cards, c => c.rnak)`` is caught here."""
        if not (isinstance(arg, n.Lambda) and builtin.applies_to is not None and builtin.applies_to < i):
            return self.visit(arg, local)
        if len(arg.params) != 1:
            self.fail(arg, f"the function given to {builtin.name}() must take 1 parameter, not {len(arg.params)}")
        return self.visit(arg, local, [element_type(earlier[builtin.applies_to])] * len(arg.params))

    def _user_call(self, node: n.Node, name: str, args: list[n.Node], local: dict) -> Type:
        self.resolved.tracked = True
        definition = self.scope.functions.get(name)
        assert definition is not None       # the callers found it
        arg_types = [self.visit(arg, local) for arg in args]
        if len(args) != len(definition.params):
            count = len(definition.params)
            plural = "" if count == 1 else "s"
            if not args:
                return self.fail(node, f"'{name}' is a function of {count} parameter{plural}",
                                 f"call it: {name}({', '.join(definition.params)})")
            return self.fail(node, f"{name}() takes {count} argument{plural} ({len(args)} given)")
        try:
            compiled = self.scope.functions.resolve(name, self.compile_body)
        except Cycle as cycle:
            return self.fail(node, f"recursion is not allowed: {' -> '.join(cycle.names)}",
                             "a defined function may not call itself, directly or through others")
        if compiled is None:
            self.errors.append(DependentError(f"'{name}' cannot be used: its definition has errors",
                                              self.pos(node.start, node.end)))
            return ANY
        self.scope.functions.note_call(name, arg_types)
        specializer = self.scope.functions.specializer(name, arg_types, self.compile_body)
        self.resolved.targets[id(node)] = ("user", compiled, specializer)
        # Called with cards or seats, the body compiled for them may know its result's type better
        # (``if alone then p else players[0]`` is a seat when p is), and so then do its callers.
        special = specializer() if specializer is not None and _vague(compiled.type) else None
        return compiled.type if special is None else special.type

    def _lambda(self, node: n.Lambda, local: dict, params: list[Type] | None = None) -> Type:
        self.resolved.tracked = True
        inner = dict(local)
        for i, param in enumerate(node.params):
            if not self._private(node, param):
                inner[param] = params[i] if params else ANY
        self.visit(node.body, inner)
        return FUNC

    def _comprehension(self, node: n.Comprehension, local: dict) -> Type:
        self.resolved.tracked = True
        inner = dict(local)
        for loop in node.loops:
            t = self.visit(loop.iterable, inner)
            if not is_iterable(t):
                self.fail(loop.iterable, f"cannot loop over {t}")
            if not self._private(loop, loop.var, at=(loop.start, loop.start + len(loop.var))):
                inner = {**inner, loop.var: element_type(t)}
            for condition in loop.conditions:
                self._want_bool(condition, inner, "the condition after 'if'")
        return ListOf(self.visit(node.element, inner))


def _arith_type(op: str, a: Type, b: Type) -> Type | None:
    """The type of ``a op b``, or None when the operation can never work."""
    if a in _NEVER_ARITHMETIC or b in _NEVER_ARITHMETIC or isinstance(a, (ObjectType, MapOf)) \
            or isinstance(b, (ObjectType, MapOf)):
        return None
    if is_numeric(a) and is_numeric(b):
        return INT if a == b == INT and op != "/" else NUMBER
    if op == "+":
        if a == b == STR or ANY in (a, b) and STR in (a, b):
            return STR
        if isinstance(a, ListOf) and isinstance(b, ListOf):
            return ListOf(join(a.elem, b.elem))
        if ANY in (a, b) and (isinstance(a, ListOf) or isinstance(b, ListOf)):
            return ListOf(ANY)
        if ANY in (a, b):
            return ANY
        return None
    if ANY in (a, b) and (a == ANY or is_numeric(a)) and (b == ANY or is_numeric(b)):
        return NUMBER
    return None


def _comparison_problem(op: str, a: Type, b: Type) -> str | None:
    if op in ("==", "!="):
        return f"'{op}' compares {a} with {b}: they are never equal" if never_equal(a, b) else None
    if op in ("in", "not in"):
        if not (b == ANY or b == STR or isinstance(b, (ListOf, MapOf))):
            return f"'{op}' needs a list, map or str on its right, got {b}"
        if b == STR and not compatible(a, STR):
            return f"cannot look for {a} in a str"
        if isinstance(b, ListOf) and never_equal(a, b.elem):
            return f"'{op}' looks for {a} in a {b}: it is never there"
        return None
    if ANY in (a, b) or (is_numeric(a) and is_numeric(b)) or a == b == STR \
            or (isinstance(a, ListOf) and isinstance(b, ListOf)):
        return None
    return f"cannot compare {a} and {b}"


def never_equal(a: Type, b: Type) -> bool:
    """Whether values of these two static types can never be equal (a number and a text, a seat
    and a card). Unknown types, none (any variable may hold it) and lists (two empty lists are
    equal whatever they were meant to hold) can always be."""
    if ANY in (a, b) or NONE in (a, b) or isinstance(a, OneOf) or isinstance(b, OneOf):
        return False
    if isinstance(a, ListOf) and isinstance(b, ListOf) or isinstance(a, MapOf) and isinstance(b, MapOf):
        return False
    return not (compatible(a, b) or compatible(b, a))


def _vague(t: Type) -> bool:
    """Whether a type is, or holds, ``any``: a closer look may know it better."""
    if isinstance(t, ListOf):
        return _vague(t.elem)
    if isinstance(t, MapOf):
        return _vague(t.key) or _vague(t.value)
    return t == ANY


def _seat_named_hint(name: str) -> str:
    if name == "me":
        return "name the seat: players[0], or p with 'for: p in players'"
    return f"name the seat: players[0].{name}, or p.{name} with 'for: p in players'"
