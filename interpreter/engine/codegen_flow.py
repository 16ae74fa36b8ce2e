"""Generated code for the flow after a move (the engine ``compiled``): ``flow.settle`` written out
for one game.

The reference, ``flow.settle``, looks up the phase and its settings at every step. Here the game's
phases are known when the code is made, so each step is written for the game: each trigger's
condition (only when the game has triggers); the end of a turn written out for each phase with
turns (its ``turn_end`` and ``turn_start`` blocks called only where there are some, the next seat
worked out the phase's way); each trigger's condition and each phase's ``until`` evaluated as its
compiled expression is. The rarer steps (an interrupt, the end of a phase or round, a trigger's
effects) call the reference's own functions, so the steps, their order, the limit on automatic
steps and every error are the reference's.
Built as an ``ast`` under expr/codegen.py's rules: every value is a constant bound outside the
code, every identifier is made here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..expr.codegen import Generator, make_function
from ..expr.codegen_ast import LOAD, STORE, assign, call, load, store
from ..expr.runtime import MEMO, STEPS, Compiled
from ..limits import MAX_EVAL_STEPS, MAX_TRIGGER_CASCADE
from . import flow, interrupts
from .context import Ctx
from .effects import nothing

if TYPE_CHECKING:
    import ast  # for the types: pyast's classes are ast's, or subclasses of them placed at line 1

    from .game_parts import PhaseDef
else:   # Python's ast, its nodes placed at line 1
    from ..expr.codegen_ast import pyast as ast


def generate_settle(game: Any) -> Callable | None:
    """``settle(ctx)`` for ``game``, or None when Python refuses the code."""
    return _SettleBuilder(game).build()


class _SettleBuilder:
    def __init__(self, game: Any):
        self.game = game
        self.gen = Generator(None)

    def const(self, value: Any) -> ast.Name:
        return self.gen.const(value)

    def build(self) -> Callable | None:
        state = load("state")
        loop: list[ast.stmt] = [
            ast.If(test=ast.Attribute(value=state, attr="over", ctx=LOAD), body=[ast.Return()], orelse=[]),
        ]
        for when, run in self.game.triggers:
            # flow._fire_triggers written out: each trigger's condition evaluated as its compiled
            # expression is; the first that holds runs its effects, and the loop starts again.
            loop += self.until_value(when, "_when") + [ast.If(test=load("_when"), orelse=[], body=[
                ast.Expr(value=call(self.const(run), self.at_current(), ast.Dict(keys=[], values=[]))),
                assign("_fired", self.const(when)),
                ast.Continue()])]
        loop += [
            # interrupts.pending, written out: the state's record of interrupts going on
            ast.If(test=call(ast.Attribute(value=ast.Attribute(value=state, attr="vars", ctx=LOAD), attr="get",
                                           ctx=LOAD), self.const(interrupts.KEY)), orelse=[], body=[
                ast.If(test=call(self.const(_advance), load("ctx")), body=[ast.Return()], orelse=[]),
                ast.Continue(),
            ]),
            ast.If(test=load("signals"), orelse=[], body=self.signal() + [ast.Continue()]),
        ]
        loop += self.untils()
        loop.append(ast.Return())
        body = [
            assign("state", ast.Attribute(value=load("ctx"), attr="state", ctx=LOAD)),
            assign("signals", ast.Attribute(value=load("ctx"), attr="signals", ctx=LOAD)),
            assign("_fired", ast.Constant(None)),
            ast.For(target=store("_step"), iter=call(load("range"), self.const(MAX_TRIGGER_CASCADE)),
                    body=loop, orelse=[]),
            ast.Raise(exc=call(self.const(_unsettled), load("_fired")), cause=None),
        ]
        return make_function(self.gen.constants, ["ctx"], body)

    def signal(self) -> list[ast.stmt]:
        """The strongest signal taken (the only one, most often), then handled; an end of turn is
        written out for the phase."""
        signals = load("signals")
        one = ast.Compare(left=call(load("len"), signals), ops=[ast.Eq()], comparators=[ast.Constant(1)])
        take = ast.If(test=one, body=[assign("_word", call(ast.Attribute(value=signals, attr="pop", ctx=LOAD)))],
                      orelse=[assign("_word", call(self.const(flow._strongest), signals))])
        is_turn = ast.Compare(left=load("_word"), ops=[ast.Eq()], comparators=[ast.Constant("end_turn")])
        return [take, ast.If(test=is_turn, body=self.end_turn(),
                             orelse=[ast.Expr(value=call(self.const(flow._handle), load("ctx"), load("_word")))])]

    def by_phase(self, parts: list[list[ast.stmt]]) -> list[ast.stmt]:
        """``if state.phase == 0: ... elif ...`` over the phases that have something to do."""
        out: list[ast.stmt] = []
        for index in reversed(range(len(parts))):
            if not parts[index]:
                continue
            test = ast.Compare(left=ast.Attribute(value=load("state"), attr="phase", ctx=LOAD), ops=[ast.Eq()],
                               comparators=[ast.Constant(index)])
            out = [ast.If(test=test, body=parts[index], orelse=out)]
        return out

    def end_turn(self) -> list[ast.stmt]:
        """``flow._end_turn`` for each phase."""
        return self.by_phase([self.phase_end_turn(phase) for phase in self.game.phases]) or [ast.Pass()]

    def phase_end_turn(self, phase: PhaseDef) -> list[ast.stmt]:
        if phase.turns is None:
            return []
        state = load("state")
        current = ast.Attribute(value=state, attr="current", ctx=LOAD)
        out: list[ast.stmt] = []
        if phase.turn_end is not nothing:
            out.append(ast.Expr(value=call(self.const(phase.turn_end), self.at_current(), ast.Dict(keys=[], values=[]))))
        out.append(ast.AugAssign(target=ast.Attribute(value=state, attr="turns", ctx=STORE), op=ast.Add(),
                                 value=ast.Constant(1)))
        if phase.turns.get("each") == "once":
            enough = ast.Compare(left=ast.Attribute(value=state, attr="turns", ctx=LOAD), ops=[ast.GtE()],
                                 comparators=[ast.Attribute(value=state, attr="players", ctx=LOAD)])
            out.append(ast.If(test=enough, orelse=[], body=[
                ast.Expr(value=call(ast.Attribute(value=load("signals"), attr="append", ctx=LOAD),
                                    ast.Constant("end_phase"))),
                ast.Continue()]))
        seat: ast.expr
        if phase.next is not None:
            value = call(self.const(phase.next), self.at_current(), ast.Dict(keys=[], values=[]))
            seat = call(self.const(flow._seat_value), value, state, self.const(phase.next))
        else:
            step = -1 if phase.turns.get("order") == "counterclockwise" else 1
            seat = ast.BinOp(left=ast.BinOp(left=current, op=ast.Add(), right=ast.Constant(step)), op=ast.Mod(),
                             right=ast.Attribute(value=state, attr="players", ctx=LOAD))
        out.append(ast.Assign(targets=[ast.Attribute(value=state, attr="current", ctx=STORE)], value=seat))
        if phase.turn_start is not nothing:
            out.append(ast.Expr(value=call(self.const(phase.turn_start), self.at_current(),
                                           ast.Dict(keys=[], values=[]))))
        return out

    def at_current(self) -> ast.expr:
        """``flow._at(ctx, state.current)``: a context for the seat whose turn it is."""
        return call(self.const(Ctx), self.const(self.game), load("state"),
                    ast.Attribute(value=load("state"), attr="current", ctx=LOAD), load("signals"))

    def untils(self) -> list[ast.stmt]:
        """Each phase's ``until``, evaluated as its compiled expression is; when it holds, the
        phase ends."""
        parts: list[list[ast.stmt]] = []
        for phase in self.game.phases:
            if phase.until is None:
                parts.append([])
                continue
            parts.append(self.until_value(phase.until) + [ast.If(test=load("_until"), orelse=[], body=[
                ast.Expr(value=call(self.const(flow._end_phase), load("ctx"))), ast.Continue()])])
        return self.by_phase(parts)

    def until_value(self, until: Any, target: str = "_until") -> list[ast.stmt]:
        """``_until = until(ctx at the current seat, {})`` (a phase's ``until``, a trigger's
        condition): its body called with the budget and memo that ``with_budget`` gives it, an
        error placed as ``Compiled.__call__`` places it."""
        if not isinstance(until, Compiled) or until.constant:
            return [assign(target, call(self.const(until), self.at_current(), ast.Dict(keys=[], values=[])))]
        env = ast.Dict(keys=[], values=[])
        if until.fn is not until.body:      # with_budget around the body: a budget and a memo
            env = ast.Dict(keys=[self.const(STEPS), self.const(MEMO)],
                           values=[ast.List(elts=[self.const(MAX_EVAL_STEPS)], ctx=LOAD), ast.Dict(keys=[], values=[])])
        evaluate = assign(target, call(self.const(until.body), self.at_current(), env))
        return [self.gen.guarded([evaluate], self.gen.faulted(until.pos))]


def _advance(ctx: Ctx) -> bool:
    """An interrupt going on moved along, as ``flow.settle`` does it."""
    return interrupts.advance(ctx.state, ctx.signals, lambda seat: flow._has_move(ctx, seat))


def _unsettled(fired: Any) -> Exception:
    from ..errors import LimitError
    return LimitError(f"the game did not settle after {MAX_TRIGGER_CASCADE} automatic steps "
                      "(a trigger whose effects do not make its condition false?)",
                      fired.pos if fired is not None else None)


