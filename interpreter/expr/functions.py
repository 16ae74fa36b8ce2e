"""Functions that game authors define (``define: {"pair_score(v)": "2 * v"}``).

Bodies are compiled lazily, on first use, so a function may call one defined before or after
it. A function being compiled sits on a stack; meeting it again means recursion, which is a
check error naming the cycle. A body sees the host's names, the other functions and its own
parameters, never the locals of whoever calls it.

A body is checked with parameters of any type. A call whose arguments are known host objects
(a card, a seat) or lists of them also gets the body compiled again with those parameter types:
its member reads then go straight to the member instead of looking up the value's type on every
read, and when the general body's result type holds ``any``, the call takes the type this body
gives (so its callers' reads go straight too). When that stricter check fails, the call keeps
the general body.

The table also keeps the calls the checker meets, with their arguments' types, by the body they
are in. Once every expression of the host is checked, ``errors_by_use`` follows them from the
host's expressions into the bodies they reach, each checked with the types it is called with: a
body that fails wherever it is called (``value(card): card.rnk``) is an error at load.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import ErrorList, ExprCheckError, Position, RulesError, flatten
from . import nodes as n
from .nodes import all_nodes
from .runtime import Compiled
from .types import ANY, ListOf, ObjectType, Type

Locator = Callable[[int, int], Position]


@dataclass(frozen=True)
class UserFunction:
    """A function a game author defines, e.g. ``pair_score(v)`` with body ``2 * v``."""

    name: str
    params: list[str]
    body_text: str
    locate: Locator | None = None


class Cycle(Exception):
    """Raised inside the checker when a function's compilation reaches itself again."""

    def __init__(self, names: list[str]):
        super().__init__(" -> ".join(names))
        self.names = names


class DependentError(ExprCheckError):
    """A use of a function whose own definition failed; dropped when that failure is reported."""


@dataclass(frozen=True)
class CompiledFunction:
    name: str
    params: tuple[str, ...]
    type: Type
    body: Callable[[Any, dict], Any]   # the raw closure; the caller builds its env
    compiled: Compiled
    remember: bool = True       # whether a call's result is kept in the memo (see constant_work)


class FunctionTable:
    def __init__(self, definitions: dict[str, UserFunction], scope: Any):     # scope: the Scope that holds it
        self.definitions = definitions
        self.scope = scope
        self._done: dict[str, CompiledFunction | None] = {}
        self._errors: dict[str, list[RulesError]] = {}
        self._stack: list[str] = []
        self._special: dict[tuple, CompiledFunction | None] = {}
        self._special_errors: dict[tuple, list[RulesError]] = {}
        self._compiling: list[tuple] = []       # the keys of the bodies being compiled, innermost last
        # The calls met, with their arguments' types, by the key of the body they are in (None:
        # the host's expressions), each kind of call once.
        self._calls: dict[tuple | None, dict[tuple, tuple[str, tuple[Type, ...]]]] = {}

    def names(self) -> list[str]:
        return list(self.definitions)

    def get(self, name: str) -> "UserFunction | None":
        return self.definitions.get(name)

    def rebuilt(self, more: dict[str, UserFunction], scope: Any) -> "FunctionTable":
        return FunctionTable({**self.definitions, **more}, scope)

    # The compiler hands its ``compile_body`` to each call that may compile a body: the table sits
    # below the compiler, which uses it to check calls.
    def resolve(self, name: str, compile_body: Callable) -> CompiledFunction | None:
        """The compiled function, or None if its definition has errors; raises ``Cycle``."""
        if name in self._done:
            return self._done[name]
        if name in self._stack:
            raise Cycle(self._stack[self._stack.index(name):] + [name])
        self._stack.append(name)
        try:
            self._done[name] = self._compile(self.definitions[name], compile_body)
        except RulesError as error:
            self._errors[name] = flatten([error])
            self._done[name] = None
        finally:
            self._stack.pop()
        return self._done[name]

    def specializer(self, name: str, arg_types: list[Type],
                    compile_body: Callable) -> Callable[[], CompiledFunction | None] | None:
        """For a call with host-object arguments: what compiles (once) the body for those types."""
        if not any(_host_typed(t) for t in arg_types):
            return None
        types = _as_specialized(arg_types)
        return lambda: self.specialized(name, types, compile_body)

    def specialized(self, name: str, types: tuple[Type, ...], compile_body: Callable) -> CompiledFunction | None:
        """The body compiled with these parameter types, or None when that check fails."""
        key = _key(name, types)
        if key not in self._special:
            self._special[key] = None       # a call met again while compiling keeps the general body
            try:
                self._special[key] = self._compile(self.definitions[name], compile_body, types)
            except RulesError as error:
                self._special_errors[key] = flatten([error])
        return self._special[key]

    def _compile(self, definition: UserFunction, compile_body: Callable,
                 types: tuple[Type, ...] | None = None) -> CompiledFunction:
        for param in definition.params:
            if param.startswith("_") or not param.isidentifier():
                raise ExprCheckError(f"bad parameter name '{param}' in '{definition.name}'",
                                     hint="parameter names are letters, digits and '_', not first")
        types = types or (ANY,) * len(definition.params)
        body_scope = self.scope.for_body(dict(zip(definition.params, types)), self)
        self._compiling.append(_key(definition.name, types))
        try:
            compiled = compile_body(definition.body_text, body_scope, definition.locate)
        finally:
            self._compiling.pop()
        # The body without a budget of its own: its callers hand it theirs.
        return CompiledFunction(definition.name, tuple(definition.params), compiled.type, compiled.body, compiled,
                                remember=not constant_work(compiled.node, definition.params, self.scope.names))

    def note_call(self, name: str, arg_types: list[Type]) -> None:
        """A call the checker met, in the body being compiled (or an expression of the host)."""
        caller = self._compiling[-1] if self._compiling else None
        types = _as_specialized(arg_types)
        self._calls.setdefault(caller, {})[_key(name, types)] = (name, types)

    def errors_by_use(self, compile_body: Callable) -> list[RulesError]:
        """The errors of bodies checked with the types they are called with: the calls of the
        host's expressions, then those of the bodies they reach, checked with those types in turn.
        An error is one where it falls under every set of types its function is called with (a
        member that none of them has); a function never called, or called with an argument of
        unknown type, keeps the check of its general body."""
        reached: dict[tuple, tuple[str, tuple[Type, ...]]] = {}
        queue = list(self._calls.get(None, {}).items())
        for key, (name, types) in queue:        # the queue grows as bodies are reached
            if key in reached or self._done.get(name) is None:
                continue
            reached[key] = (name, types)
            if any(t is not ANY for t in types):
                self.specialized(name, types, compile_body)
            queue += self._calls.get(key, {}).items()
        keys_of: dict[str, list[tuple]] = {}
        for key, (name, _) in reached.items():
            keys_of.setdefault(name, []).append(key)
        errors: list[RulesError] = []
        for name, keys in keys_of.items():
            failures = [self._special_errors.get(key, []) for key in keys]
            called = _called_as(self.definitions[name], [reached[key][1] for key in keys])
            errors += [copy.copy(e).within(called) for e in _everywhere(failures)]
        return errors

    def compile_all(self, compile_body: Callable) -> dict[str, CompiledFunction]:
        """Compile every definition; raise all their errors together."""
        for name in self.definitions:
            self.resolve(name, compile_body)
        errors = [e for name in self.definitions for e in self._errors.get(name, [])]
        reported = [e for e in errors if not isinstance(e, DependentError)] or errors
        if len(reported) == 1:
            raise reported[0]
        if reported:
            raise ErrorList(reported)
        return {name: fn for name, fn in self._done.items() if fn is not None}


