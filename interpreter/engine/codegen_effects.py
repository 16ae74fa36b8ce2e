"""Generated code for a block of effects (the engine ``compiled``): a move's ``do``, a phase's
``start``, a trigger's effects...

The reference is the closures of ``effects.py``; each keeps what it was made of as ``parts``.
From those parts an outermost block becomes one function ``generated(ctx, env)``, built as an
``ast`` under expr/codegen.py's rules (every value of the game is a constant bound outside the
code; every identifier is made here). It does the same work in the same order and fails the same
way at the same places:

- each effect runs in its own ``try``, which places an error without a position at the effect
  (as ``run_block`` does);
- each expression is evaluated as ``Compiled.__call__`` evaluates it: its generated code written
  here inside a ``try`` that places an error at the expression, when it needs no work budget;
  otherwise (or when it was not generated) the compiled expression is called;
- ``move`` (to the top or bottom of a zone), ``flip``, the flow's signals, ``if``, ``for``,
  ``set`` and ``add`` of a whole variable and ``play_to_trick`` are written out; every other
  effect (``deal``, ``shuffle``, ``log``, a ``set`` of ``x[key]``...) is called as its closure.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from ..expr.codegen import Generator, make_function
from ..expr.codegen_ast import CTX, LOAD, STORE, assign, call, load
from .. import limits
from ..expr.runtime import MEMO, STEPS, Compiled
from . import effects as E
from . import tricks
from .values import Card, ZoneRef

if TYPE_CHECKING:
    import ast  # for the types: pyast's classes are ast's, or subclasses of them placed at line 1

    from ..errors import Position
else:   # Python's ast, its nodes placed at line 1
    from ..expr.codegen_ast import pyast as ast

# Blocks, loops and tries this deep are left to their closures (Python allows 20 nested blocks,
# and the expressions inside need some of them).
MOST_NESTED = 6


def generate_block(game: Any, run: E.Parted) -> Callable | None:
    """The block closure ``run`` as generated code, or None when there is nothing to gain (or
    Python refuses it)."""
    builder = _BlockBuilder(game)
    stmts = builder.block(run.parts)
    if not builder.written:
        return None
    return make_function(builder.gen.constants, ["ctx", "env"], stmts)


class _BlockBuilder:
    def __init__(self, game: Any):
        self.game = game
        self.gen = Generator(None)
        self.depth = 0          # tries and branches open around the code being written
        self.written = False    # whether any effect was written out rather than called

    def const(self, value: Any) -> ast.Name:
        return self.gen.const(value)

    def temp(self) -> str:
        return self.gen.temp()

    def guarded(self, body: list[ast.stmt], pos: Position | None) -> ast.stmt:
        """``try: body`` / ``except Exception as _e: raise fault(_e, pos) from None``."""
        return self.gen.guarded(body, self.gen.faulted(pos))

    # -- blocks and effects -------------------------------------------------------------------------
    def block(self, parts: tuple) -> list[ast.stmt]:
        _, runs, places = parts
        self.depth += 1
        out = [self.guarded(self.effect(run), place) for run, place in zip(runs, places)]
        self.depth -= 1
        return out

    def inner_block(self, run: Callable | None) -> list[ast.stmt]:
        if run is None or run is E.nothing:
            return [ast.Pass()]
        return self.block(cast(E.Parted, run).parts)     # a block's closure, but for ``nothing``

    def effect(self, run: Callable) -> list[ast.stmt]:
        parts = getattr(run, "parts", None)
        method = _EFFECTS.get(parts[0]) if parts is not None else None
        if method is not None and self.depth <= MOST_NESTED:
            self.written = True
            assert parts is not None    # the method was found by its first part
            return method(self, *parts[1:])
        return [ast.Expr(value=call(self.const(run), CTX, load("env")))]

    def value(self, compiled: Any) -> tuple[list[ast.stmt], ast.expr]:
        """An expression's value as ``compiled(ctx, env)`` gives it, left in a temporary."""
        name = self.temp()
        if isinstance(compiled, Compiled) and compiled.constant and type(compiled.value) in (int, float, str, bool):
            return [], self.const(compiled.value)       # what its call returns (a list would be a copy)
        if not isinstance(compiled, Compiled) or compiled.compiler is None or compiled.constant:
            return [assign(name, call(self.const(compiled), CTX, load("env")))], load(name)
        self.gen.c = compiled.compiler
        self.gen.nested = self.depth + 1
        if not compiled.compiler.budget:
            stmts, value = self.gen.node(compiled.node)
            return [self.guarded(stmts + [assign(name, value)], compiled.pos)], load(name)
        # Its own evaluation, as Compiled.__call__ sets it up: an env of its own with a work budget
        # and a memo (or the ones the block's env holds); its code written here reads that env.
        own = self.temp()
        outer, self.gen._env = self.gen._env, own
        try:
            stmts, value = self.gen.node(compiled.node)
        finally:
            self.gen._env = outer
        return _budgeted_env(self.const, own) + [self.guarded(stmts + [assign(name, value)], compiled.pos)], load(name)

    def _signal(self, word: str) -> list[ast.stmt]:
        signals = ast.Attribute(value=CTX, attr="signals", ctx=LOAD)
        return [ast.Expr(value=call(ast.Attribute(value=signals, attr="append", ctx=LOAD), self.const(word)))]

    def _move(self, cards: Any, to: Any, face: str | None, at_bottom: bool) -> list[ast.stmt]:
        stmts, moved = self.value(cards)
        more, target = self.value(to)
        stmts += more
        moving, zone = self.temp(), self.temp()
        is_list = call(load("isinstance"), moved, load("list"))

        def not_a_card(value: Any) -> Exception:
            return E.not_a_card("move", value, cards)
        stmts += [
            assign(moving, ast.IfExp(test=is_list, body=moved, orelse=ast.List(elts=[moved], ctx=LOAD))),
            assign(zone, target),
            ast.If(test=_is_not(load(zone), self.const(ZoneRef)), orelse=[], body=[
                assign(zone, call(self.const(E._zone), load(zone), ast.Constant("move"), self.const(to)))]),
            # Looked up on the game at each move, as the reference's ``ctx.game.place``: a game's
            # placing may be watched (tests of what each seat saw in passing).
            ast.Expr(value=call(ast.Attribute(value=ast.Attribute(value=CTX, attr="game", ctx=LOAD), attr="place_cards",
                                              ctx=LOAD), ast.Attribute(value=CTX, attr="state", ctx=LOAD),
                                load(moving), load(zone), self.const(face), ast.Constant(at_bottom),
                                self.const(not_a_card))),
        ]
        return stmts

    def _flip(self, cards: Any, face: str | None) -> list[ast.stmt]:
        stmts, value = self.value(cards)
        card, face_up = self.temp(), self.temp()
        cards_of = ast.IfExp(test=call(load("isinstance"), value, load("list")), body=value,
                             orelse=ast.List(elts=[value], ctx=LOAD))
        card_id = ast.Attribute(value=load(card), attr="id", ctx=LOAD)

        def turn(method: str) -> ast.stmt:
            return ast.Expr(value=call(ast.Attribute(value=load(face_up), attr=method, ctx=LOAD), card_id))
        turned: list[ast.stmt]
        if face is None:        # turned over
            turned = [ast.If(test=ast.Compare(left=card_id, ops=[ast.NotIn()], comparators=[load(face_up)]),
                             body=[turn("add")], orelse=[turn("discard")])]
        else:
            turned = [turn("add" if face == "up" else "discard")]
        stmts += [
            assign(face_up, ast.Attribute(value=ast.Attribute(value=CTX, attr="state", ctx=LOAD), attr="face_up",
                                          ctx=LOAD)),
            ast.For(target=ast.Name(id=card, ctx=ast.Store()), iter=cards_of, orelse=[], body=[
                ast.If(test=ast.UnaryOp(op=ast.Not(), operand=call(load("isinstance"), load(card), self.const(Card))),
                       orelse=[], body=[ast.Raise(exc=call(self.const(E.not_a_card), ast.Constant("flip"), load(card),
                                                           self.const(cards)), cause=None)]),
                *turned,
            ]),
        ]
        return stmts

    def _if(self, test: Any, then: Callable, other: Callable | None) -> list[ast.stmt]:
        stmts, value = self.value(test)
        orelse = [] if other is None else self.inner_block(other)
        return stmts + [ast.If(test=value, body=self.inner_block(then), orelse=orelse)]

    def _set(self, of: Any, writers: list) -> list[ast.stmt]:
        seat = self.temp()
        if of:
            stmts, value = self.value(of)
            stmts.append(assign(seat, value))
        else:
            stmts = [assign(seat, ast.Constant(None))]
        for write in writers:
            name, key, value, store, add, target, place = write.parts
            if key is not None:
                stmts.append(ast.Expr(value=call(self.const(write), CTX, load("env"), load(seat))))
                continue
            holder = self.temp()
            stmts.append(assign(holder, call(self.const(store), CTX, load(seat))))
            more, new = self.value(value)
            stmts += more
            stmts += self._store(load(holder), name, new, add, target, place)
        return stmts

    def _store(self, holder: ast.expr, name: str, new: ast.expr, add: bool, target: str,
               place: Position) -> list[ast.stmt]:
        """``store_value``, its common case written out: ``set`` of a value that is stored as it
        is (not a list or a map, which are copied), ``add`` of an int to an int; any other case
        (and a variable missing, for its error) calls it."""
        slow = ast.Expr(value=call(self.const(E.store_value), holder, self.const(name), new, ast.Constant(add),
                                   self.const(target), self.const(place)))
        key = self.const(name)
        if not add:
            copied = call(load("isinstance"), new, ast.Tuple(elts=[load("list"), load("dict")], ctx=LOAD))
            test = ast.BoolOp(op=ast.And(), values=[ast.UnaryOp(op=ast.Not(), operand=copied),
                                                    ast.Compare(left=key, ops=[ast.In()], comparators=[holder])])
            return [ast.If(test=test, body=[ast.Assign(targets=[ast.Subscript(value=holder, slice=key, ctx=STORE)],
                                                       value=new)], orelse=[slow])]
        old = self.temp()
        is_int = lambda value: ast.Compare(left=call(load("type"), value), ops=[ast.Is()],   # noqa: E731
                                           comparators=[load("int")])
        added = ast.BinOp(left=load(old), op=ast.Add(), right=new)
        return [assign(old, call(ast.Attribute(value=holder, attr="get", ctx=LOAD), key)),
                ast.If(test=ast.BoolOp(op=ast.And(), values=[is_int(load(old)), is_int(new)]),
                       body=[ast.Assign(targets=[ast.Subscript(value=holder, slice=key, ctx=STORE)], value=added)],
                       orelse=[slow])]

    def _for(self, items: Any, name: str, body: Callable, where: Position) -> list[ast.stmt]:
        """As ``run_for``: each turn runs the body with an env of its own (the loop's variable,
        the shared budget and count of turns), here by binding ``env`` to it, then back."""
        stmts, values = self.value(items)
        started, outer, item = self.temp(), self.temp(), self.temp()
        own = ast.Dict(keys=[None, self.const(name), self.const(STEPS), self.const(E.LOOP_ITEMS)],
                       values=[load(outer), load(item)] + [
                           ast.Subscript(value=load(started), slice=ast.Constant(i), ctx=LOAD) for i in (1, 2)])
        self.depth += 1
        turn = [assign("env", own)] + self.inner_block(body)
        self.depth -= 1
        return stmts + [
            assign(started, call(self.const(E.loop_start), values, self.const(items), load("env"), self.const(where))),
            assign(outer, load("env")),
            ast.For(target=ast.Name(id=item, ctx=ast.Store()), iter=ast.Subscript(value=load(started),
                    slice=ast.Constant(0), ctx=LOAD), body=turn, orelse=[]),
            assign("env", load(outer)),
        ]

    def _play_to_trick(self, card: Any, by: Any) -> list[ast.stmt]:
        stmts, value = self.value(card)
        if by is None:
            return stmts + [ast.Expr(value=call(self.const(tricks.play_to_trick), CTX, value))]
        by_stmts, seat = self.value(by)
        return stmts + by_stmts + [ast.Expr(value=call(self.const(tricks.play_to_trick_for), CTX, value, seat))]


