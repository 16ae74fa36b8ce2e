"""The tree is the architecture: one folder per stage, imports running one way, down the stack.

Every import of a module of ``interpreter`` is read from the source (those under
``if TYPE_CHECKING:`` too: they are for readers, and a reader should see the same direction).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "interpreter"
# The stages, lowest first: a module may import its own stage and those below it, never above.
STAGES = ["errors", "limits", "expr", "load", "engine", "lean", "bots", "play", "tools", "adapters", "api",
          "commands"]
# The shared roots every stage may use.
SHARED = {"errors", "limits"}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """The ``interpreter`` modules that ``path`` imports, with the line of each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                if not node.module:       # from . import a, b: each name may be a module
                    found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
                    continue
            else:
                target = node.module or ""
            found.append((node.lineno, target))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, name) for line, name in found if name == "interpreter" or name.startswith("interpreter.")]


# ``python -m interpreter`` (``interpreter/__main__.py``) is the door of the commands: it sits at their stage.
DOORS = {"__main__": "commands"}


def stage_of(module: str) -> str | None:
    parts = module.split(".")
    return DOORS.get(parts[1], parts[1]) if len(parts) > 1 else None


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_belongs_to_a_stage():
    stages = {stage_of(module_name(p)) for p in sources()} - {None, "__init__"}
    assert stages - set(STAGES) == set()


def upward_imports(path: Path, root: Path = ROOT) -> list[str]:
    own = stage_of(module_name(path, root))
    if own is None:
        return []
    upward = []
    for line, target in imported_modules(path, root):
        stage = stage_of(target)
        if stage is None or stage in SHARED or stage == own:
            continue
        if STAGES.index(stage) > STAGES.index(own):
            upward.append(f"{path.relative_to(root)}:{line}: {own} imports {target}")
    return upward


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_down_the_stack(path: Path):
    assert upward_imports(path) == []


def _module_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in sources()}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for _line, target in imported_modules(path):
            while target not in modules and "." in target:   # from .x import name: the module x
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name and not modules[target].name == "__init__.py":
                targets.add(target)
        graph[name] = targets
    return graph


def test_no_module_imports_itself_back():
    """No circle of imports between modules (a package's ``__init__`` re-exporting its modules
    is not counted: it is a door, not a stage)."""
    graph = _module_graph()
    circles = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                circles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []


def test_the_check_sees_imports():
    graph = _module_graph()
    assert "interpreter.engine.legal" in graph["interpreter.engine.flow"]
    assert "interpreter.tools.playout" in graph["interpreter.tools.simulate_ray"]
    assert stage_of("interpreter.engine.game") == "engine"


def test_an_upward_import_is_caught(tmp_path):
    bad = tmp_path / "interpreter" / "engine" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("from ..expr import nodes\nfrom ..play import records\nfrom interpreter.tools.bench import bench\n")
    assert upward_imports(bad, tmp_path) == [
        "interpreter/engine/bad.py:2: engine imports interpreter.play",
        "interpreter/engine/bad.py:3: engine imports interpreter.tools.bench",
    ]


def test_nothing_imports_the_commands(tmp_path):
    """The commands (``interpreter/commands/``, the ``rules`` command) are on top of every stage:
    they import the stages, and no stage imports them."""
    assert stage_of("interpreter.commands.playing") == stage_of("interpreter.__main__") == STAGES[-1] == "commands"
    bad = tmp_path / "interpreter" / "api.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("from interpreter.commands.common import load\nfrom .commands import main\n")
    assert upward_imports(bad, tmp_path) == [
        "interpreter/api.py:1: api imports interpreter.commands.common",
        "interpreter/api.py:2: api imports interpreter.commands",
    ]


def _imports_in_docs() -> list[str]:
    lines = set()
    for path in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip().strip("`")
            if line.startswith("from interpreter") and " import " in line:
                lines.add(line.split("#")[0].strip())
    return sorted(lines)


def test_the_docs_give_import_paths_that_work():
    """Every ``from interpreter... import ...`` a page of the docs shows runs as written."""
    found = _imports_in_docs()
    assert "from interpreter.api import load_game" in found
    for line in found:
        exec(compile(line, "<docs>", "exec"), {})      # our own docs' lines, not user text
