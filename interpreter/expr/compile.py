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

from .. import limits
from ..errors import ErrorList, EvalError, LimitError, Position, RulesError
from . import nodes as n
from . import ops
from .check import Checker, Resolved
from .parse import parse_expression, text_locator
from .scope import Locator, Scope
from .switch import switch_cases, switch_fn, table_of
from .types import BOOL, ObjectType, Type, element_type
from .values import FunctionValue

Fn = Callable[[Any, dict], Any]
STEPS = "_steps"   # a one-item list: the work left in this evaluation
CALLS = "_calls"   # how many defined functions are running, nested
# A dict in which defined functions' results are remembered, by name and arguments. Each
# evaluation makes its own, as nothing an expression reads can change while it runs; a host may
# hand one in to keep it over several evaluations (while what they read cannot change).
MEMO = "_memo"
_MISSING = object()


SIZED = (list, tuple, dict, str)


def spend(env: dict, amount: int) -> None:
    cell = env[STEPS]
    cell[0] -= amount
    if cell[0] < 0:
        raise _too_many_steps()


def _too_many_steps() -> LimitError:
    return LimitError(f"expression takes too many steps (limit {limits.MAX_EVAL_STEPS})",
                      hint="loop over fewer items, or split the work")


def describe(error: Exception) -> str:
    """Plain words for a Python failure that escaped the language's own checks."""
    if isinstance(error, ZeroDivisionError):
        return "division by zero"
    if isinstance(error, RecursionError):
        return "values nested too deeply"
    if isinstance(error, MemoryError):
        return "out of memory"
    return f"cannot evaluate: {error}"


def fault(error: Exception, pos: Position) -> RulesError:
    """The error to raise for ``error`` caught by the closure at ``pos``."""
    if isinstance(error, RulesError):
        if error.pos is None:
            error.pos = pos
        return error
    return EvalError(describe(error), pos)


@dataclass(frozen=True, slots=True)
class Piece:
    """A compiled sub-expression; ``constant`` when it was folded to ``value``."""

    fn: Fn
    constant: bool = False
    value: Any = None


def _constant(value: Any) -> Piece:
    if isinstance(value, list):
        return Piece(lambda ctx, env: list(value), True, value)   # a fresh list: callers may keep it
    if isinstance(value, dict):
        return Piece(lambda ctx, env: dict(value), True, value)
    return Piece(lambda ctx, env: value, True, value)


