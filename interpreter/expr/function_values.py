"""Values the language makes at run time that are not plain Python data."""
from __future__ import annotations

from typing import Any

from ..errors import EvalError


class FunctionValue:
    """The value of a lambda: built-ins such as ``max_by`` call it with plain arguments."""

    __slots__ = ("params", "run")

    def __init__(self, params: tuple[str, ...], run):
        self.params, self.run = params, run

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self.params):
            raise EvalError(f"function takes {_count(len(self.params), 'parameter')} ({len(args)} given)")
        return self.run(args)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
