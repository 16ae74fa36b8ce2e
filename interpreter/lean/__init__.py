"""The lean engine: each game compiled to a module of its own, over a state of the game's own
shape (cards, seats and piles as ints, each variable a slot), with the reference engine as its
specification and its fallback (``engine.LeanGame``).

``lean_game(game)`` gives a compiled game's lean engine (a ``Game`` or a ``LoadedGame``), made
once (on first use: loading a game does not pay for it), or None when the game is not generated;
``lean_reason`` says why not.
"""
from __future__ import annotations

import os
import weakref
from typing import Any

from ..expr.tree_store import kept_for
from .engine import LeanGame
from .ltypes import Unsupported

_made: "weakref.WeakKeyDictionary[Any, LeanGame | str]" = weakref.WeakKeyDictionary()


def lean_game(game: Any) -> LeanGame | None:
    """The lean engine of ``game`` (a ``Game`` or a ``LoadedGame``), or None when it is not
    generated."""
    made = _lean(getattr(game, "game", game))
    return made if isinstance(made, LeanGame) else None


def lean_reason(game: Any) -> str | None:
    """Why ``game`` runs on the reference engine, or None when the lean engine runs it."""
    made = _lean(getattr(game, "game", game))
    return None if isinstance(made, LeanGame) else made


def _lean(game: Any) -> LeanGame | str:
    made = _made.get(game)
    if made is None:
        try:
            with kept_for(os.path.abspath(game.spec.file)):     # the file's expressions, parsed once
                made = LeanGame(game)
        except Unsupported as unsupported:
            made = unsupported.reason
        _made[game] = made
    return made


__all__ = ["LeanGame", "Unsupported", "lean_game", "lean_reason"]
