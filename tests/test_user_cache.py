"""Work kept between runs in the user's cache folder (interpreter/expr/user_cache.py): a game file's
YAML document (load/yamlio.py) and its expressions' trees (expr/tree_store.py). Each is the very
result of reading the file afresh; a changed file, a corrupt entry or a folder that cannot be
written changes nothing but the time it takes."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from interpreter.expr import user_cache
from interpreter.api import load_game
from interpreter.errors import RulesError
from interpreter.load.yamlio import load_yaml, load_yaml_file
from tests.helpers import GAMES, ROOT


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULES_NO_CACHE", raising=False)
    return tmp_path / "cache" / "rules"


def entries(folder, kind: str) -> list:
    return sorted(p.name for p in folder.glob(f"{kind}-*.pickle")) if folder.exists() else []


def test_a_value_is_kept_and_read_back(cache_home):
    user_cache.store("test", "k1", {"a": [1, 2]})
    assert user_cache.load("test", "k1") == {"a": [1, 2]}
    assert user_cache.load("test", "k2") is None
    assert oct(cache_home.stat().st_mode & 0o777) == "0o700"


def test_a_corrupt_entry_reads_as_none(cache_home):
    user_cache.store("test", "k1", [1])
    (cache_home / "test-k1.pickle").write_bytes(b"\x80\x05garbage")
    assert user_cache.load("test", "k1") is None


def test_only_the_newest_entries_of_a_kind_are_kept(cache_home, monkeypatch):
    monkeypatch.setattr(user_cache, "MAX_ENTRIES", 2)
    monkeypatch.setattr(user_cache, "SLACK", 1)
    for number in range(4):
        user_cache.store("test", f"k{number}", number)
        os.utime(cache_home / f"test-k{number}.pickle", (number, number))  # written in this order
    user_cache.store("other", "k0", 0)
    assert entries(cache_home, "test") == ["test-k2.pickle", "test-k3.pickle"]
    assert entries(cache_home, "other") == ["other-k0.pickle"]


def test_rules_no_cache_keeps_nothing(cache_home, monkeypatch):
    monkeypatch.setenv("RULES_NO_CACHE", "1")
    user_cache.store("test", "k1", 1)
    assert user_cache.load("test", "k1") is None
    assert not cache_home.exists()


def test_a_folder_that_cannot_be_written_keeps_nothing(cache_home):
    cache_home.mkdir(parents=True)
    cache_home.chmod(0o500)
    try:
        if os.access(cache_home, os.W_OK):
            pytest.skip("this user writes into read-only folders (root)")
        user_cache.store("test", "k1", 1)
        assert user_cache.load("test", "k1") is None
    finally:
        cache_home.chmod(0o700)


def test_a_folder_others_may_write_to_is_not_used(cache_home):
    cache_home.mkdir(parents=True)
    cache_home.chmod(0o777)
    assert user_cache.folder() is None
    user_cache.store("test", "k1", 1)
    assert list(cache_home.iterdir()) == []
    cache_home.chmod(0o700)
    assert user_cache.folder() == cache_home


def test_keys_tell_their_parts_apart():
    assert user_cache.key("ab", "c") != user_cache.key("a", "bc")
    assert user_cache.key("a", b"b") == user_cache.key(b"a", "b")


# -- a game file's YAML document ---------------------------------------------------------------------

def same_document(one, other) -> None:
    assert one.data == other.data
    for path in [(), ("moves",), ("moves", "play"), ("flow", "phases", 0, "until")]:
        assert one.pos(path) == other.pos(path) and one.key_pos(path) == other.key_pos(path)


def test_a_file_read_again_is_the_same_document(cache_home, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text((ROOT / "benchmarks" / "floor.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    first = load_yaml_file(path)
    assert len(entries(cache_home, "yaml")) == 1
    again = load_yaml_file(path)
    same_document(again, first)
    same_document(again, load_yaml(path.read_bytes(), str(path)))
    assert again.pos(("moves", "play")).file == str(path)


def test_a_changed_file_is_read_afresh(cache_home, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("name: A\n", encoding="utf-8")
    assert load_yaml_file(path).data == {"name": "A"}
    path.write_text("name: B\n", encoding="utf-8")
    assert load_yaml_file(path).data == {"name": "B"}


def test_a_corrupt_document_entry_is_read_afresh(cache_home, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("name: A\nplayers: 2\n", encoding="utf-8")
    load_yaml_file(path)
    for entry in cache_home.glob("yaml-*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert load_yaml_file(path).data == {"name": "A", "players": 2}


def test_a_file_with_an_error_is_never_kept(cache_home, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("name: [A\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RulesError, match=r"g\.yaml:2:1"):
            load_yaml_file(path)
    assert entries(cache_home, "yaml") == []


# -- a game file's expression trees ------------------------------------------------------------------

LOAD_AND_TELL = """
import sys
from interpreter.api import load_game
from interpreter.expr.parse import expression_parser
game = load_game(sys.argv[1])
print(expression_parser.cache_info().currsize)     # 1 when the parser was built: a text was parsed
"""


def load_in_new_process(cache: str, game: str) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": cache}
    env.pop("RULES_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", LOAD_AND_TELL, game], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_next_load_of_a_file_parses_none_of_its_expressions(tmp_path):
    game = str(GAMES / "dice_poker.yaml")
    assert load_in_new_process(str(tmp_path), game) == "1"
    assert len(entries(tmp_path / "rules", "trees")) == 1
    assert load_in_new_process(str(tmp_path), game) == "0"


def test_a_game_loaded_with_kept_trees_plays_the_same(cache_home):
    path = GAMES / "schmier.yaml"
    fresh = load_game(path)
    assert entries(cache_home, "trees")
    kept = load_game(path)
    for seed in range(3):
        one, other = fresh.new_state(seed=seed), kept.new_state(seed=seed)
        for _ in range(60):
            moves = fresh.legal_moves(one)
            assert [m.text for m in moves] == [m.text for m in kept.legal_moves(other)]
            fresh.apply(one, moves[seed % len(moves)])
            kept.apply(other, moves[seed % len(moves)].text)
        assert one.to_json() == other.to_json()


def same_error_twice(load, path) -> str:
    """The first line of the error that loading ``path`` raises, the same in a second load."""
    messages = []
    for _ in range(2):
        with pytest.raises(RulesError) as caught:
            load(path)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    return messages[0].splitlines()[0]


def test_an_expression_error_is_placed_the_same_with_kept_trees(cache_home, tmp_path):
    path = tmp_path / "g.yaml"
    text = (ROOT / "benchmarks" / "floor.yaml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    load_game(path)
    path.write_text(text.replace("until: all(p.hand.empty for p in players)", "until: all(p.hand.empty for p in)"),
                    encoding="utf-8")
    first = same_error_twice(load_game, path)
    assert first == f"{path}:32:39: error: unexpected ')' after 'in': expected a value"


def test_without_the_code_s_sources_nothing_is_kept(cache_home, monkeypatch, tmp_path):
    monkeypatch.setattr(user_cache, "code_digest", lambda *files: None)
    path = tmp_path / "g.yaml"
    path.write_text((ROOT / "benchmarks" / "floor.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert load_game(path).name == "Floor"
    assert entries(cache_home, "yaml") == entries(cache_home, "trees") == []


# -- a game file's structure check -----------------------------------------------------------------

def test_a_document_that_passed_the_structure_check_is_not_checked_again(cache_home, tmp_path, monkeypatch):
    from interpreter.load import schema_check
    from interpreter.load.spec import read_spec
    path = tmp_path / "g.yaml"
    text = (ROOT / "benchmarks" / "floor.yaml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    read_spec(path)
    assert len(entries(cache_home, "passed")) == 1

    def no_validator():
        raise AssertionError("checked again")
    monkeypatch.setattr(schema_check, "_validator", no_validator)
    assert read_spec(path).data["name"] == "Floor"
    path.write_text(text.replace("rounds: 30", "rounds: 29"), encoding="utf-8")
    with pytest.raises(AssertionError, match="checked again"):
        read_spec(path)


def test_a_document_with_a_structure_error_is_checked_every_time(cache_home, tmp_path):
    from interpreter.load.spec import read_spec
    path = tmp_path / "g.yaml"
    text = (ROOT / "benchmarks" / "floor.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("  pile: {}", "  pile: {colour: red}"), encoding="utf-8")
    assert same_error_twice(read_spec, path) == f"{path}:17:10: error: unknown key 'colour' in zones.pile"
    assert entries(cache_home, "passed") == []


# -- a game's lean module ----------------------------------------------------------------------------

def never_written(monkeypatch) -> None:
    from interpreter.lean.module import Module

    def write(self, body):
        raise AssertionError("written again")
    monkeypatch.setattr(Module, "write", write)


@pytest.mark.parametrize("name, options", [("euchre", {}), ("nerts", {}), ("nerts", {"jokers": True}),
                                           ("dice_poker", {})])
def test_a_kept_lean_module_is_the_module_written_and_plays_the_same(cache_home, monkeypatch, name, options):
    from interpreter.lean.engine import LeanGame
    from tests.test_lean import lockstep
    fresh = LeanGame(load_game(GAMES / f"{name}.yaml", options))
    assert len(entries(cache_home, "lean")) == 1
    never_written(monkeypatch)
    loaded = load_game(GAMES / f"{name}.yaml", options)
    kept = LeanGame(loaded)
    assert kept.program.text() == fresh.program.text()
    assert sorted(kept.program.namespace) == sorted(fresh.program.namespace)
    for seed in range(2):
        lockstep(loaded, kept, None, seed)


def test_each_set_of_options_keeps_a_module_of_its_own(cache_home):
    from interpreter.lean.engine import LeanGame
    for options in ({}, {"jokers": True}, {}):
        LeanGame(load_game(GAMES / "nerts.yaml", options))
    assert len(entries(cache_home, "lean")) == 2


def test_a_game_the_lean_engine_does_not_generate_is_kept_with_its_reason(cache_home, monkeypatch, tmp_path):
    from interpreter.lean.engine import LeanGame
    from interpreter.lean.ltypes import Unsupported
    from tests.runtime_games import CASES
    game = tmp_path / "probe.yaml"
    game.write_text(CASES["flip of a number"])
    with pytest.raises(Unsupported) as first:
        LeanGame(load_game(game))
    never_written(monkeypatch)
    with pytest.raises(Unsupported) as again:
        LeanGame(load_game(game))
    assert again.value.reason == first.value.reason == "flipping int"


def test_a_corrupt_lean_entry_is_written_again(cache_home):
    from interpreter.lean.engine import LeanGame
    fresh = LeanGame(load_game(GAMES / "kuhn_poker.yaml"))
    for entry in cache_home.glob("lean-*.pickle"):
        entry.write_bytes(b"\x80\x05garbage")
    again = LeanGame(load_game(GAMES / "kuhn_poker.yaml"))
    assert again.program.text() == fresh.program.text()
    state = again.new_state(seed=3)
    assert [again.action_text(a) for a in again.legal(state, state.current)] == ["pass", "bet"]
