"""A registry of built-in functions with declared signatures (name, typed parameters, result).

The checker uses the signatures for arity and type errors; the compiler calls ``impl``.
Hosts add their own functions to a copy (``BUILTINS.extended()``), never to the shared one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .types import ANY, Type

ReturnRule = Type | Callable[[list[Type]], Type]


@dataclass(frozen=True)
class Param:
    name: str
    type: Type = ANY
    optional: bool = False


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple[Param, ...]
    returns: ReturnRule
    doc: str
    impl: Callable[..., Any]
    variadic: bool = False        # the last parameter may be repeated (at least once)
    example: str = ""             # "expression → result", shown in the docs and tested
    needs_ctx: bool = False       # impl(ctx, *args): for host functions that read the context
    applies_to: int | None = None  # a function argument is applied to the items of this argument
    # Over a comprehension written as its argument, the call stops at the first item equal to
    # this value and returns it (any: true, all: false); the rest are not worked out.
    decided_by: bool | None = None

    @property
    def signature(self) -> str:
        parts = [f"{p.name}{'?' if p.optional else ''}: {_plain(p.type)}" for p in self.params]
        if self.variadic:
            parts[-1] += ", ..."
        return f"{self.name}({', '.join(parts)}) -> {self.result_name}"

    @property
    def result_name(self) -> str:
        """The result type, or the rule's docstring ("an item of xs") when it depends on the arguments."""
        if isinstance(self.returns, Type):
            return _plain(self.returns)
        return (self.returns.__doc__ or "any").strip()

    def arity_problem(self, given: int) -> str | None:
        """The message for a wrong number of arguments, or None when ``given`` is fine."""
        required = sum(1 for p in self.params if not p.optional)
        if self.variadic:
            if given >= required:
                return None
            return f"{self.name}() takes at least {_arguments(required)} ({given} given)"
        if required <= given <= len(self.params):
            return None
        if required == len(self.params):
            wanted = _arguments(required)
        else:
            wanted = f"{required} or {_arguments(len(self.params))}" if len(self.params) == required + 1 \
                else f"{required} to {_arguments(len(self.params))}"
        return f"{self.name}() takes {wanted} ({given} given)"

    def param_at(self, index: int) -> Param:
        return self.params[min(index, len(self.params) - 1)]

    def result_type(self, arg_types: list[Type]) -> Type:
        return self.returns if isinstance(self.returns, Type) else self.returns(arg_types)


def _plain(t: Type) -> str:
    return str(t).replace("map of any to any", "map").replace("list of any", "list")


def _arguments(count: int) -> str:
    return f"{count} argument" + ("" if count == 1 else "s")


class Registry:
    def __init__(self, builtins: dict[str, Builtin] | None = None):
        self._builtins: dict[str, Builtin] = dict(builtins or {})

    def register(self, name: str, params: list[Param], returns: ReturnRule, doc: str,
                 impl: Callable[..., Any], *, variadic: bool = False, example: str = "",
                 needs_ctx: bool = False, applies_to: int | None = None,
                 decided_by: bool | None = None) -> Builtin:
        if not name.isidentifier() or name.startswith("_"):
            raise ValueError(f"bad built-in name {name!r}")
        builtin = Builtin(name, tuple(params), returns, doc, impl, variadic, example, needs_ctx, applies_to,
                          decided_by)
        self._builtins[name] = builtin
        return builtin

    def get(self, name: str) -> Builtin | None:
        return self._builtins.get(name)

    def names(self) -> list[str]:
        return sorted(self._builtins)

    def all(self) -> list[Builtin]:
        return [self._builtins[name] for name in self.names()]

    def extended(self) -> "Registry":
        """A copy to which a host may add its own functions without touching this one."""
        return Registry(self._builtins)