def _host_typed(t: Type) -> bool:
    """A host-object type, or a list of one: a body compiled for it reads members directly."""
    return isinstance(t, ObjectType) or isinstance(t, ListOf) and isinstance(t.elem, ObjectType)


def _as_specialized(arg_types: list[Type]) -> tuple[Type, ...]:
    """The parameter types a body is specialised for: host objects (and lists of them) only."""
    return tuple(t if _host_typed(t) else ANY for t in arg_types)


def _key(name: str, types: tuple[Type, ...]) -> tuple:
    return (name, tuple(_type_key(t) for t in types))


def _called_as(definition: UserFunction, calls: list[tuple[Type, ...]]) -> str:
    """``where value(x) is called: x is a card or a seat``."""
    known = []
    for i, param in enumerate(definition.params):
        kinds = list(dict.fromkeys(str(types[i]) for types in calls if types[i] is not ANY))
        if kinds:
            known.append(f"{param} is a {' or a '.join(kinds)}")
    return f"where {definition.name}({', '.join(definition.params)}) is called: {', '.join(known)}"


def _everywhere(failures: list[list[RulesError]]) -> list[RulesError]:
    """The errors of the first list at the places where every list has one (those of a use of a
    function whose own definition failed aside: that failure is reported)."""
    def place(e: RulesError) -> tuple | None:
        return None if e.pos is None else (e.pos.file, e.pos.line, e.pos.col, e.pos.width)
    first, *others = failures
    places = [{place(e) for e in errors} for errors in others]
    return [e for e in first if not isinstance(e, DependentError) and place(e) is not None
            and all(place(e) in p for p in places)]


def _type_key(t: Type) -> tuple:
    # By identity: the host's types live as long as the table (types of two games may share names).
    return ("list", id(t.elem)) if isinstance(t, ListOf) else ("one", id(t))


def constant_work(body: n.Node, params: list[str], names: dict) -> bool:
    """Whether a body's work is bounded by its own size: no loop, range or call, and no host name
    whose reading is costly. Such a body costs less than making and looking up its memo key.
    (A name of a defined function without parameters is remembered on its own.)"""
    for node in all_nodes(body):
        if isinstance(node, (n.Call, n.Comprehension, n.Lambda, n.Range)):
            return False
        if isinstance(node, n.Name) and node.name not in params and node.name in names and names[node.name].costly:
            return False
    return True
