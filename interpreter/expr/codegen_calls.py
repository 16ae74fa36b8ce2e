"""Generated code for calls of defined functions and for loops: the part of ``codegen.py``'s
generator that writes out runtime.py's ``enter``, ``constant_call``, ``plain_call`` and the
remembered call of compile_calls.py, shapes.py's ``single_loop`` and the deciding loop of
``any``/``all``, each doing the same work in the same order as its closure."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from .. import limits
from . import nodes as n
from . import ops
from .codegen_ast import CTX, LOAD, STORE, assign, call, load, store
from .runtime import CALLS, MEMO, MISSING, SIZED, STEPS, enter, too_many_steps

if TYPE_CHECKING:
    import ast  # for the types: pyast's classes are ast's, or subclasses of them placed at line 1

    from ..errors import Position
    from .functions import CompiledFunction
    from .registry import Builtin
    from .runtime import Compiled
else:
    from .codegen_ast import pyast as ast  # Python's ast, its nodes placed at line 1


_NO_LOCALS = "_"     # a key no user name can be (names never begin with '_')


class NotInlined(Exception):
    """An inlined body met a node that only its closure runs: the call is not inlined."""


# The largest body (in nodes of its tree) that calls other functions and is written at its calls:
# a copy of such a body at each of its calls makes the code a game generates at load (and the time
# to compile it) grow with the calls, and a larger body's work outweighs the call's.
MOST_INLINED_NODES = 20


def inlinable(compiled: Compiled) -> bool:
    """Whether a defined function's body may be written at its call: it was generated, is not a
    constant, and makes no loop or lambda (whose own envs would read the body's parameters from
    an env it does not have); when it calls other functions, it is small (``MOST_INLINED_NODES``).
    Those calls are written as calls, from the caller's env, which holds the same work budget and
    memo as the body's would."""
    body = compiled.compiler
    if body is None or compiled.constant:
        return False
    if not body.budget:
        return True
    nodes = list(n.all_nodes(compiled.node))
    return len(nodes) <= MOST_INLINED_NODES and not any(isinstance(x, (n.Lambda, n.Comprehension)) for x in nodes)


