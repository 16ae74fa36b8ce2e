"""The data the package installs beside its code, found the same way installed or in a checkout.

The checkout's top folders ``grammar/`` and ``games/`` are the one source of the expression
grammar and the bundled games: the build installs them inside the package, as the data packages
``interpreter.grammar`` and ``interpreter.games`` (see ``pyproject.toml``); run from a checkout,
the folders themselves are used.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]


def data_folder(package: str, checkout_folder: str) -> Path | None:
    """The folder of an installed data package, else the checkout's folder, or None."""
    # The package's folders as the import system sees them (in an editable install it may also
    # list a path hook, not a folder).
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location).is_dir():
            return Path(location)
    folder = CHECKOUT / checkout_folder
    return folder if folder.is_dir() else None


def grammar_file() -> Path:
    """The expression language's grammar (``expr.lark``)."""
    folder = data_folder("interpreter.grammar", "grammar")
    if folder is None:
        raise FileNotFoundError("the expression grammar (expr.lark) is not installed")
    return folder / "expr.lark"
