"""Generated code for the listing of one move's legal choices (the engine ``compiled``).

The reference, ``legal._choose``, recurses once per parameter. Here each move gets one function
of nested loops, one per parameter, built as an ``ast`` (expr/codegen.py's rules: every value of
the game, its names included, is a constant bound outside the code). It does the same work in
the same order: at each depth the conditions that need the choices so far (the budget refilled
before each), then the parameter's list of values, then each value in turn; the move's text is
built as the choices are made, and a move already found under the same text is not added again.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..expr.codegen import Generator, make_function
from ..expr.codegen_ast import LOAD, STORE, assign, call, load, store
from ..expr.runtime import STEPS
from ..limits import MAX_EVAL_STEPS
from .game_checks import too_many_choices
from .choices import choices_of
from .moves import Move, show
from .values import Card

if TYPE_CHECKING:
    import ast  # for the types: pyast's classes are ast's, or subclasses of them placed at line 1
else:   # Python's ast, its nodes placed at line 1
    from ..expr.codegen_ast import pyast as ast

# A move's listing: (listing, env) as legal._choose takes them, for depth 0.
Listing = Callable[[Any, dict], None]


def _words(value: Any) -> str:
    """``moves.show(value)``, a list's cards read as their labels without a call each (the
    cards a ``subset_of`` parameter chooses)."""
    if type(value) is list:
        return " ".join([item.label if type(item) is Card else show(item) for item in value])
    return show(value)


class Enough(Exception):
    """Raised when the one legal move asked for is found: the listing stops at once."""


def generate_listing(move: Any) -> Listing | None:
    """The listing of ``move`` (a ``MoveDef``) as generated code, or None when Python refuses it."""
    return _ListingBuilder(move).build()


class _ListingBuilder:
    def __init__(self, move: Any):
        self.move = move
        # Writes the conditions' and domains' code into the listing (one constant pool for both).
        self.gen = Generator(None)
        self.constants = self.gen.constants

    def const(self, value: Any) -> ast.Name:
        return self.gen.const(value)

    def value(self, compiled: Any, depth: int) -> tuple[list[ast.stmt], ast.expr]:
        """A condition's or a domain's value, its code written here when it was generated (as its
        ``body``: no try around it, the budget refilled before), else a call of its body."""
        if compiled.compiler is None or compiled.constant:
            return [], call(self.const(compiled.body), load("ctx"), load("env"))
        self.gen.c = compiled.compiler
        self.gen.nested = depth          # the listing's own loops count towards Python's limit
        return self.gen.node(compiled.node)

    def build(self) -> Listing | None:
        # generated(listing, env): listing has .seat, .ctx, .found, .first_only (legal._Listing).
        head = [
            assign("ctx", ast.Attribute(value=load("listing"), attr="ctx", ctx=LOAD)),
            assign("found", ast.Attribute(value=load("listing"), attr="found", ctx=LOAD)),
            assign("budget", ast.Subscript(value=load("env"), slice=self.const(STEPS), ctx=LOAD)),
            assign("seat", ast.Attribute(value=load("listing"), attr="seat", ctx=LOAD)),
            assign("first_only", ast.Attribute(value=load("listing"), attr="first_only", ctx=LOAD)),
        ]
        body = self.depth(0, self.const(self.move.name), outermost=True)
        return make_function(self.constants, ["listing", "env"], head + body)

    def checks(self, depth: int, outermost: bool) -> list[ast.stmt]:
        """The conditions of this depth: a failing one ends this choice (``return`` or ``continue``)."""
        out: list[ast.stmt] = []
        for check in self.move.stages[depth]:
            out.append(ast.Assign(targets=[ast.Subscript(value=load("budget"), slice=ast.Constant(0), ctx=STORE)],
                                  value=self.const(MAX_EVAL_STEPS)))
            stmts, value = self.value(check, depth)
            test = ast.UnaryOp(op=ast.Not(), operand=value)
            out += stmts + [ast.If(test=test, body=[ast.Return() if outermost else ast.Continue()], orelse=[])]
        return out

    def depth(self, depth: int, text: ast.expr, outermost: bool = False) -> list[ast.stmt]:
        """What runs once the first ``depth`` parameters are chosen (their values in ``_v0``...)."""
        stmts = self.checks(depth, outermost)
        if depth:
            stmts += self.extend_text(depth)
            text = load(f"_text{depth}")
        params = self.move.params
        if depth == len(params):
            return stmts + self.add_move(depth, text)
        param = params[depth]
        domain, values, shown, index = f"_d{depth}", f"_vs{depth}", f"_shown{depth}", f"_i{depth}"
        domain_stmts, domain_value = self.value(param.domain, depth)
        stmts += [
            ast.Assign(targets=[ast.Subscript(value=load("budget"), slice=ast.Constant(0), ctx=STORE)],
                       value=self.const(MAX_EVAL_STEPS)),
            *domain_stmts,
            assign(domain, domain_value),
        ]
        if param.kind == "from":
            stmts += self.from_choices(param, domain, values)
        else:
            # The same checks and count as the reference: choices.py.
            stmts.append(ast.Assign(targets=[ast.Tuple(elts=[store(values), store(shown)], ctx=STORE)],
                                    value=call(self.const(choices_of), load("listing"), self.const(param),
                                               load(domain))))
        stmts.append(assign(f"_text_at{depth}", text))
        # The value is put in env for the conditions and lists that read it: none does when it is
        # the last parameter and no condition waits for it (the env is then left as it was).
        read = depth + 1 < len(params) or bool(self.move.stages[depth + 1])
        # A 'from' list shows each value by itself (choices_of gives no words): no index needed.
        plain = param.kind == "from"
        inner = [] if plain else [assign(f"_v{depth}", ast.Subscript(value=load(values), slice=load(index), ctx=LOAD))]
        if read:
            inner.append(ast.Assign(targets=[ast.Subscript(value=load("env"), slice=self.const(param.name), ctx=STORE)],
                                    value=load(f"_v{depth}")))
        inner += self.depth(depth + 1, load(f"_text_at{depth}"))
        if plain:
            stmts.append(ast.For(target=store(f"_v{depth}"), iter=load(values), body=inner, orelse=[]))
        else:
            stmts.append(ast.For(target=store(index), iter=call(load("range"), call(load("len"), load(values))),
                                 body=inner, orelse=[]))
        if read:
            stmts.append(ast.Expr(value=call(ast.Attribute(value=load("env"), attr="pop", ctx=LOAD),
                                             self.const(param.name), ast.Constant(None))))
        return stmts

    def from_choices(self, param: Any, domain: str, values: str) -> list[ast.stmt]:
        """``choices_of`` for a 'from' list, written out: a value that is not a list goes to it
        (for its error); the values are counted against what the listing may still try."""
        left = ast.Attribute(value=load("listing"), attr="left", ctx=LOAD)
        return [
            ast.If(test=ast.UnaryOp(op=ast.Not(), operand=call(load("isinstance"), load(domain), load("list"))),
                   body=[ast.Expr(value=call(self.const(choices_of), load("listing"), self.const(param),
                                             load(domain)))], orelse=[]),
            ast.AugAssign(target=ast.Attribute(value=load("listing"), attr="left", ctx=STORE), op=ast.Sub(),
                          value=call(load("len"), load(domain))),
            ast.If(test=ast.Compare(left=left, ops=[ast.Lt()], comparators=[ast.Constant(0)]), orelse=[],
                   body=[ast.Raise(exc=call(self.const(too_many_choices), self.const(self.move.name),
                                            self.const(param.domain.pos)), cause=None)]),
            assign(values, load(domain)),
        ]

    def extend_text(self, depth: int) -> list[ast.stmt]:
        """``_text{depth}``: the text so far and the word of the last choice, when it shows one."""
        last, shown, index = load(f"_v{depth - 1}"), load(f"_shown{depth - 1}"), load(f"_i{depth - 1}")
        before = load(f"_text_at{depth - 1}")
        # show(card) is the card's label: read straight from the card
        shown_alone = ast.IfExp(test=ast.Compare(left=call(load("type"), last), ops=[ast.Is()],
                                                 comparators=[self.const(Card)]),
                                body=ast.Attribute(value=last, attr="label", ctx=LOAD), orelse=call(self.const(_words), last))
        word = ast.IfExp(test=ast.Compare(left=shown, ops=[ast.Is()], comparators=[ast.Constant(None)]),
                         body=shown_alone, orelse=ast.Subscript(value=shown, slice=index, ctx=LOAD))
        if self.move.params[depth - 1].kind == "from":
            word = shown_alone
        joined = ast.BinOp(left=ast.BinOp(left=before, op=ast.Add(), right=ast.Constant(" ")), op=ast.Add(),
                           right=load("_word"))
        return [
            assign(f"_text{depth}", before),
            ast.If(test=ast.Compare(left=last, ops=[ast.IsNot()], comparators=[ast.Constant(None)]), body=[
                assign("_word", word),
                ast.If(test=load("_word"), body=[assign(f"_text{depth}", joined)], orelse=[]),
            ], orelse=[]),
        ]

    def add_move(self, depth: int, text: ast.expr) -> list[ast.stmt]:
        args = ast.Tuple(elts=[load(f"_v{i}") for i in range(depth)], ctx=LOAD)
        made = call(self.const(Move), load("seat"), self.const(self.move.name), args, text)
        first_only = load("first_only")
        new = ast.Compare(left=text, ops=[ast.NotIn()], comparators=[load("found")])
        return [ast.If(test=new, body=[
            ast.Assign(targets=[ast.Subscript(value=load("found"), slice=text, ctx=STORE)], value=made),
            ast.If(test=first_only, body=[ast.Raise(exc=self.const(Enough), cause=None)], orelse=[]),
        ], orelse=[])]