class CallGenerator:
    """Mixed into ``codegen.Generator``: uses its ``node``, ``values``, ``in_try``, ``bool_value``,
    ``const``, ``temp``, ``guarded``, ``faulted``, ``env``, ``nested``, ``_inlined``, ``_calls_at``
    and ``c``."""

    c: Any      # the compile.Compiler of the expression (not imported: compile.py imports codegen)
    nested: int
    _env: str
    _inlined: dict[str, str]
    _calls_at: str | None

    if TYPE_CHECKING:     # codegen.Generator's
        def node(self, node: n.Node) -> tuple[list[ast.stmt], ast.expr]: ...
        def values(self, nodes: list[n.Node]) -> tuple[list[ast.stmt], list[ast.expr]]: ...
        def in_try(self, make: Callable[[], tuple[list[ast.stmt], ast.expr]], pos: Position | None,
                   error: Callable[[ast.expr], ast.expr] | None = None) -> tuple[list[ast.stmt], ast.Name]: ...
        def bool_value(self, node: n.Node, what: str) -> tuple[list[ast.stmt], ast.expr]: ...
        def _apply(self, op: Callable, nodes: list[n.Node], *before: ast.expr) -> tuple[list[ast.stmt], ast.expr]: ...
        def const(self, value: Any) -> ast.Name: ...
        def temp(self) -> str: ...
        def guarded(self, body: list[ast.stmt], handler_error: ast.expr) -> ast.stmt: ...
        def faulted(self, pos: Position | None, error: ast.expr | None = None) -> ast.expr: ...
        def env(self) -> ast.Name: ...

    def _inline_call(self, node: n.Call, function: CompiledFunction, arg_nodes: list[n.Node],
                     specializer: Callable | None):
        """A call whose result is not remembered (runtime.plain_call) and whose body is
        ``inlinable``: the body's code is written at the call, its parameters in temporaries.
        The call is entered as plain_call enters it (the depth of calls checked, a step spent,
        the arguments worked out, all failing at the call), then the body runs, failing at its
        own positions; the calls in it count this one's depth. Any other call runs as its
        closure, and so does a call in a body written at its call (no body is written into
        another: the code grows with the calls written, not with their nesting)."""
        if function.remember or not arg_nodes or self._inlined:
            return None
        special = specializer() if specializer is not None else None   # as plain_call's first call does
        compiled = (function if special is None else special).compiled
        body_compiler = compiled.compiler
        if not inlinable(compiled):
            return None
        calls, temps = self.temp(), [self.temp() for _ in arg_nodes]

        def entered():
            arg_stmts, values = self.values(arg_nodes)
            return self._enter(calls, None) + arg_stmts + [assign(t, v) for t, v in zip(temps, values)], \
                ast.Constant(None)
        head = [self._count_calls(calls)]
        entry, _ = self.in_try(entered, self.c.pos(node))
        found = self._inlined_body(body_compiler, compiled.node, dict(zip(function.params, temps)), calls)
        return None if found is None else (head + entry + found[0], found[1])

    def _inlined_body(self, body_compiler: Any, body: n.Node, params: dict[str, str], calls: str):
        """A body's code written at its call, its parameters read from the temporaries ``params``
        and its calls counting ``calls``; None when it meets a node only its closure runs."""
        outer = self.c, self._inlined, self._calls_at
        self.c, self._inlined, self._calls_at = body_compiler, params, calls
        try:
            return self.node(body)
        except NotInlined:
            return None
        finally:
            self.c, self._inlined, self._calls_at = outer

    def _enter(self, calls: str, steps: str | None) -> list[ast.stmt]:
        """runtime.enter written out: the depth of calls checked (``enter`` itself raises its
        error), then a step of the budget spent; ``steps`` gets the budget's cell."""
        most = self.const(limits.MAX_CALL_DEPTH)
        cell = steps or self.temp()
        too_deep = ast.Compare(left=load(calls), ops=[ast.Gt()], comparators=[most])
        left = ast.Subscript(value=load(cell), slice=ast.Constant(0), ctx=LOAD)
        return [
            ast.If(test=too_deep, body=[ast.Expr(value=call(self.const(enter), self.env(), load(calls), most))],
                   orelse=[]),
            assign(cell, ast.Subscript(value=self.env(), slice=self.const(STEPS), ctx=LOAD)),
            ast.AugAssign(target=ast.Subscript(value=load(cell), slice=ast.Constant(0), ctx=STORE), op=ast.Sub(),
                          value=ast.Constant(1)),
            ast.If(test=ast.Compare(left=left, ops=[ast.Lt()], comparators=[ast.Constant(0)]),
                   body=[ast.Raise(exc=call(self.const(too_many_steps)), cause=None)], orelse=[]),
        ]

    def _memo_key(self, key: str, memo: str, values: str, count: int, name: str) -> list[ast.stmt]:
        """runtime.memo_key written out: no key without a memo, or when an argument is a list or
        a map (by its type)."""
        tests: list[ast.expr] = [ast.Compare(left=load(memo), ops=[ast.IsNot()], comparators=[ast.Constant(None)])]
        for i in range(count):
            kind = call(load("type"), ast.Subscript(value=load(values), slice=ast.Constant(i), ctx=LOAD))
            tests += [ast.Compare(left=kind, ops=[ast.IsNot()], comparators=[load("list")]),
                      ast.Compare(left=kind, ops=[ast.IsNot()], comparators=[load("dict")])]
        made = ast.Tuple(elts=[self.const(name), load(values)], ctx=LOAD)
        return [assign(key, ast.Constant(None)),
                ast.If(test=ast.BoolOp(op=ast.And(), values=tests), body=[assign(key, made)], orelse=[])]

    def _count_calls(self, calls: str) -> ast.stmt:
        """``calls``: the depth of the call being made, one more than the caller's (the body
        written at its call, or the env's)."""
        if self._calls_at is not None:
            got: ast.expr = load(self._calls_at)
        else:
            got = call(ast.Attribute(value=self.env(), attr="get", ctx=LOAD), self.const(CALLS), ast.Constant(0))
        return assign(calls, ast.BinOp(left=got, op=ast.Add(), right=ast.Constant(1)))

    def _constant_call(self, node: n.Node, function: CompiledFunction):
        """As runtime.constant_call: the result remembered in the memo by the function's name; its
        body is written here unless this is itself a body written at its call."""
        calls, memo, result, steps = self.temp(), self.temp(), self.temp(), self.temp()
        name, missing = self.const(function.name), self.const(MISSING)
        known = ast.Compare(left=load(memo), ops=[ast.IsNot()], comparators=[ast.Constant(None)])
        look_up = call(ast.Attribute(value=load(memo), attr="get", ctx=LOAD), name, missing)
        entry, _ = self.in_try(lambda: (self._enter(calls, steps), ast.Constant(None)), self.c.pos(node))
        inner = ast.Dict(keys=[self.const(STEPS), self.const(CALLS), self.const(MEMO)],
                         values=[load(steps), load(calls), load(memo)])
        keep = ast.Assign(targets=[ast.Subscript(value=load(memo), slice=name, ctx=STORE)], value=load(result))
        written = None if self._inlined else self._constant_body(function, calls)
        if written is None:
            body = [assign(result, call(self.const(function.body), CTX, inner))]
        else:
            body_stmts, value = written
            body = body_stmts + [assign(result, value)]
        work = entry + body + [ast.If(test=known, body=[keep], orelse=[])]
        return [
            self._count_calls(calls),
            assign(memo, call(ast.Attribute(value=self.env(), attr="get", ctx=LOAD), self.const(MEMO))),
            assign(result, missing),
            ast.If(test=known, body=[assign(result, look_up)], orelse=[]),
            ast.If(test=ast.Compare(left=load(result), ops=[ast.Is()], comparators=[missing]), body=work, orelse=[]),
        ], load(result)

    def _constant_body(self, function: CompiledFunction, calls: str) -> tuple[list[ast.stmt], ast.expr] | None:
        """The body of a function without parameters written at its call (made at depth
        ``calls``), when it is ``inlinable`` and calls no other function (one that does is written
        at many calls, each a copy, for next to no work saved: its result is remembered); None
        when it is called (it meets a node only its closure runs)."""
        compiled = function.compiled
        if not inlinable(compiled) or compiled.compiler.budget:
            return None
        # No parameters: the mark only says that the code is an inlined body's (no closure inside).
        return self._inlined_body(compiled.compiler, compiled.node, {_NO_LOCALS: ""}, calls)

    def _remembered_call(self, node: n.Call, function: CompiledFunction, arg_nodes: list[n.Node],
                         specializer: Callable | None):
        """As compile_calls.py's remembered call: the result kept in the memo by name and arguments."""
        bodies = [function.body]
        if specializer is not None:     # the body for the arguments' types, chosen at the first call
            def specialize(ctx, env):
                special = specializer()
                bodies[0] = function.body if special is None else special.body
                return bodies[0](ctx, env)
            bodies[0] = specialize
        calls, steps, values, memo, key, result = (self.temp() for _ in range(6))
        missing = self.const(MISSING)

        def entered():
            arg_stmts, args = self.values(arg_nodes)
            return (self._enter(calls, steps) + arg_stmts + [assign(values, ast.Tuple(elts=args, ctx=LOAD))],
                    ast.Constant(None))
        entry, _ = self.in_try(entered, self.c.pos(node))
        look_up = ast.Try(body=[assign(result, call(ast.Attribute(value=load(memo), attr="get", ctx=LOAD),
                                                     load(key), missing))],
                          handlers=[ast.ExceptHandler(type=load("TypeError"), name=None,
                                                      body=[assign(key, ast.Constant(None))])],
                          orelse=[], finalbody=[])
        has_key = ast.Compare(left=load(key), ops=[ast.IsNot()], comparators=[ast.Constant(None)])
        params: list[ast.expr | None] = [self.const(p) for p in function.params]
        inner = ast.Dict(keys=params + [self.const(STEPS), self.const(CALLS), self.const(MEMO)],
                         values=[ast.Subscript(value=load(values), slice=ast.Constant(i), ctx=LOAD)
                                 for i in range(len(params))] + [load(steps), load(calls), load(memo)])
        body = ast.Subscript(value=self.const(bodies), slice=ast.Constant(0), ctx=LOAD)
        keep = ast.Assign(targets=[ast.Subscript(value=load(memo), slice=load(key), ctx=STORE)],
                          value=load(result))
        work = [assign(result, call(body, CTX, inner)), ast.If(test=has_key, body=[keep], orelse=[])]
        return [self._count_calls(calls)] + entry + [
            assign(memo, call(ast.Attribute(value=self.env(), attr="get", ctx=LOAD), self.const(MEMO))),
            *self._memo_key(key, memo, values, len(arg_nodes), function.name),
            assign(result, missing),
            ast.If(test=has_key, body=[look_up], orelse=[]),
            ast.If(test=ast.Compare(left=load(result), ops=[ast.Is()], comparators=[missing]), body=work, orelse=[]),
        ], load(result)

    # -- loops: as compile_calls.py's ``_deciding_loop`` and shapes.py's ``single_loop`` ------------
    def _loop_head(self, loop: n.For) -> tuple[list[ast.stmt], list[ast.stmt], str, str, str]:
        """The work budget's cell and the loop's own env (a copy); then the list it runs over."""
        steps, inner = self.temp(), self.temp()
        iterable = self.in_try(lambda: self._apply(ops.iterable, [loop.iterable]), self.c.pos(loop.iterable))
        setup = [assign(steps, ast.Subscript(value=self.env(), slice=self.const(STEPS), ctx=LOAD)),
                 assign(inner, call(load("dict"), self.env()))]
        return setup, iterable[0], steps, inner, iterable[1].id

    def _step(self, steps: str, inner: str, var: str, value: str) -> list[ast.stmt]:
        """One step of the budget spent, and the loop variable set in the loop's env."""
        cell = ast.Subscript(value=load(steps), slice=ast.Constant(0), ctx=LOAD)
        return [
            ast.AugAssign(target=ast.Subscript(value=load(steps), slice=ast.Constant(0), ctx=STORE),
                          op=ast.Sub(), value=ast.Constant(1)),
            ast.If(test=ast.Compare(left=cell, ops=[ast.Lt()], comparators=[ast.Constant(0)]),
                   body=[ast.Raise(exc=call(self.const(too_many_steps)), cause=None)], orelse=[]),
            ast.Assign(targets=[ast.Subscript(value=load(inner), slice=self.const(var), ctx=STORE)],
                       value=load(value)),
        ]

    def in_env(self, inner: str, make: Callable):
        outer, self._env = self._env, inner
        try:
            return make()
        finally:
            self._env = outer

    def _deciding_loop(self, node: n.Call, builtin: Builtin):
        arg = cast(n.Comprehension, node.args[0])    # compile_calls.py's ``_deciding_loop`` found one
        loop = arg.loops[0]
        decides, what = builtin.decided_by, f"each item of {builtin.name}()"
        self.nested += 1
        try:
            setup, head, steps, inner, items = self._loop_head(loop)
            value, result = self.temp(), self.temp()

            def body():
                element_stmts, element = self.node(arg.element)
                if not self.c._is_bool(arg.element):        # a bool by its type needs no check
                    element = call(self.const(ops.truth), element, self.const(what))
                decided = ast.Compare(left=element, ops=[ast.Is()], comparators=[ast.Constant(decides)])
                found = element_stmts + [ast.If(test=decided, body=[assign(result, ast.Constant(decides)), ast.Break()],
                                                orelse=[])]
                if not loop.conditions:
                    return found
                test_stmts, test = self.bool_value(loop.conditions[0], "the condition after 'if'")
                return test_stmts + [ast.If(test=test, body=found, orelse=[])]
            loop_body = self._step(steps, inner, loop.var, value) + self.in_env(inner, body)
        finally:
            self.nested -= 1
        running = ast.For(target=store(value), iter=load(items), body=loop_body,
                          orelse=[assign(result, ast.Constant(not decides))])
        return setup + [self.guarded(head + [running], self.faulted(self.c.pos(node)))], load(result)

    def _Comprehension(self, node: n.Comprehension):
        if any(isinstance(x, n.Lambda) for x in n.all_nodes(node)) or len(node.loops) != 1 \
                or len(node.loops[0].conditions) > 1:
            return None         # the general shape: its closure
        loop = node.loops[0]
        setup, head, steps, inner, items = self._loop_head(loop)
        value, out = self.temp(), self.temp()

        def body():
            element_stmts, element = self.node(node.element)
            append = ast.Expr(value=call(ast.Attribute(value=load(out), attr="append", ctx=LOAD), element))
            if not loop.conditions:
                return element_stmts + [append]
            test_stmts, test = self.bool_value(loop.conditions[0], "the condition after 'if'")
            return test_stmts + [ast.If(test=test, body=element_stmts + [append], orelse=[])]
        loop_body = self._step(steps, inner, loop.var, value) + self.in_env(inner, body)
        too_long = ast.Compare(left=call(load("len"), load(out)), ops=[ast.Gt()],
                               comparators=[self.const(limits.MAX_COLLECTION)])
        check = self.guarded([ast.Expr(value=call(self.const(ops.checked_size), load(out)))],
                             self.faulted(self.c.pos(node)))
        return ([assign(out, ast.List(elts=[], ctx=LOAD))] + setup + head
                + [ast.For(target=store(value), iter=load(items), body=loop_body, orelse=[]),
                   ast.If(test=too_long, body=[check], orelse=[])], load(out))

    def _counted(self, impl: Callable, args: list[n.Node], *before: ast.expr):
        """A built-in's call that spends the sizes of its collections first (when budgeted)."""
        stmts, values = self.values(args)
        if self.c.budget:
            held: list[ast.expr] = []
            for value in values:
                name = self.temp()
                stmts.append(assign(name, value))
                held.append(load(name))
            values = held
            stmts += self._spend_sizes(values)
            if not before:      # a built-in of the language also spends the list or text it makes
                made = self.temp()
                stmts.append(assign(made, call(self.const(impl), *values)))
                is_made = ast.BoolOp(op=ast.Or(), values=[
                    ast.Compare(left=call(load("type"), load(made)), ops=[ast.Is()], comparators=[load(kind)])
                    for kind in ("list", "str")])
                stmts.append(ast.If(test=is_made, body=self._spend(call(load("len"), load(made))), orelse=[]))
                return stmts, load(made)
        return stmts, call(self.const(impl), *before, *values)

    def _spend_sizes(self, values: list[ast.expr]) -> list[ast.stmt]:
        """What a built-in's call spends of the work budget (compile_calls.py): the sizes of the
        collections among ``values`` (names) added up, then spent at once and checked once, as
        ``spend`` does."""
        size = self.temp()
        stmts: list[ast.stmt] = [assign(size, ast.Constant(0))]
        for value in values:
            stmts.append(ast.If(test=call(load("isinstance"), value, self.const(SIZED)), orelse=[], body=[
                ast.AugAssign(target=store(size), op=ast.Add(), value=call(load("len"), value))]))
        return stmts + self._spend(load(size))

    def _spend(self, amount: ast.expr) -> list[ast.stmt]:
        """runtime.spend written out."""
        cell = self.temp()
        left = ast.Subscript(value=load(cell), slice=ast.Constant(0), ctx=LOAD)
        return [
            assign(cell, ast.Subscript(value=self.env(), slice=self.const(STEPS), ctx=LOAD)),
            ast.AugAssign(target=ast.Subscript(value=load(cell), slice=ast.Constant(0), ctx=STORE), op=ast.Sub(),
                          value=amount),
            ast.If(test=ast.Compare(left=left, ops=[ast.Lt()], comparators=[ast.Constant(0)]),
                   body=[ast.Raise(exc=call(self.const(too_many_steps)), cause=None)], orelse=[]),
        ]
