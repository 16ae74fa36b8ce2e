"""The games that come with the package, found by name: ``rules play NAME`` from any folder.

The checkout's ``games/`` folder is the one source: the build installs its files as the data
package ``rules_games`` (see ``pyproject.toml``); run from a checkout without installing, the
folder itself is used.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from ..errors import YamlError, did_you_mean

PACKAGE = "rules_games"
CHECKOUT_GAMES = Path(__file__).resolve().parents[2] / "games"


def games_folder() -> Path | None:
    """Where the bundled games are, or None when they cannot be found."""
    # The package's folders as the import system sees them (a data package without __init__ is a
    # namespace package; in an editable install it also lists a path hook, not a folder).
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location).is_dir():
            return Path(location)
    return CHECKOUT_GAMES if CHECKOUT_GAMES.is_dir() else None


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

