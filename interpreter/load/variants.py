"""Variants: a game file that ``extends`` another and overrides parts of it.

The variant's mappings are merged into the base's key by key, recursively; any other value
(a list, a text, a number) replaces the base's; a key set to ``~`` (null) removes the base's
entry. Every value of the result keeps the position of the file it came from, so an error in a
variant points at the variant's own lines.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..errors import Position, RulesError, SchemaError, Source, SpecError
from ..limits import MAX_EXTENDS_DEPTH

_MISSING = object()


class MergedDocument:
    """The data of a variant merged over its base, with the positions of both files."""

    def __init__(self, variant: Any, base: Any):
        self.variant = variant
        self.base = base
        self.data = merge(base.data, variant.data)
        self.data.pop("extends", None)

    @property
    def source(self) -> Source:
        return self.variant.source

    def _owner(self, path: tuple) -> Any:
        return self.variant if _lookup(self.variant.data, path) is not _MISSING else self.base

    def pos(self, path: tuple = ()) -> Position:
        return self._owner(path).pos(path)

    def key_pos(self, path: tuple) -> Position:
        return self._owner(path).key_pos(path)

    def locate(self, path: tuple, offset: int, width: int = 1) -> Position:
        return self._owner(path).locate(path, offset, width)


def merge(base: Any, over: Any) -> Any:
    """``over`` merged into ``base``: mappings key by key, a null removes, anything else replaces."""
    if not (isinstance(base, dict) and isinstance(over, dict)):
        return over
    out = dict(base)
    for key, value in over.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge(base.get(key), value) if key in base else value
    return out


def _lookup(data: Any, path: tuple) -> Any:
    for step in path:
        if isinstance(data, dict) and step in data:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return _MISSING
    return data


def resolve_extends(doc: Any, load: Callable[[Path], Any], chain: tuple[str, ...] = ()) -> Any:
    """The document with its ``extends`` chain applied (a document without one is returned as is)."""
    data = doc.data
    if not isinstance(data, dict) or "extends" not in data:
        return doc
    target = data["extends"]
    if not isinstance(target, str) or not target.strip():
        raise SchemaError("extends: expected the path of another game file", doc.pos(("extends",)))
    here = str(Path(doc.source.name).resolve())
    path = (Path(doc.source.name).parent / target).resolve()
    if str(path) in chain + (here,):
        raise SpecError(f"extends: {target} extends this file again (a cycle)", doc.pos(("extends",)))
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise SpecError(f"extends: more than {MAX_EXTENDS_DEPTH} files deep", doc.pos(("extends",)))
    if path.suffix not in (".yaml", ".yml"):
        raise SpecError(f"extends: {target} is not a game file (.yaml or .yml)", doc.pos(("extends",)))
    if path.exists() and not path.is_file():
        raise SpecError(f"extends: {target} is not a regular file", doc.pos(("extends",)))
    try:
        loaded = load(path)
    except RulesError as error:
        if error.pos is not None:
            raise
        raise SpecError(f"extends: {error.message}", doc.pos(("extends",))) from None
    return MergedDocument(doc, resolve_extends(loaded, load, chain + (here,)))