def _budgeted_env(const: Callable, own: str) -> list[ast.stmt]:
    """``own``: the env Compiled.__call__ gives a budgeted expression called with ``env``: a fresh
    work budget (``limits`` read at run time) unless env holds one with no memo (a 'for' effect's),
    and a fresh memo unless env holds one."""
    env = load("env")

    def extended(*pairs: tuple[str, ast.expr]) -> ast.stmt:
        keys = [None] + [const(key) for key, _ in pairs]       # None: ``**env``
        return assign(own, ast.Dict(keys=keys, values=[env] + [value for _, value in pairs]))
    budget = (STEPS, ast.List(elts=[ast.Attribute(value=const(limits), attr="MAX_EVAL_STEPS", ctx=LOAD)], ctx=LOAD))
    memo = (MEMO, ast.Dict(keys=[], values=[]))
    has = lambda key: ast.Compare(left=const(key), ops=[ast.In()], comparators=[env])   # noqa: E731
    return [ast.If(test=has(MEMO), body=[extended(budget)], orelse=[
        ast.If(test=has(STEPS), body=[extended(memo)], orelse=[extended(budget, memo)])])]


def _is_not(value: ast.expr, kind: ast.expr) -> ast.expr:
    """``type(value) is not kind``."""
    return ast.Compare(left=call(load("type"), value), ops=[ast.IsNot()], comparators=[kind])


_EFFECTS: dict[str, Callable[..., list[ast.stmt]]] = {
    "signal": _BlockBuilder._signal,
    "move": _BlockBuilder._move,
    "if": _BlockBuilder._if,
    "flip": _BlockBuilder._flip,
    "set": _BlockBuilder._set,
    "play_to_trick": _BlockBuilder._play_to_trick,
    "for": _BlockBuilder._for,
}
