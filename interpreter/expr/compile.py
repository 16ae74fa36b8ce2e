"""Compiles a checked syntax tree into nested Python closures ``fn(ctx, env)``, once.

Nothing is looked up by name at run time: names, members and functions were resolved by the
checker. Literal-only parts are folded into constants. Closures that can fail catch the failure
and re-raise it as an ``EvalError`` at their own position (try blocks cost nothing in Python 3.11
until something is raised). Loops, lambdas and calls of defined functions spend a work budget
kept in ``env`` under a key no user name can take (user names never begin with '_').
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..errors import ErrorList, Position
from . import nodes as n
from . import ops
from .type_check import Checker, Resolved
from .compile_calls import CallCompiler
from .functions import CompiledFunction
from .nodes import all_nodes, children
from .parse import parse_expression, text_locator
from .runtime import Compiled, Fn, fault, sized, with_budget
from .scope import Locator, Scope, UserFunction
from .shapes import read_error, single_compare
from .switch import switch_cases, switch_fn, table_of
from .types import ANY, BOOL, STR, ListOf, ObjectType, Type, element_type


@dataclass(frozen=True, slots=True)
class Piece:
    """A compiled sub-expression; ``constant`` when it was folded to ``value``."""

    fn: Fn
    constant: bool = False
    value: Any = None
    unsized: Fn | None = None     # ``fn`` without spending its result's size, for a loop to go through


def _constant(value: Any) -> Piece:
    if isinstance(value, list):
        return Piece(lambda ctx, env: list(value), True, value)   # a fresh list: callers may keep it
    if isinstance(value, dict):
        return Piece(lambda ctx, env: dict(value), True, value)
    return Piece(lambda ctx, env: value, True, value)


class Compiler(CallCompiler):
    def __init__(self, resolved: Resolved, locate: Locator, root: n.Node):
        self.resolved = resolved
        self.locate = locate
        self._pieces: dict[int, Piece] = {}
        # Whether the closures spend a work budget (then the caller puts one in ``env``).
        self.budget = resolved.tracked and any(self._spends(node) for node in all_nodes(root))
        self._compilers: dict[type, Callable[[Any], Fn]] = {
            n.Name: self._name, n.ListDisplay: self._list, n.MapDisplay: self._map, n.Range: self._range,
            n.Negation: self._negation, n.Not: self._not, n.Arith: self._arith, n.Compare: self._compare,
            n.BoolOp: self._bool_op, n.IfElse: self._if_else, n.Member: self._member, n.Index: self._index,
            n.Slice: self._slice, n.Call: self._call, n.Lambda: self._lambda,
            n.Comprehension: self._comprehension,
        }
        self._foldable = (n.ListDisplay, n.MapDisplay, n.Range, n.Negation, n.Not, n.Arith, n.Compare,
                          n.BoolOp, n.IfElse, n.Index, n.Slice)

    def piece(self, node: n.Node) -> Piece:
        if id(node) not in self._pieces:
            self._pieces[id(node)] = self._make_piece(node)
        return self._pieces[id(node)]

    def _make_piece(self, node: n.Node) -> Piece:
        if isinstance(node, n.Literal):
            return _constant(node.value)
        function = self._constant_function(node)
        if function is not None:
            return _constant(function.compiled.value)
        fn = self._compilers[type(node)](node)
        if isinstance(node, self._foldable) and all(self.piece(c).constant for c in children(node)):
            try:
                folded = _constant(fn(None, {}))
            except Exception:  # noqa: BLE001 - a failing constant part fails at run time, where it belongs
                pass
            else:
                if self.budget and isinstance(folded.value, list):  # copied each time: its size is spent
                    value = folded.value
                    return Piece(sized(folded.fn, self.pos(node)), True, value, lambda ctx, env: value)
                return folded
        if self.budget and self._makes_collection(node):
            return Piece(sized(fn, self.pos(node)), unsized=fn)
        return Piece(fn)

    def _makes_collection(self, node: n.Node) -> bool:
        """Whether the node may make a new list or string from smaller parts (``1..n``, ``a + b``,
        ``xs[i:j]``): its size is spent from the work budget, so that a loop cannot make many
        large ones in few steps."""
        if isinstance(node, (n.Range, n.Slice)):
            return True
        if isinstance(node, n.Arith) and any(op == "+" for op, _ in node.steps):
            made = self.resolved.types.get(id(node), ANY)
            return made in (ANY, STR) or isinstance(made, ListOf)
        return False

    def fn(self, node: n.Node) -> Fn:
        return self.piece(node).fn

    def _constant_function(self, node: n.Node) -> Any:
        """The defined function ``node`` calls when it takes no parameters and its body is a
        constant (``suits: '["clubs", ...]'``): the call is folded to that constant."""
        if not isinstance(node, (n.Name, n.Call)):
            return None
        target = self.resolved.targets.get(id(node))
        if target is None or target[0] != "user":
            return None
        function = target[1]
        return function if not function.params and function.compiled.constant else None

    def _spends(self, node: n.Node) -> bool:
        if isinstance(node, (n.Lambda, n.Comprehension)):
            return True
        target = self.resolved.targets.get(id(node)) if isinstance(node, (n.Name, n.Call)) else None
        return target is not None and target[0] == "user" and self._constant_function(node) is None

    def pos(self, node: n.Node, start: int | None = None) -> Position:
        start = node.start if start is None else start
        return self.locate(start, max(1, node.end - start))

    def _is_bool(self, node: n.Node) -> bool:
        return self.resolved.types.get(id(node)) == BOOL

    def _bool_fn(self, node: n.Node, what: str) -> Fn:
        """``node`` as a closure that returns a bool or fails at ``node``'s position."""
        fn = self.fn(node)
        if self._is_bool(node):
            return fn
        pos, truth = self.pos(node), ops.truth

        def run(ctx, env):
            value = fn(ctx, env)
            if value is True or value is False:
                return value
            try:
                return truth(value, what)
            except Exception as e:
                raise fault(e, pos) from None
        return run

    # --- names and displays --------------------------------------------------------------

    def _name(self, node: n.Name) -> Fn:
        target = self.resolved.targets[id(node)]
        if target[0] == "local":
            name = node.name
            return lambda ctx, env: env[name]
        if target[0] == "host":
            get = target[1].get
            return lambda ctx, env: get(ctx)
        return self._user_call_fn(node, target[1], [])

    def _list(self, node: n.ListDisplay) -> Fn:
        items = [self.fn(item) for item in node.items]
        return lambda ctx, env: [f(ctx, env) for f in items]

    def _map(self, node: n.MapDisplay) -> Fn:
        pairs = [(self.fn(k), self.fn(v)) for k, v in node.pairs]
        pos, key_of = self.pos(node), ops.map_key

        def run(ctx, env):
            try:
                return {key_of(k(ctx, env)): v(ctx, env) for k, v in pairs}
            except Exception as e:
                raise fault(e, pos) from None
        return run

    def _range(self, node: n.Range) -> Fn:
        return self._binary(node, ops.inclusive_range, node.low, node.high)

    def _binary(self, node: n.Node, op: Callable, left: n.Node, right: n.Node) -> Fn:
        a, b, pos = self.fn(left), self.fn(right), self.pos(node)

        def run(ctx, env):
            try:
                return op(a(ctx, env), b(ctx, env))
            except Exception as e:
                raise fault(e, pos) from None
        return run

    def _unary(self, node: n.Node, op: Callable, operand: n.Node) -> Fn:
        a, pos = self.fn(operand), self.pos(node)

        def run(ctx, env):
            try:
                return op(a(ctx, env))
            except Exception as e:
                raise fault(e, pos) from None
        return run

    # --- operators -----------------------------------------------------------------------

    def _negation(self, node: n.Negation) -> Fn:
        return self._unary(node, ops.negate, node.operand)

    def _not(self, node: n.Not) -> Fn:
        operand = self._bool_fn(node.operand, "the operand of 'not'")
        return lambda ctx, env: not operand(ctx, env)

    def _arith(self, node: n.Arith) -> Fn:
        # A failing step is blamed on the chain up to it: in `a + b - c`, `- c` fails as `a + b - c`.
        first = self.fn(node.first)
        steps = [(ops.ARITHMETIC[op], self.fn(x), self.locate(node.start, max(1, x.end - node.start)))
                 for op, x in node.steps]
        if len(steps) == 1:
            op, right, pos = steps[0]

            def single(ctx, env):
                try:
                    return op(first(ctx, env), right(ctx, env))
                except Exception as e:
                    raise fault(e, pos) from None
            return single

        def chain(ctx, env):
            value = first(ctx, env)
            for op, right_fn, pos in steps:
                right = right_fn(ctx, env)
                try:
                    value = op(value, right)
                except Exception as e:
                    raise fault(e, pos) from None
            return value
        return chain

    def _compare(self, node: n.Compare) -> Fn:
        first = self.fn(node.first)
        steps = [(ops.COMPARISONS[op], self.fn(x), self.locate(node.start, max(1, x.end - node.start)))
                 for op, x in node.steps]
        if len(steps) == 1:
            op, right = node.steps[0]
            return single_compare(op, first, self.piece(right), steps[0][2])

        def chain(ctx, env):
            left = first(ctx, env)
            for test, right_fn, pos in steps:
                right = right_fn(ctx, env)
                try:
                    if not test(left, right):
                        return False
                except Exception as e:
                    raise fault(e, pos) from None
                left = right
            return True
        return chain

    def _bool_op(self, node: n.BoolOp) -> Fn:
        operands = [self._bool_fn(x, f"an operand of '{node.op}'") for x in node.operands]
        if node.op == "and":
            if len(operands) == 2:
                a, b = operands
                return lambda ctx, env: a(ctx, env) and b(ctx, env)

            def all_of(ctx, env):
                for f in operands:
                    if not f(ctx, env):
                        return False
                return True
            return all_of
        if len(operands) == 2:
            a, b = operands
            return lambda ctx, env: a(ctx, env) or b(ctx, env)

        def any_of(ctx, env):
            for f in operands:
                if f(ctx, env):
                    return True
            return False
        return any_of

    def _if_else(self, node: n.IfElse) -> Fn:
        chain = switch_cases(node, lambda x: (self.piece(x).constant, self.piece(x).value), self.resolved.targets)
        if chain is not None:
            subject, cases, otherwise = chain
            return switch_fn(self.fn(subject), table_of([(keys, self.fn(then)) for keys, then in cases]),
                             self.fn(otherwise))
        test = self._bool_fn(node.test, "the condition of 'if'")
        then, other = self.fn(node.then), self.fn(node.other)
        return lambda ctx, env: then(ctx, env) if test(ctx, env) else other(ctx, env)

    # --- access --------------------------------------------------------------------------

    def _member(self, node: n.Member) -> Fn:
        target = self.resolved.targets[id(node)]
        get = target[1].get if target[0] == "object" else ops.member_reader(node.name)
        obj, member, pos = node.obj, node.name, self.pos(node)
        if isinstance(obj, n.Name) and self.resolved.targets.get(id(obj)) == ("local",):
            # ``card.suit`` on a parameter or loop variable: the common shape, read straight from env.
            name = obj.name

            def local_member(ctx, env):
                try:
                    return get(env[name])
                except Exception as e:
                    raise fault(read_error(e, env.get(name), member), pos) from None
            return local_member
        value_of = self.fn(obj)

        def read_member(ctx, env):
            value = value_of(ctx, env)
            try:
                return get(value)
            except Exception as e:
                raise fault(read_error(e, value, member), pos) from None
        return read_member

    def _index(self, node: n.Index) -> Fn:
        return self._binary(node, ops.index, node.obj, node.index)

    def _slice(self, node: n.Slice) -> Fn:
        obj, pos = self.fn(node.obj), self.pos(node)
        low = self.fn(node.low) if node.low is not None else (lambda ctx, env: None)
        high = self.fn(node.high) if node.high is not None else (lambda ctx, env: None)

        def run(ctx, env):
            try:
                return ops.slice_of(obj(ctx, env), low(ctx, env), high(ctx, env))
            except Exception as e:
                raise fault(e, pos) from None
        return run


