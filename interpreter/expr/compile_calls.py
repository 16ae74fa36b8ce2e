"""The compiler's part for calls, functions and loops: built-in, host and defined functions'
calls, ``any``/``all`` that stop at the deciding item, lambdas and comprehensions."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .. import limits
from ..errors import Position
from . import nodes as n
from . import ops
from .nodes import all_nodes
from .runtime import (
    CALLS,
    MEMO,
    MISSING,
    SIZED,
    STEPS,
    Fn,
    constant_call,
    enter,
    fault,
    memo_key,
    plain_call,
    spend,
    too_many_steps,
)
from .shapes import run_loops, single_loop
from .function_values import FunctionValue

if TYPE_CHECKING:
    from .type_check import Resolved
    from .functions import CompiledFunction
    from .registry import Builtin


class CallCompiler:
    """Mixed into ``Compiler``: uses its ``fn``, ``pos``, ``budget``, ``resolved``, ``_unary`` and
    ``_bool_fn``."""

    resolved: Resolved
    budget: bool

    if TYPE_CHECKING:     # compile.Compiler's
        def piece(self, node: n.Node) -> Any: ...     # a compile.Piece (compile.py imports this)
        def fn(self, node: n.Node) -> Fn: ...
        def pos(self, node: n.Node, start: int | None = None) -> Position: ...
        def _is_bool(self, node: n.Node) -> bool: ...
        def _bool_fn(self, node: n.Node, what: str) -> Fn: ...
        def _unary(self, node: n.Node, op: Callable, operand: n.Node) -> Fn: ...

    def _call(self, node: n.Call) -> Fn:
        kind, target, *specializer = self.resolved.targets[id(node)]
        if kind == "user":
            return self._user_call_fn(node, target, list(node.args), specializer[0])
        return self._builtin_call_fn(node, target)

    def _builtin_call_fn(self, node: n.Call, builtin: Builtin) -> Fn:
        deciding = self._deciding_loop(node, builtin)
        if deciding is not None:
            return deciding
        args, impl, pos = [self.fn(a) for a in node.args], builtin.impl, self.pos(node)
        if builtin.needs_ctx:
            return self._host_call_fn(args, impl, pos)
        if self.budget:     # a built-in works through its collections, and makes one: count that work
            def counted(ctx, env):
                try:
                    values = [f(ctx, env) for f in args]
                    spend(env, sum(len(v) for v in values if isinstance(v, SIZED)))
                    result = impl(*values)
                    if type(result) is list or type(result) is str:
                        spend(env, len(result))
                    return result
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

    def _user_call_fn(self, node: n.Node, function: CompiledFunction, arg_nodes: list[n.Node],
                      specializer: Callable | None = None) -> Fn:
        args, params, pos = [self.fn(a) for a in arg_nodes], function.params, self.pos(node)
        most, name = limits.MAX_CALL_DEPTH, function.name
        if not args:
            return constant_call(name, function.body, most, pos)
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
            return plain_call(list(zip(params, args)), bodies, most, pos)

        def run(ctx, env):
            calls = env.get(CALLS, 0) + 1
            try:
                steps = enter(env, calls, most)
                values = (one(ctx, env),) if one is not None else tuple([f(ctx, env) for f in args])
            except Exception as e:
                raise fault(e, pos) from None
            memo = env.get(MEMO)
            key = memo_key(memo, name, values)
            if key is not None:
                try:
                    found = memo.get(key, MISSING)
                except TypeError:       # an argument holds a list or a map: not remembered
                    key = None
                else:
                    if found is not MISSING:
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

    def _deciding_loop(self, node: n.Call, builtin: Builtin) -> Fn | None:
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
        if not self._is_bool(arg.element):     # a bool by its type needs no check
            def element(ctx, inner, value_of=element):
                return ops.truth(value_of(ctx, inner), what)

        def run(ctx, env):
            steps = env[STEPS]
            inner = dict(env)
            try:
                for value in iterable(ctx, env):
                    steps[0] -= 1
                    if steps[0] < 0:
                        raise too_many_steps()
                    inner[var] = value
                    if (condition is None or condition(ctx, inner)) and element(ctx, inner) is decides:
                        return decides
            except Exception as e:
                raise fault(e, pos) from None
            return not decides
        return run

    def _lambda(self, node: n.Lambda) -> Fn:
        return lambda_maker(node.params, self.fn(node.body))

    def _comprehension(self, node: n.Comprehension) -> Fn:
        element = self.fn(node.element)
        loops = [(loop.var, self._iterable_fn(loop.iterable),
                  [self._bool_fn(c, "the condition after 'if'") for c in loop.conditions])
                 for loop in node.loops]
        pos = self.pos(node)
        # Without a lambda inside (which could keep it), one dict serves every iteration.
        reuse = not any(isinstance(x, n.Lambda) for x in all_nodes(node))
        if reuse and len(loops) == 1 and len(loops[0][2]) <= 1:
            return single_loop(loops[0], element, pos)

        def run(ctx: Any, env: dict) -> list:
            out: list = []
            run_loops(loops, 0, element, ctx, env, out, reuse)
            try:
                return ops.checked_size(out)
            except Exception as e:
                raise fault(e, pos) from None
        return run

    def _iterable_fn(self, node: n.Node) -> Fn:
        # A loop spends a step for each item it goes through: the list it goes through need not
        # spend its size as well, and a constant one need not be copied (the loop keeps nothing).
        piece = self.piece(node)
        if piece.unsized is None:
            return self._unary(node, ops.iterable, node)
        fn, pos = piece.unsized, self.pos(node)

        def run(ctx, env):
            try:
                return ops.iterable(fn(ctx, env))
            except Exception as e:
                raise fault(e, pos) from None
        return run


def lambda_maker(params: tuple[str, ...], body: Fn) -> Fn:
    """A lambda's value made in the env it is written in: a function that spends a step of that
    env's work budget, then runs ``body`` in a copy of the env with its parameters set."""
    def make(ctx: Any, env: dict) -> FunctionValue:
        def invoke(args: tuple) -> Any:
            spend(env, 1)
            inner = dict(env)
            inner.update(zip(params, args))
            return body(ctx, inner)
        return FunctionValue(params, invoke)
    return make
