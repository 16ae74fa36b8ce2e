"""Generated code: a checked expression tree becomes one Python function, built as an ``ast`` and
compiled once at load (the engine ``compiled``; the closures of ``compile.py``
stay the reference).

Three rules hold (docs/architecture.md, "Generated code"):

- user text never becomes source: every value the author wrote (names, strings, numbers) and
  every position enters as a constant bound outside the code, as an argument of the factory
  that makes the function; every identifier in the code is made here (``_k3``, ``_t5``);
- same limits, same errors: each node the closures wrap in ``try``/``fault`` at its position is
  wrapped the same way here, around the same sub-expressions, with the same position; the work
  budget is spent by the same helpers;
- a node this module does not generate (a comprehension of several loops or with a lambda in
  it, a slice, a map...) is called as its closure, bound as a constant, so the generated function
  is never less than the reference. Calls of defined functions and single loops are written out
  by ``codegen_calls.py``; a lambda's body is a generated function of its own.

A node is generated as statements that leave its value in a temporary, or as a plain
expression when it needs none; siblings keep their order of evaluation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import nodes as n
from . import codegen_fast as fast
from . import ops
from .codegen_ast import CTX, LOAD, arguments, assign, call, load
from .codegen_calls import CallGenerator, NotInlined
from .compile_calls import lambda_maker
from .runtime import Fn, fault
from .shapes import read_error
from .switch import switch_cases, table_of
from .types import plain_path

if TYPE_CHECKING:
    import ast  # for the types: pyast's classes are ast's, or subclasses of them placed at line 1

    from ..errors import Position
else:
    from .codegen_ast import pyast as ast  # Python's ast, its nodes placed at line 1

FILENAME = "<rules generated>"
# Python allows 20 statically nested blocks; each fallible node adds one ``try``.
MOST_NESTED = 16


def generate(compiler: Any, root: n.Node) -> Fn | None:
    """The root's value as one generated function ``fn(ctx, env)``, or None when nothing in it is
    worth generating (the root is a constant or falls back to its closure)."""
    gen = Generator(compiler)
    stmts, value = gen.node(root)
    if not gen.generated:
        return None
    return gen.build(stmts, value)


def make_function(constants: list, params: list[str], body: list[ast.stmt]) -> Callable | None:
    """The function of ``params`` whose code is ``body``, each constant bound as ``_k0``, ``_k1``...
    (arguments of a factory that makes it); None when Python's compiler refuses it (too deep)."""
    inner = ast.FunctionDef(name="generated", args=arguments(params), body=body, decorator_list=[], returns=None)
    factory = ast.FunctionDef(name="make", args=arguments([f"_k{i}" for i in range(len(constants))]),
                              body=[inner, ast.Return(value=load("generated"))], decorator_list=[], returns=None)
    module = ast.Module(body=[factory], type_ignores=[])
    try:
        code = compile(module, FILENAME, "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None         # too deep for Python's compiler: the closures serve
    namespace: dict = {}
    exec(code, namespace)   # noqa: S102 - code built here from an ast, never from user text
    return namespace["make"](*constants)


class Generator(CallGenerator):
    def __init__(self, compiler: Any):
        self.c = compiler
        self.constants: list[Any] = []
        self._by_id: dict[int, str] = {}
        self._temps = 0
        self.nested = 0            # ``try`` blocks open around the node being generated
        self.generated = False      # whether any node was generated rather than called
        self._env = "env"           # the env the node being generated reads (a loop's own, inside it)
        self._inlined: dict[str, str] = {}  # in an inlined body: its parameters' temporaries
        self._calls_at: str | None = None   # in an inlined body: the temporary of its depth of calls

    def env(self) -> ast.Name:
        return load(self._env)

    # -- names of our own ---------------------------------------------------------------------------
    def const(self, value: Any) -> ast.Name:
        """A value bound outside the code, by a name made here."""
        key = id(value)
        if key not in self._by_id:
            self._by_id[key] = f"_k{len(self.constants)}"
            self.constants.append(value)
        return load(self._by_id[key])

    def temp(self) -> str:
        self._temps += 1
        return f"_t{self._temps}"

    def guarded(self, body: list[ast.stmt], handler_error: ast.expr) -> ast.stmt:
        """``try: body`` / ``except Exception as _e: raise handler_error from None``."""
        handler = ast.ExceptHandler(type=load("Exception"), name="_e",
                                    body=[ast.Raise(exc=handler_error, cause=ast.Constant(None))])
        return ast.Try(body=body, handlers=[handler], orelse=[], finalbody=[])

    def faulted(self, pos: Position | None, error: ast.expr | None = None) -> ast.expr:
        return call(self.const(fault), error if error is not None else load("_e"), self.const(pos))

    # -- the function -----------------------------------------------------------------------------
    def build(self, stmts: list[ast.stmt], value: ast.expr) -> Fn | None:
        return make_function(self.constants, ["ctx", "env"], stmts + [ast.Return(value=value)])

    # -- nodes --------------------------------------------------------------------------------------
    def node(self, node: n.Node) -> tuple[list[ast.stmt], ast.expr]:
        """Statements to run, then an expression for the node's value."""
        piece = self.c.piece(node)
        if piece.constant:
            return [], self._constant(piece.value)
        method = _METHODS.get(type(node))
        if method is not None and self.nested < MOST_NESTED:
            found = method(self, node)
            if found is not None:
                self.generated = True
                return found
        if self._inlined:
            raise NotInlined      # an inlined body has no env of its own for a closure to read
        return [], call(self.const(piece.fn), CTX, self.env())

    def _constant(self, value: Any) -> ast.expr:
        if isinstance(value, list):
            return call(load("list"), self.const(value))      # a fresh list: callers may keep it
        if isinstance(value, dict):
            return call(load("dict"), self.const(value))
        return self.const(value)

    def values(self, nodes: list[n.Node]) -> tuple[list[ast.stmt], list[ast.expr]]:
        """Several nodes in order: a value read before a later node's statements run is kept in a
        temporary first, so the order of evaluation (and of failures) is the closures'."""
        parts = [self.node(x) for x in nodes]
        stmts: list[ast.stmt] = []
        exprs: list[ast.expr] = []
        for i, (body, value) in enumerate(parts):
            stmts += body
            if any(later for later, _ in parts[i + 1:]) and not isinstance(value, ast.Name):
                name = self.temp()
                stmts.append(assign(name, value))
                value = load(name)
            exprs.append(value)
        return stmts, exprs

    def in_try(self, make: Callable[[], tuple[list[ast.stmt], ast.expr]], pos: Position | None,
               error: Callable[[ast.expr], ast.expr] | None = None) -> tuple[list[ast.stmt], ast.Name]:
        """The value ``make`` builds, computed inside ``try`` and faulted at ``pos``."""
        self.nested += 1
        try:
            body, value = make()
        finally:
            self.nested -= 1
        result = self.temp()
        handler = self.faulted(pos, None if error is None else error(load("_e")))
        return [self.guarded(body + [assign(result, value)], handler)], load(result)

    def bool_value(self, node: n.Node, what: str) -> tuple[list[ast.stmt], ast.expr]:
        """As the compiler's ``_bool_fn``: a bool, or a failure at the node's position."""
        stmts, value = self.node(node)
        if self.c._is_bool(node):
            return stmts, value
        got, result = self.temp(), self.temp()
        stmts.append(assign(got, value))
        is_bool = ast.BoolOp(op=ast.Or(), values=[
            ast.Compare(left=load(got), ops=[ast.Is()], comparators=[ast.Constant(True)]),
            ast.Compare(left=load(got), ops=[ast.Is()], comparators=[ast.Constant(False)])])
        check = self.guarded([assign(result, call(self.const(ops.truth), load(got), self.const(what)))],
                             self.faulted(self.c.pos(node)))
        stmts.append(ast.If(test=is_bool, body=[assign(result, load(got))], orelse=[check]))
        return stmts, load(result)

    def _Name(self, node: n.Name):
        target = self.c.resolved.targets[id(node)]
        if target[0] == "local":
            if node.name in self._inlined:
                return [], load(self._inlined[node.name])
            return [], ast.Subscript(value=self.env(), slice=self.const(node.name), ctx=LOAD)
        if target[0] == "host":
            return [], self._read(target[1].get, CTX)
        return self._constant_call(node, target[1])

    def _read(self, get: Callable, obj: ast.expr) -> ast.expr:
        """``get(obj)``: a host's getter called, or the reads it is made of written out
        (types.plain_reads)."""
        path = plain_path(get)
        if path is None:
            return call(self.const(get), obj)
        for step, key in path:
            if step == "attr":
                obj = ast.Attribute(value=obj, attr=key, ctx=LOAD)      # an attribute of the host's, never the author's
            elif step == "item":
                obj = ast.Subscript(value=obj, slice=self.const(key), ctx=LOAD)
            elif step == "value":
                obj = self.const(key)
            else:
                obj = call(ast.Attribute(value=obj, attr="get", ctx=LOAD), self.const(key))
        return obj

    def _ListDisplay(self, node: n.ListDisplay):
        stmts, items = self.values(list(node.items))
        return stmts, ast.List(elts=items, ctx=LOAD)

    def _Not(self, node: n.Not):
        stmts, value = self.bool_value(node.operand, "the operand of 'not'")
        return stmts, ast.UnaryOp(op=ast.Not(), operand=value)

    def _Negation(self, node: n.Negation):
        return self.in_try(lambda: self._apply(ops.negate, [node.operand]), self.c.pos(node))

    def _Range(self, node: n.Range):
        return self.in_try(lambda: self._apply(ops.inclusive_range, [node.low, node.high]), self.c.pos(node))

    def _Index(self, node: n.Index):
        return self.in_try(lambda: self._operation(ops.index, [node.obj, node.index]), self.c.pos(node))

    def _apply(self, op: Callable, nodes: list[n.Node], *before: ast.expr):
        stmts, values = self.values(nodes)
        return stmts, call(self.const(op), *before, *values)

    def _operation(self, op: Callable, nodes: list[n.Node]):
        """``op`` of two nodes, its common case written out (codegen_fast.py)."""
        stmts, values = self.values(nodes)
        more, (a, b) = fast.held(self, values)
        result = self.temp()
        written = fast.index(self, a, b, result) if op is ops.index else fast.arithmetic(self, op, a, b, result)
        if written is None:
            return stmts, call(self.const(op), *values)
        return stmts + more + written, load(result)

    def _BoolOp(self, node: n.BoolOp):
        what = f"an operand of '{node.op}'"
        operands = list(node.operands)
        result = self.temp()
        if len(operands) == 2:
            # ``a and b`` / ``a or b``: the value of the operand that decides, as Python gives it.
            first, second = (self.bool_value(x, what) for x in operands)
            test: ast.expr = load(result) if node.op == "and" else ast.UnaryOp(op=ast.Not(), operand=load(result))
            return (first[0] + [assign(result, first[1]),
                                ast.If(test=test, body=second[0] + [assign(result, second[1])], orelse=[])],
                    load(result))
        # Three or more: True or False, stopping at the operand that decides.
        decided = node.op == "or"
        body: list[ast.stmt] = [assign(result, ast.Constant(not decided))]
        for x in reversed(operands):
            stmts, value = self.bool_value(x, what)
            test = value if decided else ast.UnaryOp(op=ast.Not(), operand=value)
            body = stmts + [ast.If(test=test, body=[assign(result, ast.Constant(decided))], orelse=body)]
        return body, load(result)

    def _IfElse(self, node: n.IfElse):
        c = self.c
        chain = switch_cases(node, lambda x: (c.piece(x).constant, c.piece(x).value), c.resolved.targets)
        if chain is not None:
            return self._switch(*chain)
        test_stmts, test = self.bool_value(node.test, "the condition of 'if'")
        then_stmts, then = self.node(node.then)
        other_stmts, other = self.node(node.other)
        result = self.temp()
        return (test_stmts + [ast.If(test=test, body=then_stmts + [assign(result, then)],
                                     orelse=other_stmts + [assign(result, other)])], load(result))

    def _switch(self, subject: n.Node, cases: list, other: n.Node):
        """As switch.py: the subject worked out once, its branch found in a table (here, of the
        branches' numbers; a list or a map equals no constant), then that branch's code."""
        table = table_of([(keys, i) for i, (keys, _) in enumerate(cases)])
        stmts, value = self.node(subject)
        held, branch, result = self.temp(), self.temp(), self.temp()
        look_up = ast.Try(body=[assign(branch, call(ast.Attribute(value=self.const(table), attr="get", ctx=LOAD),
                                                     load(held), ast.Constant(-1)))],
                          handlers=[ast.ExceptHandler(type=load("TypeError"), name=None,
                                                      body=[assign(branch, ast.Constant(-1))])],
                          orelse=[], finalbody=[])
        other_stmts, other_value = self.node(other)
        chosen: list[ast.stmt] = other_stmts + [assign(result, other_value)]
        for i in range(len(cases) - 1, -1, -1):
            then_stmts, then = self.node(cases[i][1])
            test = ast.Compare(left=load(branch), ops=[ast.Eq()], comparators=[ast.Constant(i)])
            chosen = [ast.If(test=test, body=then_stmts + [assign(result, then)], orelse=chosen)]
        return stmts + [assign(held, value), look_up] + chosen, load(result)

    def _Arith(self, node: n.Arith):
        c = self.c
        steps = [(ops.ARITHMETIC[op], x, c.locate(node.start, max(1, x.end - node.start))) for op, x in node.steps]
        if len(steps) == 1:
            op, right, pos = steps[0]
            return self.in_try(lambda: self._operation(op, [node.first, right]), pos)
        stmts, value = self.node(node.first)
        current = self.temp()
        stmts.append(assign(current, value))
        for op, right, pos in steps:
            right_stmts, right_value = self.node(right)
            stmts += right_stmts
            more, (held,) = fast.held(self, [right_value])
            step = self.temp()      # not ``current``: the case not written out reads it again
            written = fast.arithmetic(self, op, load(current), held, step)
            if written is None:
                written = [assign(step, call(self.const(op), load(current), held))]
            stmts.append(self.guarded(more + written + [assign(current, load(step))], self.faulted(pos)))
        return stmts, load(current)

    def _Compare(self, node: n.Compare):
        c = self.c
        steps = [(op, x, c.locate(node.start, max(1, x.end - node.start))) for op, x in node.steps]
        if len(steps) == 1:
            op, right, pos = steps[0]
            return self.in_try(lambda: self._single_compare(node.first, op, right), pos)
        stmts, value = self.node(node.first)
        left, result = self.temp(), self.temp()
        stmts += [assign(left, value), assign(result, ast.Constant(False))]
        # Built from the last step back: each step's test guards the steps after it, and its
        # right side becomes the next step's left.
        rest: list[ast.stmt] = [assign(result, ast.Constant(True))]
        for op, right, pos in reversed(steps):
            right_stmts, right_value = self.node(right)
            here, failed = self.temp(), self.temp()
            test = (fast.ordering(self, op, load(left), load(here))
                    or call(self.const(ops.COMPARISONS[op]), load(left), load(here)))
            rest = right_stmts + [
                assign(here, right_value),
                self.guarded([assign(failed, ast.UnaryOp(op=ast.Not(), operand=test))], self.faulted(pos)),
                ast.If(test=ast.UnaryOp(op=ast.Not(), operand=load(failed)),
                       body=[assign(left, load(here))] + rest, orelse=[])]
        return stmts + rest, load(result)

    def _single_compare(self, first: n.Node, op: str, right: n.Node):
        piece = self.c.piece(right)
        if piece.constant:
            stmts, value = self.node(first)
            constant = self.const(piece.value)
            if op in ("==", "!="):
                return stmts, ast.Compare(left=value, ops=[ast.Eq() if op == "==" else ast.NotEq()],
                                          comparators=[constant])
            if op == "in" and isinstance(piece.value, list):
                return stmts, ast.Compare(left=value, ops=[ast.In()], comparators=[constant])
            if type(piece.value) is int and op in ("<", "<=", ">", ">="):
                more, (held,) = fast.held(self, [value])
                return stmts + more, fast.ordering(self, op, held, constant)
            return stmts, call(self.const(ops.COMPARISONS[op]), value, constant)
        stmts, (a, b) = self.values([first, right])
        if op == "==":
            return stmts, ast.Compare(left=a, ops=[ast.Eq()], comparators=[b])
        if op in ("<", "<=", ">", ">="):
            more, (a, b) = fast.held(self, [a, b])
            return stmts + more, fast.ordering(self, op, a, b)
        return stmts, call(self.const(ops.COMPARISONS[op]), a, b)

    def _Member(self, node: n.Member):
        c = self.c
        target = c.resolved.targets[id(node)]
        get = target[1].get if target[0] == "object" else ops.member_reader(node.name)
        obj, pos = node.obj, c.pos(node)
        member = self.const(node.name)
        if isinstance(obj, n.Name) and obj.name in self._inlined and c.resolved.targets.get(id(obj)) == ("local",):
            held = self._inlined[obj.name]
            error = call(self.const(read_error), load("_e"), load(held), member)
            return self.in_try(lambda: ([], self._read(get, load(held))), pos, lambda e: error)
        if isinstance(obj, n.Name) and c.resolved.targets.get(id(obj)) == ("local",):
            key = self.const(obj.name)
            read = ast.Subscript(value=self.env(), slice=key, ctx=LOAD)
            seen = call(ast.Attribute(value=self.env(), attr="get", ctx=LOAD), key)
            error = call(self.const(read_error), load("_e"), seen, member)
            return self.in_try(lambda: ([], self._read(get, read)), pos, lambda e: error)
        stmts, value = self.node(obj)
        held = self.temp()
        stmts.append(assign(held, value))
        error = call(self.const(read_error), load("_e"), load(held), member)
        found, result = self.in_try(lambda: ([], self._read(get, load(held))), pos, lambda e: error)
        return stmts + found, result

    def _Call(self, node: n.Call):
        c = self.c
        kind, target, *specializer = c.resolved.targets[id(node)]
        if kind == "user":
            if not node.args:
                return self._constant_call(node, target)
            if target.remember:
                return self._remembered_call(node, target, list(node.args), specializer[0])
            return self._inline_call(node, target, list(node.args), specializer[0])
        if c._deciding_loop(node, target) is not None:
            return self._deciding_loop(node, target)
        pos, impl = c.pos(node), target.impl
        args = list(node.args)
        if target.name == "len" and len(args) == 1 and not target.needs_ctx:
            return self.in_try(lambda: self._length(impl, args[0]), pos)
        if target.needs_ctx:
            return self.in_try(lambda: self._counted(impl, args, CTX), pos)
        if c.budget:
            return self.in_try(lambda: self._counted(impl, args), pos)
        return self.in_try(lambda: self._apply(impl, args), pos)

    def _length(self, impl: Callable, arg: n.Node):
        """``len(arg)``: the sizes spent as ``_counted`` spends them (the result is a number, which
        spends nothing more), the length of a list read in place (codegen_fast.py)."""
        stmts, (value,) = self.values([arg])
        more, (held,) = fast.held(self, [value])
        stmts += more
        if self.c.budget:
            stmts += self._spend_sizes([held])
        return stmts, fast.length(self, impl, held)

    def _Lambda(self, node: n.Lambda):
        """The lambda made as its closure makes it, its body a generated function of its own
        (it runs in an env of its own, made at each call)."""
        if self._inlined:
            return None
        inner = Generator(self.c)
        stmts, value = inner.node(node.body)
        body = inner.build(stmts, value) if inner.generated else None
        if body is None:
            return None
        return [], call(self.const(lambda_maker(node.params, body)), CTX, self.env())


# The nodes generated here; any other is called as its closure.
_METHODS: dict[type, Callable] = {
    n.Name: Generator._Name, n.ListDisplay: Generator._ListDisplay, n.Not: Generator._Not,
    n.Negation: Generator._Negation, n.Range: Generator._Range, n.Index: Generator._Index,
    n.BoolOp: Generator._BoolOp, n.IfElse: Generator._IfElse, n.Arith: Generator._Arith,
    n.Compare: Generator._Compare, n.Member: Generator._Member, n.Call: Generator._Call,
    n.Comprehension: Generator._Comprehension, n.Lambda: Generator._Lambda,
}
