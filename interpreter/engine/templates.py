"""Log lines: a template's text with the values of the expressions in its braces, bounded in
length like any other string (``limits.MAX_COLLECTION`` characters)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..errors import LimitError, Position
from ..limits import MAX_COLLECTION

if TYPE_CHECKING:
    from .context import Ctx


def renderer(parts: list, where: Position) -> Callable:
    """The function that writes a template's line: ``parts`` are its texts and compiled
    expressions, in order."""
    def render(ctx: Ctx, env: dict) -> str:
        out: list[str] = []
        left = [MAX_COLLECTION]
        try:
            for part in parts:
                show(part if isinstance(part, str) else part(ctx, env), out, left)
        except _TooLong:
            raise LimitError(f"this line would be longer than {MAX_COLLECTION} characters", where) from None
        return "".join(out)
    return render


class _TooLong(Exception):
    pass


def show(value: Any, out: list[str], left: list[int]) -> None:
    """Append how a template shows ``value``: a list as its items with spaces between, none as
    'none', a bool as yes or no; stops once the line would pass ``left`` characters."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            if i:
                _put(" ", out, left)
            show(item, out, left)
        return
    if value is None:
        text = "none"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    else:
        text = str(value)
    _put(text, out, left)


def _put(text: str, out: list[str], left: list[int]) -> None:
    left[0] -= len(text)
    if left[0] < 0:
        raise _TooLong
    out.append(text)
