"""The names an expression may use: host bindings, locals, user-defined functions, built-ins."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .builtins import BUILTINS, Registry
from .functions import FunctionTable, UserFunction
from .functions import (
    Locator as Locator,  # where parse and the hosts have always found it
)
from .types import Type


@dataclass(frozen=True)
class Binding:
    """A name provided by the host: its type and how to read its value from the host's context."""

    type: Type
    get: Callable[[Any], Any]
    doc: str = ""
    costly: bool = False    # its reading does work that grows with the table (a trick's winner)
    acting: bool = False    # it reads the acting seat (``me``, a seat's variable or zone named alone)


class Scope:
    """What an expression can see. Locals are read from the ``env`` dict at run time."""

    def __init__(self, names: dict[str, Binding] | None = None, locals: dict[str, Type] | None = None,
                 functions: dict[str, UserFunction] | None = None, registry: Registry | None = None):
        self.names = dict(names or {})
        self.locals = dict(locals or {})
        self.registry = BUILTINS if registry is None else registry
        self.functions = FunctionTable(dict(functions or {}), self)
        # Where no seat acts (the game's setup): what to call that place; a name that reads the
        # acting seat is then refused. Children inherit it.
        self.seatless: str | None = None

    def child(self, *, names: dict[str, Binding] | None = None, locals: dict[str, Type] | None = None,
              functions: dict[str, UserFunction] | None = None, registry: Registry | None = None) -> "Scope":
        """A copy that sees more names, locals or functions (or another registry).

        Functions already defined keep their compiled bodies: the copy shares them unless it adds
        functions or host names, in which case its function table is rebuilt over the new scope.
        """
        scope = Scope.__new__(Scope)
        scope.names = {**self.names, **(names or {})}
        scope.locals = {**self.locals, **(locals or {})}
        scope.registry = self.registry if registry is None else registry
        scope.seatless = self.seatless
        if functions or names or registry is not None:
            scope.functions = self.functions.rebuilt(functions or {}, scope)
        else:
            scope.functions = self.functions
        return scope

    def for_body(self, params: dict[str, Type], functions: FunctionTable) -> "Scope":
        """The scope of a defined function's body: the host's names, the defined functions and
        its own parameters, never the locals of whoever calls it."""
        scope = Scope(names=self.names, locals=params, registry=self.registry)
        scope.functions = functions
        return scope

    def visible_names(self) -> list[str]:
        return [*self.locals, *self.names, *self.functions.names()]
