"""What compiled expressions share at run time: the work budget and the memo kept in ``env``
under keys no user name can take (user names never begin with '_'), the words for a Python
failure, and the calls of defined functions."""
from __future__ import annotations

from typing import Any, Callable

from .. import limits
from ..errors import EvalError, LimitError, Position, PresetError, RulesError
from .nodes import Node
from .types import Type

Fn = Callable[[Any, dict], Any]
STEPS = "_steps"   # a one-item list: the work left in this evaluation
CALLS = "_calls"   # how many defined functions are running, nested
# A dict in which defined functions' results are remembered, by name and arguments. Each
# evaluation makes its own, as nothing an expression reads can change while it runs; a host may
# hand one in to keep it over several evaluations (while what they read cannot change).
MEMO = "_memo"
MISSING = object()


SIZED = (list, tuple, dict, str)


def spend(env: dict, amount: int) -> None:
    cell = env[STEPS]
    cell[0] -= amount
    if cell[0] < 0:
        raise too_many_steps()


def sized(fn: Fn, pos: Position) -> Fn:
    """``fn``, spending the size of the list or string it returns from the work budget."""
    def run(ctx, env):
        value = fn(ctx, env)
        if type(value) is list or type(value) is str:
            cell = env[STEPS]
            cell[0] -= len(value)
            if cell[0] < 0:
                raise fault(too_many_steps(), pos)
        return value
    return run


def too_many_steps() -> LimitError:
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


def fault(error: Exception, pos: Position | None) -> RulesError:
    """The error to raise for ``error`` caught by the closure at ``pos``."""
    if isinstance(error, RulesError):
        # A fixed outcome that does not fit is the test's mistake: its place is the test's.
        if error.pos is None and not isinstance(error, PresetError):
            error.pos = pos
        return error
    return EvalError(describe(error), pos)



_UNHASHABLE = (list, dict)


def enter(env: dict, calls: int, most: int) -> list:
    """Enter a defined function: check how deep calls are nested and spend a step of the work
    budget, whose cell is returned for the function's own env."""
    if calls > most:
        raise LimitError(f"defined functions nested too deeply (limit {most})")
    steps = env[STEPS]
    steps[0] -= 1
    if steps[0] < 0:
        raise too_many_steps()
    return steps


def constant_call(name: str, body: Fn, most: int, pos: Position) -> Fn:
    """A call of a defined function without parameters: remembered in the memo by its name."""
    def run(ctx, env):
        calls = env.get(CALLS, 0) + 1
        memo = env.get(MEMO)
        if memo is not None and (found := memo.get(name, MISSING)) is not MISSING:
            return found
        try:
            steps = enter(env, calls, most)
        except Exception as e:
            raise fault(e, pos) from None
        result = body(ctx, {STEPS: steps, CALLS: calls, MEMO: memo})
        if memo is not None:
            memo[name] = result
        return result
    return run


def plain_call(params: list[tuple[str, Fn]], bodies: list[Fn], most: int, pos: Position) -> Fn:
    """A call whose result is not remembered: each argument goes straight into the body's env."""
    def run(ctx, env):
        calls = env.get(CALLS, 0) + 1
        try:
            inner = {STEPS: enter(env, calls, most), CALLS: calls, MEMO: env.get(MEMO)}
            for param, arg in params:
                inner[param] = arg(ctx, env)
        except Exception as e:
            raise fault(e, pos) from None
        return bodies[0](ctx, inner)
    return run


def memo_key(memo: dict | None, name: str, values: tuple) -> tuple | None:
    """The key of a call in the memo, or None when there is no memo or an argument is a list or
    a map (checked by type first: raising TypeError costs more than a call). A key that holds
    one inside (a tuple of lists) fails when it is looked up."""
    if memo is None:
        return None
    for value in values:
        if type(value) in _UNHASHABLE:
            return None
    return (name, values)


def with_budget(body: Fn) -> Fn:
    """An evaluation of its own: a fresh work budget (or the one of the 'for' effects it runs in),
    and a memo unless the host handed one in (nothing an expression reads can change while it runs)."""
    def run(ctx, env):
        if MEMO in env:
            return body(ctx, {**env, STEPS: [limits.MAX_EVAL_STEPS]})
        if STEPS in env:    # inside a 'for' effect: the loop's budget is shared by all it evaluates
            return body(ctx, {**env, MEMO: {}})
        return body(ctx, {**env, STEPS: [limits.MAX_EVAL_STEPS], MEMO: {}})
    return run


class Compiled:
    """A compiled expression: call it with the host's context and the locals' values."""

    __slots__ = ("text", "type", "node", "pos", "fn", "body", "constant", "value")

    def __init__(self, text: str, type: Type, node: Node, pos: Position, fn: Fn, body: Fn,
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
