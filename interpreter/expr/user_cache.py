"""Work kept between runs in the user's cache folder: ``$XDG_CACHE_HOME/rules/``, else
``~/.cache/rules/``, made private to the user (mode 0700).

An entry is kept under a key made of everything its value depends on: the input's bytes, the
source of the code that made it, the versions of Python and of the libraries it used. So an entry
is never stale: changed input or code makes another key. An entry that is missing, unreadable or
corrupt is made again as if there were no cache, and a folder that cannot be made or written only
means that nothing is kept; a folder that others may write to is not used. Each kind of entry
keeps about ``MAX_ENTRIES`` of them, the most recently written. ``RULES_NO_CACHE=1`` in the
environment turns the cache off.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

MAX_ENTRIES = 256
SLACK = 32
SUFFIX = ".pickle"


def folder() -> Path | None:
    """The cache folder (made when missing), or None when it cannot be made or the cache is off."""
    if os.environ.get("RULES_NO_CACHE", "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / "rules"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = path.stat()
    except OSError:
        return None
    # Entries are pickles, read as code is: a folder someone else may write to is no cache.
    if hasattr(os, "getuid") and (status.st_uid != os.getuid() or status.st_mode & 0o022):
        return None
    return path


def key(*parts: str | bytes) -> str:
    """A key made of ``parts`` (each one's length is hashed too, so no two lists of parts meet)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


@functools.cache
def code_digest(*files: str) -> str | None:
    """A digest of the source of these files (the code an entry was made by) and of Python's
    version; None when one cannot be read (an install without sources: then nothing is kept)."""
    parts: list[str | bytes] = [sys.version]
    try:
        for name in files:
            parts.append(Path(name).read_bytes())
    except OSError:
        return None
    return key(*parts)


def load(kind: str, entry: str) -> Any | None:
    """The value kept under ``entry``, or None when there is none that can be read."""
    path = _path(kind, entry)
    if path is None:
        return None
    try:
        with open(path, "rb") as stream:
            return pickle.load(stream)
    except Exception:       # missing, unreadable, corrupt, or made by other classes: made again
        return None


def store(kind: str, entry: str, value: Any) -> None:
    """Keep ``value`` under ``entry`` (written whole or not at all), and the newest entries of the kind."""
    path = _path(kind, entry)
    if path is None:
        return
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".writing-")
    except OSError:         # a folder made read-only: nothing is kept
        return
    try:
        with os.fdopen(handle, "wb") as stream:
            pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)     # readers see the whole entry or none
    except Exception:       # a full disk, a value that cannot be kept: nothing is kept
        _remove(Path(temporary))
        return
    _prune(path.parent, kind)


def _path(kind: str, entry: str) -> Path | None:
    base = folder()
    return None if base is None else base / f"{kind}-{entry}{SUFFIX}"


def _prune(base: Path, kind: str) -> None:
    """Down to the newest ``MAX_ENTRIES`` of the kind, once there are ``SLACK`` more (so that
    the entries are not looked at on every write)."""
    try:
        names = [name for name in os.listdir(base) if name.startswith(f"{kind}-") and name.endswith(SUFFIX)]
    except OSError:
        return
    if len(names) <= MAX_ENTRIES + SLACK:
        return
    for old in sorted((base / name for name in names), key=_written)[:-MAX_ENTRIES]:
        _remove(old)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _written(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
