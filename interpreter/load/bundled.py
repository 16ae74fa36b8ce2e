"""The games that come with the package, found by name: ``rules play NAME`` from any folder.

The checkout's ``games/`` folder is the one source: the build installs its files as the data
package ``interpreter.games`` (``expr/installed.py``); run from a checkout, the folder itself is used.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import YamlError, did_you_mean
from ..expr.installed import data_folder


def games_folder() -> Path | None:
    """Where the bundled games are, or None when they cannot be found."""
    return data_folder("interpreter.games", "games")


def bundled_games() -> dict[str, Path]:
    """Each bundled game's name (its file name without ``.yaml``) and file, by name."""
    folder = games_folder()
    if folder is None:
        return {}
    return {path.stem: path for path in sorted(folder.glob("*.yaml"))}


def resolve_game(name_or_path: str) -> str:
    """A game file as given when it exists (or looks like a path), else the bundled game of that
    name (``NAME`` or ``NAME.yaml``, in any case); a bare name that is neither, or a name close to a
    bundled game's, is refused with a hint (a missing file otherwise left for the loader to report)."""
    if Path(name_or_path).exists() or "/" in name_or_path or "\\" in name_or_path:
        return name_or_path
    games = bundled_games()
    name = name_or_path.removesuffix(".yaml")
    found = games.get(name) or {stem.lower(): path for stem, path in games.items()}.get(name.lower())
    if found is not None:
        return str(found)
    hint = did_you_mean(name, games)
    if hint is None and name == name_or_path:       # a bare name: a game's, not a file's
        hint = "rules games lists the games that come with rules"
    if hint is None:
        return name_or_path     # a file that is not there: the loader says so
    raise YamlError(f"cannot read {name_or_path}: No such file or directory", hint=hint)