class Compiler:
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
        if isinstance(node, self._foldable) and all(self.piece(c).constant for c in _children(node)):
            try:
                return _constant(fn(None, {}))
            except Exception:  # noqa: BLE001 - a failing constant part fails at run time, where it belongs
                pass
        return Piece(fn)

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
            return _single_compare(op, first, self.piece(right), steps[0][2])

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
            subject, cases, other = chain
            return switch_fn(self.fn(subject), table_of([(keys, self.fn(then)) for keys, then in cases]),
                             self.fn(other))
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
                    raise fault(_read_error(e, env.get(name), member), pos) from None
            return local_member
        value_of = self.fn(obj)

        def read_member(ctx, env):
            value = value_of(ctx, env)
            try:
                return get(value)
            except Exception as e:
                raise fault(_read_error(e, value, member), pos) from None
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

    # --- calls, functions, loops ---------------------------------------------------------

    def _call(self, node: n.Call) -> Fn:
        kind, target, *specializer = self.resolved.targets[id(node)]
        if kind == "user":
            return self._user_call_fn(node, target, list(node.args), specializer[0])
        return self._builtin_call_fn(node, target)

    def _builtin_call_fn(self, node: n.Call, builtin: Any) -> Fn:
        deciding = self._deciding_loop(node, builtin)
        if deciding is not None:
            return deciding
        args, impl, pos = [self.fn(a) for a in node.args], builtin.impl, self.pos(node)
        if builtin.needs_ctx:
            return self._host_call_fn(args, impl, pos)
        if self.budget:     # a built-in works through its collections: count that work
            def counted(ctx, env):
                try:
                    values = [f(ctx, env) for f in args]
                    spend(env, sum(len(v) for v in values if isinstance(v, SIZED)))
                    return impl(*values)
                except Exception as e:
                    raise fault(e, pos) from None
            return counted
        if len(args) == 1:
            (a,) = args

            def one(ctx, env):
                try:
                    return impl(a(ctx, env))
                except Exception as e:
                    raise fault(e, pos) from None
            return one
        if len(args) == 2:
            a, b = args

            def two(ctx, env):
                try:
                    return impl(a(ctx, env), b(ctx, env))
                except Exception as e:
                    raise fault(e, pos) from None
            return two

        def run(ctx, env):
            try:
                return impl(*[f(ctx, env) for f in args])
            except Exception as e:
                raise fault(e, pos) from None
        return run

    def _host_call_fn(self, args: list[Fn], impl: Callable, pos: Position) -> Fn:
        budget = self.budget

        def run(ctx, env):
            try:
                values = [f(ctx, env) for f in args]
                if budget:
                    spend(env, sum(len(v) for v in values if isinstance(v, SIZED)))
                return impl(ctx, *values)
            except Exception as e:
                raise fault(e, pos) from None
        return run

    def _user_call_fn(self, node: n.Node, function: Any, arg_nodes: list[n.Node],
                      specializer: Callable | None = None) -> Fn:
        args, params, pos = [self.fn(a) for a in arg_nodes], function.params, self.pos(node)
        most, name = limits.MAX_CALL_DEPTH, function.name
        if not args:
            return _constant_call(name, function.body, most, pos)
        one = args[0] if len(args) == 1 else None
        first = params[0]
        bodies = [function.body]
        if specializer is not None:
            def specialize(ctx, env):
                special = specializer()
                bodies[0] = function.body if special is None else special.body
                return bodies[0](ctx, env)
            bodies[0] = specialize
        if not function.remember:
            return _plain_call(list(zip(params, args)), bodies, most, pos)

        def run(ctx, env):
            calls = env.get(CALLS, 0) + 1
            try:
                steps = _enter(env, calls, most)
                values = (one(ctx, env),) if one is not None else tuple([f(ctx, env) for f in args])
            except Exception as e:
                raise fault(e, pos) from None
            memo = env.get(MEMO)
            key = _memo_key(memo, name, values)
            if key is not None:
                try:
                    found = memo.get(key, _MISSING)
                except TypeError:       # an argument holds a list or a map: not remembered
                    key = None
                else:
                    if found is not _MISSING:
                        return found
            if one is not None:
                inner = {first: values[0], STEPS: steps, CALLS: calls, MEMO: memo}
            else:
                inner = dict(zip(params, values))
                inner[STEPS] = steps
                inner[CALLS] = calls
                inner[MEMO] = memo
            result = bodies[0](ctx, inner)
            if key is not None:
                memo[key] = result
            return result
        return run

    def _deciding_loop(self, node: n.Call, builtin: Any) -> Fn | None:
        """``any(e for v in xs if c)``, ``all(...)``: one loop that stops at the first element
        that decides the answer, as Python's do; the rest are not worked out (nor checked)."""
        (arg,) = node.args if len(node.args) == 1 else (None,)
        if builtin.decided_by is None or not isinstance(arg, n.Comprehension) or len(arg.loops) != 1 \
                or len(arg.loops[0].conditions) > 1 or any(isinstance(x, n.Lambda) for x in all_nodes(arg)):
            return None
        loop, element, pos = arg.loops[0], self.fn(arg.element), self.pos(node)
        var, iterable = loop.var, self._iterable_fn(loop.iterable)
        condition = self._bool_fn(loop.conditions[0], "the condition after 'if'") if loop.conditions else None
        decides, what = builtin.decided_by, f"each item of {builtin.name}()"

        def run(ctx, env):
            steps = env[STEPS]
            inner = dict(env)
            try:
                for value in iterable(ctx, env):
                    steps[0] -= 1
                    if steps[0] < 0:
                        raise _too_many_steps()
                    inner[var] = value
                    if (condition is None or condition(ctx, inner)) and ops.truth(element(ctx, inner), what) is decides:
                        return decides
            except Exception as e:
                raise fault(e, pos) from None
            return not decides
        return run

    def _lambda(self, node: n.Lambda) -> Fn:
        body, params = self.fn(node.body), node.params

        def make(ctx, env):
            def invoke(args: tuple) -> Any:
                spend(env, 1)
                inner = dict(env)
                inner.update(zip(params, args))
                return body(ctx, inner)
            return FunctionValue(params, invoke)
        return make

    def _comprehension(self, node: n.Comprehension) -> Fn:
        element = self.fn(node.element)
        loops = [(loop.var, self._iterable_fn(loop.iterable),
                  [self._bool_fn(c, "the condition after 'if'") for c in loop.conditions])
                 for loop in node.loops]
        pos = self.pos(node)
        # Without a lambda inside (which could keep it), one dict serves every iteration.
        reuse = not any(isinstance(x, n.Lambda) for x in all_nodes(node))
        if reuse and len(loops) == 1 and len(loops[0][2]) <= 1:
            return _single_loop(loops[0], element, pos)

        def run(ctx, env):
            out: list = []
            _run_loops(loops, 0, element, ctx, env, out, reuse)
            try:
                return ops.checked_size(out)
            except Exception as e:
                raise fault(e, pos) from None
        return run

    def _iterable_fn(self, node: n.Node) -> Fn:
        return self._unary(node, ops.iterable, node)


