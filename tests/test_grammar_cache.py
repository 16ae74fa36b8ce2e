"""The analysed expression grammar is kept in the user's cache folder between runs."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import lark

from interpreter.expr.parse import grammar_cache_file

ROOT = Path(__file__).resolve().parents[1]
PARSE_ONE = "from interpreter.expr.parse import parse_expression; print(type(parse_expression('1 + 2')).__name__)"


def test_the_cache_lies_in_xdg_cache_home_in_a_private_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    assert grammar_cache_file() == str(tmp_path / "rules" / f"expr-parser-lark{lark.__version__}-py{version}.cache")
    assert stat.S_IMODE(os.stat(tmp_path / "rules").st_mode) == 0o700


def test_without_xdg_cache_home_the_cache_lies_in_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Path(grammar_cache_file()).parent == tmp_path / ".cache" / "rules"


def test_a_cache_folder_that_cannot_be_made_means_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert grammar_cache_file() is None


def _parse_in_new_process(cache_home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    return subprocess.run([sys.executable, "-c", PARSE_ONE], cwd=ROOT, env=env, capture_output=True, text=True)


def test_the_first_run_writes_the_cache_and_the_next_one_reads_it(tmp_path):
    first = _parse_in_new_process(tmp_path)
    assert (first.returncode, first.stdout, first.stderr) == (0, "Arith\n", "")
    cache = next((tmp_path / "rules").iterdir())
    written = cache.stat().st_mtime_ns
    second = _parse_in_new_process(tmp_path)
    assert (second.returncode, second.stdout, second.stderr) == (0, "Arith\n", "")
    assert cache.stat().st_mtime_ns == written


def test_a_corrupt_cache_is_built_again_without_a_word(tmp_path):
    _parse_in_new_process(tmp_path)
    cache = next((tmp_path / "rules").iterdir())
    cache.write_bytes(b"\x00garbage\n" * 10)
    run = _parse_in_new_process(tmp_path)
    assert (run.returncode, run.stdout, run.stderr) == (0, "Arith\n", "")
    assert cache.read_bytes() != b"\x00garbage\n" * 10
