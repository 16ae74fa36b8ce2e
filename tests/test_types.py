"""The types the code declares hold: mypy, as configured in pyproject.toml (the package and the
command's entry), finds no error."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytest.importorskip("mypy")


@pytest.mark.slow
def test_mypy_finds_no_error():
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, check=False)
    assert done.stdout == "" and done.returncode == 0, done.stdout[-4000:]
