"""The syntax trees of a game file's expressions, kept in the user's cache folder (``user_cache``)
from one load of the file to the next, so that its texts are parsed once, not at every load.

A tree depends only on its text and on the code that parses (the grammar, the builder, the nodes,
the limits, lark). So the trees are kept by text, in one entry per file (its name and that code):
while a file is loaded (``kept_for``), a text is looked up in the file's entry before it is
parsed, and when the load is done the entry is written again if the file now has texts it did not
hold (and those it no longer has are dropped). A text that fails to parse is never kept.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Callable, Iterator

import lark

from .. import limits
from .installed import grammar_file
from . import user_cache

KIND = "trees"


class _Load:
    """The trees of one file while it is loaded: those kept from before, those of this load."""

    def __init__(self, entry: str):
        self.entry = entry
        kept = user_cache.load(KIND, entry)
        self.kept: dict[str, Any] = kept if isinstance(kept, dict) else {}
        self.used: dict[str, Any] = {}


# The file being loaded in this context (loads in several threads at once keep their own trees).
_loading: ContextVar[_Load | None] = ContextVar("tree_store_loading", default=None)


def tree(text: str, parse: Callable[[str], Any]) -> Any:
    """The tree of ``text``: the file's kept one, else ``parse(text)``."""
    load = _loading.get()
    if load is None:
        return parse(text)
    found = load.kept.get(text)
    if found is None:
        found = parse(text)
    load.used[text] = found
    return found


@contextmanager
def kept_for(name: str) -> Iterator[None]:
    """While the file ``name`` is loaded: its trees looked up first, and kept when the load succeeds."""
    code = _parser_digest()
    if code is None:
        yield
        return
    load = _Load(user_cache.key(code, lark.__version__, name))
    token = _loading.set(load)
    try:
        yield
    finally:
        _loading.reset(token)
    if load.used.keys() != load.kept.keys():
        user_cache.store(KIND, load.entry, load.used)


def _parser_digest() -> str | None:
    here = Path(__file__).parent
    grammar = str(grammar_file())
    code = [str(here / name) for name in ("build.py", "nodes.py", "parse.py")]
    return user_cache.code_digest(grammar, *code, str(Path(limits.__file__)))
