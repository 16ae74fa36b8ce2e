"""A game's lean module kept in the user's cache folder (``expr/user_cache``) from one run to the
next, so that it is written and compiled once, not at every run.

A module depends only on the game (its resolved spec with its options: ``Spec.digest``) and on the
code that writes it: the whole interpreter, the grammar, and Python's version, which the compiled
code's format depends on. An entry holds the module's source, its compiled code, and what writing
it learnt that the engine uses afterwards (``LEARNT``); the rest is made again from the game by
``Module(game)``, which costs little. A game the lean engine does not generate is kept with the
reason, so that it is not tried again. A missing or corrupt entry only means writing the module
again.
"""
from __future__ import annotations

import functools
import marshal
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any

from ..engine.game import Game
from ..expr import user_cache
from ..expr.installed import grammar_file
from .ltypes import Unsupported
from .module import Module

KIND = "lean"
# What ``Module.write`` learns that is read after it (by the engine's face, the namespace and
# ``Program.text``): the variables' types, the constants, the globals bound and how, the moves'
# parameters' types and actions, the trick's facts, the expressions that count their work.
LEARNT = ("var_types", "consts", "bound", "trick_info", "param_type_cache", "actions", "counted_texts")


@dataclass
class Kept:
    source: str
    code: bytes                     # the compiled module, as ``marshal`` writes it
    learnt: dict[str, Any] | None   # None: the game is not generated, for ``reason``
    reason: str = ""


def entry(game: Game) -> str | None:
    """The key of ``game``'s module, or None when nothing is kept (the cache is off, or the
    code's sources cannot be read)."""
    if user_cache.folder() is None:
        return None
    code = _code_digest()
    return None if code is None else user_cache.key(code, game.spec.digest())


def load(key: str, module: Module) -> tuple[str, CodeType] | None:
    """The kept source and code of the module under ``key``, with what writing it learnt set on
    ``module`` (made from the game, not yet written); None when none is kept. Raises
    ``Unsupported`` when the game is kept as not generated."""
    kept = user_cache.load(KIND, key)
    if not isinstance(kept, Kept):
        return None
    if kept.learnt is None:
        raise Unsupported(kept.reason)
    try:
        code = marshal.loads(kept.code)
    except (EOFError, ValueError, TypeError):
        return None
    for name, value in kept.learnt.items():
        setattr(module, name, value)
    module.globals = dict(zip((f"K{i}" for i in range(len(module.consts))), module.consts))
    module.globals.update({name: module.made_global(made) for name, made in module.bound.items()})
    return kept.source, code


def store(key: str, module: Module, source: str, code: CodeType) -> None:
    """Keep a module just written and compiled (before it runs: nothing of a game in it yet)."""
    learnt = {name: getattr(module, name) for name in LEARNT}
    user_cache.store(KIND, key, Kept(source, marshal.dumps(code), learnt))


def store_unsupported(key: str, reason: str) -> None:
    user_cache.store(KIND, key, Kept("", b"", None, reason))


@functools.cache
def _code_digest() -> str | None:
    package = Path(__file__).resolve().parents[1]
    sources = sorted(str(path) for path in package.rglob("*.py"))
    return user_cache.code_digest(str(grammar_file()), *sources)