def _read_error(error: Exception, value: Any, member: str) -> Exception:
    """A member read of none fails in the language's words, whether its type was known or not
    (a host's getter knows nothing of none)."""
    if value is None and not isinstance(error, RulesError):
        return EvalError(f"none has no member '{member}'")
    return error


def _single_compare(op: str, first: Fn, right: Piece, pos: Position) -> Fn:
    """``a op b``, with the common shapes spelt out: equality, and a constant on the right."""
    test, other, value = ops.COMPARISONS[op], right.fn, right.value
    if op == "==" and right.constant:
        def equal_to(ctx, env):
            try:
                return first(ctx, env) == value
            except Exception as e:
                raise fault(e, pos) from None
        return equal_to
    if op == "!=" and right.constant:
        def unequal_to(ctx, env):
            try:
                return first(ctx, env) != value
            except Exception as e:
                raise fault(e, pos) from None
        return unequal_to
    if op == "in" and right.constant and isinstance(value, list):
        def member_of(ctx, env):
            try:
                return first(ctx, env) in value
            except Exception as e:
                raise fault(e, pos) from None
        return member_of
    if op == "==":
        def equal(ctx, env):
            try:
                return first(ctx, env) == other(ctx, env)
            except Exception as e:
                raise fault(e, pos) from None
        return equal
    if right.constant:
        def against_constant(ctx, env):
            try:
                return test(first(ctx, env), value)
            except Exception as e:
                raise fault(e, pos) from None
        return against_constant

    def single(ctx, env):
        try:
            return test(first(ctx, env), other(ctx, env))
        except Exception as e:
            raise fault(e, pos) from None
    return single


def _single_loop(loop: tuple, element: Fn, pos: Position) -> Fn:
    """``[element for var in iterable if condition]``: the common shape, in one Python loop."""
    var, iterable, conditions = loop
    condition = conditions[0] if conditions else None

    def run(ctx, env):
        out: list = []
        steps = env[STEPS]
        inner = dict(env)
        for value in iterable(ctx, env):
            steps[0] -= 1
            if steps[0] < 0:
                raise _too_many_steps()
            inner[var] = value
            if condition is None or condition(ctx, inner):
                out.append(element(ctx, inner))
        if len(out) > limits.MAX_COLLECTION:
            try:
                ops.checked_size(out)
            except Exception as e:
                raise fault(e, pos) from None
        return out
    return run


def _run_loops(loops: list, i: int, element: Fn, ctx: Any, env: dict, out: list, reuse: bool) -> None:
    var, iterable, conditions = loops[i]
    last = i == len(loops) - 1
    inner = dict(env) if reuse else None
    for value in iterable(ctx, env):
        spend(env, 1)
        if reuse:
            inner[var] = value
        else:
            inner = {**env, var: value}
        if all(c(ctx, inner) for c in conditions):
            if last:
                out.append(element(ctx, inner))
            else:
                _run_loops(loops, i + 1, element, ctx, inner, out, reuse)


def all_nodes(root: n.Node):
    """Every node of a tree, the root first (iteratively: trees may be deep)."""
    todo: list[Any] = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, n.Node):
            yield item
            todo.extend(v for k, v in vars(item).items() if k not in ("start", "end", "depth"))
        elif isinstance(item, (tuple, list)):
            todo.extend(item)


