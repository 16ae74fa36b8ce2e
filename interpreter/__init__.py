"""rules: a declarative engine for card and dice games.

The package also keeps the import paths of modules that moved when it was laid out by stage.

Scripts written against the old flat layout (``from interpreter.agents import make_bot``) keep
working: each old name is the very module at its new place, with a ``DeprecationWarning`` that
names the new path. New code imports from ``interpreter.api``.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

# Old path -> new path, for the modules the docs showed users before the layout.
MOVED = {
    "interpreter.agents": "interpreter.bots.agents",
    "interpreter.search": "interpreter.bots.search",
    "interpreter.determinize": "interpreter.bots.determinize",
    "interpreter.records": "interpreter.play.records",
    "interpreter.simulate": "interpreter.tools.simulate",
    "interpreter.simulate_report": "interpreter.tools.simulate_report",
    "interpreter.scenario_run": "interpreter.tools.scenario_run",
    "interpreter.state": "interpreter.engine.state",
    "interpreter.views": "interpreter.engine.views",
}


class MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and gives the module at its new one."""

    def find_spec(self, name, path=None, target=None):
        if name not in MOVED:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new}; import it from interpreter.api", DeprecationWarning,
                      stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module):
        pass        # the module at the new path is already loaded


def install() -> None:
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())


install()
