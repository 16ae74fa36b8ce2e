"""The distribution as a user receives it: every package listed for the build, a source
distribution holding what the tests need, and a wheel built from that source distribution that
installs the command's module, the grammar and the games inside the package (no generic top-level
name such as `cli` or `grammar`), declares its licence, and runs from any folder."""
from __future__ import annotations

import email
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile

import pytest

from tests.helpers import ROOT

CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_packages_listed_for_the_build_are_every_package_and_the_data():
    setuptools = CONFIG["tool"]["setuptools"]
    found = sorted(".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "interpreter").rglob("__init__.py"))
    assert sorted(setuptools["packages"]) == sorted(found + ["interpreter.games", "interpreter.grammar"])
    assert setuptools["package-dir"] == {"interpreter.games": "games", "interpreter.grammar": "grammar"}
    assert CONFIG["project"]["scripts"] == {"rules": "interpreter.commands:main"}
    assert CONFIG["project"]["name"] == "tablerules"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The source distribution, and the wheel built from it (as pip builds one from PyPI)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    sdist = next(out.glob("*.tar.gz"))
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(out), str(sdist)],
                   check=True, capture_output=True, timeout=300)
    return sdist, next(out.glob("*.whl"))


@pytest.mark.slow
def test_the_source_distribution_holds_the_tests_and_their_scenarios(built):
    sdist, _ = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    wanted = {"LICENSE", "README.md", "cli.py", "grammar/expr.lark", "games/liars_dice.yaml",
              "tests/scenarios/liars_dice.yaml", "tests/screens/liars_dice-80x24.txt", "tests/conftest.py",
              "docs/language.md", "interpreter/play/serve/static/draw.js"}
    assert wanted <= names
    assert not any("__pycache__" in name for name in names)


@pytest.mark.slow
def test_the_wheel_installs_inside_its_package_with_its_licence(built):
    _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
        entry_points = archive.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert {name.split("/")[0] for name in names} == {"interpreter", wheel.name.split("-")[0] + "-0.1.0.dist-info"}
    assert {"interpreter/grammar/expr.lark", "interpreter/games/euchre.yaml", "interpreter/commands/__init__.py",
            "interpreter/__main__.py", "interpreter/py.typed", "interpreter/load/schema/game.schema.json",
            "interpreter/play/serve/static/table.js"} <= names
    assert (metadata["Name"], metadata["License-Expression"]) == ("tablerules", "MIT")
    assert any(name.endswith("licenses/LICENSE") for name in names)
    assert "rules = interpreter.commands:main" in entry_points


@pytest.mark.slow
def test_the_wheel_runs_from_any_folder_with_its_own_grammar_and_games(built, tmp_path):
    _, wheel = built
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", "--target",
                    str(target), str(wheel)], check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(target), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "interpreter", "validate", "liars_dice", "kuhn_poker"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stdout) == (0, "liars_dice: ok\nkuhn_poker: ok\n")
    where = "import interpreter, interpreter.expr.installed as i; print(interpreter.__file__); print(i.grammar_file())"
    located = subprocess.run([sys.executable, "-c", where], cwd=tmp_path, env=env, capture_output=True, text=True,
                             timeout=60, check=True)
    assert located.stdout.splitlines() == [str(target / "interpreter" / "__init__.py"),
                                           str(target / "interpreter" / "grammar" / "expr.lark")]