def item_type(collection: Any) -> ObjectType | None:
    """The host-object type (card, seat...) of the items of a compiled collection, if known: a
    host that binds a local to them lets it read their members directly."""
    found = element_type(collection.type) if isinstance(collection, Compiled) else None
    return found if isinstance(found, ObjectType) else None


def compile_expression(text: str, scope: Scope, locate: Locator | None = None,
                       expect: Type | None = None) -> Compiled:
    """Parse, check (every problem at once) and compile ``text``; ``expect`` is the type needed."""
    return _compile(text, scope, locate, expect)


def compile_body(text: str, scope: Scope, locate: Locator | None = None) -> Compiled:
    """A defined function's body: its callers hand it their work budget through ``env``."""
    return _compile(text, scope, locate, None)


def _compile(text: str, scope: Scope, locate: Locator | None, expect: Type | None) -> Compiled:
    locate = locate or text_locator(text)
    node = parse_expression(text, locate)
    checker = Checker(scope, locate, compile_body)
    result = checker.check(node, expect)
    if checker.errors:
        raise checker.errors[0] if len(checker.errors) == 1 else ErrorList(checker.errors)
    compiler = Compiler(checker.resolved, locate, node)
    piece = compiler.piece(node)
    body = piece.fn
    fn = with_budget(body) if compiler.budget else body
    return Compiled(text, result, node, locate(node.start, node.end - node.start), fn, body,
                    piece.constant, piece.value)


def compile_functions(definitions: dict[str, UserFunction], scope: Scope) -> dict[str, CompiledFunction]:
    """Compile the functions a game defines, once at load, in a scope that also sees them."""
    return compile_defined(scope.child(functions=definitions))


def compile_defined(scope: Scope) -> dict[str, CompiledFunction]:
    """Compile every function defined in ``scope``; raise all their errors together."""
    return scope.functions.compile_all(compile_body)


def check_uses(scope: Scope) -> list:
    """Once every expression of the host is compiled in ``scope``: the errors of the functions it
    defines, checked with the types they are called with (``FunctionTable.errors_by_use``)."""
    return scope.functions.errors_by_use(compile_body)