def _children(node: n.Node):
    """The direct sub-expressions of a node (for constant folding)."""
    if isinstance(node, n.ListDisplay):
        yield from node.items
    elif isinstance(node, n.MapDisplay):
        for key, value in node.pairs:
            yield key
            yield value
    elif isinstance(node, n.Range):
        yield from (node.low, node.high)
    elif isinstance(node, (n.Negation, n.Not)):
        yield node.operand
    elif isinstance(node, (n.Arith, n.Compare)):
        yield node.first
        for _op, operand in node.steps:
            yield operand
    elif isinstance(node, n.BoolOp):
        yield from node.operands
    elif isinstance(node, n.IfElse):
        yield from (node.test, node.then, node.other)
    elif isinstance(node, n.Index):
        yield from (node.obj, node.index)
    elif isinstance(node, n.Slice):
        yield from (x for x in (node.obj, node.low, node.high) if x is not None)


class Compiled:
    """A compiled expression: call it with the host's context and the locals' values."""

    __slots__ = ("text", "type", "node", "pos", "fn", "body", "constant", "value")

    def __init__(self, text: str, type: Type, node: n.Node, pos: Position, fn: Fn, body: Fn,
                 constant: bool = False, value: Any = None):
        self.text, self.type, self.node, self.pos = text, type, node, pos
        self.fn = fn        # the closure for hot paths: no wrapping, errors already carry positions
        self.body = body    # the same without setting up a work budget (for defined functions)
        self.constant, self.value = constant, value     # folded at compile time to ``value``

    def __call__(self, ctx: Any, env: dict | None = None) -> Any:
        try:
            return self.fn(ctx, {} if env is None else env)
        except Exception as e:
            raise fault(e, self.pos) from None

    def __repr__(self) -> str:
        return f"Compiled({self.text!r}: {self.type})"


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
    checker = Checker(scope, locate)
    result = checker.check(node, expect)
    if checker.errors:
        raise checker.errors[0] if len(checker.errors) == 1 else ErrorList(checker.errors)
    compiler = Compiler(checker.resolved, locate, node)
    piece = compiler.piece(node)
    fn = _with_budget(piece.fn) if compiler.budget else piece.fn
    return Compiled(text, result, node, locate(node.start, node.end - node.start), fn, piece.fn,
                    piece.constant, piece.value)


_UNHASHABLE = (list, dict)


def _enter(env: dict, calls: int, most: int) -> list:
    """Enter a defined function: check how deep calls are nested and spend a step of the work
    budget, whose cell is returned for the function's own env."""
    if calls > most:
        raise LimitError(f"defined functions nested too deeply (limit {most})")
    steps = env[STEPS]
    steps[0] -= 1
    if steps[0] < 0:
        raise _too_many_steps()
    return steps


def _constant_call(name: str, body: Fn, most: int, pos: Position) -> Fn:
    """A call of a defined function without parameters: remembered in the memo by its name."""
    def run(ctx, env):
        calls = env.get(CALLS, 0) + 1
        memo = env.get(MEMO)
        if memo is not None and (found := memo.get(name, _MISSING)) is not _MISSING:
            return found
        try:
            steps = _enter(env, calls, most)
        except Exception as e:
            raise fault(e, pos) from None
        result = body(ctx, {STEPS: steps, CALLS: calls, MEMO: memo})
        if memo is not None:
            memo[name] = result
        return result
    return run


def _plain_call(params: list[tuple[str, Fn]], bodies: list[Fn], most: int, pos: Position) -> Fn:
    """A call whose result is not remembered: each argument goes straight into the body's env."""
    def run(ctx, env):
        calls = env.get(CALLS, 0) + 1
        try:
            inner = {STEPS: _enter(env, calls, most), CALLS: calls, MEMO: env.get(MEMO)}
            for param, arg in params:
                inner[param] = arg(ctx, env)
        except Exception as e:
            raise fault(e, pos) from None
        return bodies[0](ctx, inner)
    return run


def _memo_key(memo: dict | None, name: str, values: tuple) -> tuple | None:
    """The key of a call in the memo, or None when there is no memo or an argument is a list or
    a map (checked by type first: raising TypeError costs more than a call). A key that holds
    one inside (a tuple of lists) fails when it is looked up."""
    if memo is None:
        return None
    for value in values:
        if type(value) in _UNHASHABLE:
            return None
    return (name, values)


def _with_budget(body: Fn) -> Fn:
    """An evaluation of its own: a fresh work budget, and a memo unless the host handed one in
    (nothing an expression reads can change while it runs)."""
    def run(ctx, env):
        if MEMO in env:
            return body(ctx, {**env, STEPS: [limits.MAX_EVAL_STEPS]})
        return body(ctx, {**env, STEPS: [limits.MAX_EVAL_STEPS], MEMO: {}})
    return run
