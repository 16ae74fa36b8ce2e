"""The values one parameter of a move is tried with while the legal moves are listed (``legal``): a
list, its sub-collections for ``subset_of`` (the lean engine asks ``few_sub_collections`` the same),
and every value counted against ``limits.MAX_MOVE_CHOICES``."""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ..errors import EvalError
from ..expr.ops import show
from .game_checks import too_many_choices
from .moves import sub_collections


def choices_of(listing: Any, param: Any, domain: Any) -> tuple[list, tuple[str, ...] | None]:
    """The values of ``param`` (from its list ``domain``) and the words they show as, when known;
    every value is counted against what ``listing`` may still try."""
    if not isinstance(domain, list):
        raise EvalError(f"parameter '{param.name}' must range over a list, not {show(domain)}", param.domain.pos)
    if param.kind == "subset_of" and not few_sub_collections(domain, listing.left):
        raise too_many_choices(listing.name, param.domain.pos)
    values, shown = sub_collections(domain) if param.kind == "subset_of" else (domain, None)
    listing.left -= len(values)
    if listing.left < 0:
        raise too_many_choices(listing.name, param.domain.pos)
    return values, shown


def few_sub_collections(values: list, most: int) -> bool:
    """Whether ``values`` has at most ``most`` distinct sub-collections, worked out before any is
    made (a list of n distinct values has 2**n - 1)."""
    if len(values) <= 16 and 2 ** len(values) - 1 <= most:
        return True
    try:
        repeats = Counter((type(v), v) for v in values).values()
    except TypeError:           # unhashable values: each is taken as distinct
        return len(values) < 64 and 2 ** len(values) - 1 <= most
    return math.prod(n + 1 for n in repeats) - 1 <= most
