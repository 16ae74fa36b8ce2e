"""Variants: `extends:` merges a short file over its base, and errors point at the right file."""
from __future__ import annotations

from click.testing import CliRunner

from cli import main
from interpreter.errors import RulesError, flatten
from tests.helpers import GAMES, load

BASE = GAMES / "last_card.yaml"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text.replace("BASE", str(BASE)))
    return path


def errors_of(path):
    from interpreter.api import load_game
    try:
        load_game(path)
    except RulesError as error:
        return [e.headline() for e in flatten([error])]
    return []


def test_crazy_eights_adds_a_move_and_keeps_the_rest_of_last_card():
    eights, base = load("crazy_eights"), load("last_card")
    assert eights.name == "Crazy eights"
    assert list(eights.game.moves) == ["play", "draw", "pass", "play_eight"]
    assert eights.game.variables["game"] == {"draws": 0, "passes": 0, "named": None}
    assert eights.spec.data["zones"] == base.spec.data["zones"]
    assert eights.digest() != base.digest()


def test_an_eight_names_the_suit_to_follow():
    game = load("crazy_eights")
    state = game.new_state(players=3, seed=0)
    table = game.game.card_table(3)
    eight = next(c for c in table if c.label == "8H")
    for piles in state.zones.values():
        for pile in piles:
            if eight.id in pile:
                pile.remove(eight.id)
    state.zones["hand"][0].append(eight.id)
    state.face_up.add(eight.id)
    texts = [m.text for m in game.legal_moves(state)]
    assert [t for t in texts if t.startswith("play_eight")] == [
        "play_eight 8H clubs", "play_eight 8H diamonds", "play_eight 8H hearts", "play_eight 8H spades"]
    game.apply(state, "play_eight 8H spades")
    assert state.vars["named"] == "spades"
    follow = [m.text for m in game.legal_moves(state) if m.name == "play"]
    assert all(t.endswith("S") or t.startswith("play 8") for t in follow)


def test_an_error_in_a_variant_points_at_the_variant(tmp_path):
    path = write(tmp_path, "bad.yaml", "extends: BASE\nname: Bad\nmoves:\n  play:\n    when: fitz(card)\n")
    assert errors_of(path) == [f"{path}:5:11: error: unknown function 'fitz'"]


def test_a_removed_zone_is_reported_where_the_base_uses_it(tmp_path):
    path = write(tmp_path, "rm.yaml", "extends: BASE\nname: No pile\nzones:\n  pile: ~\n")
    found = errors_of(path)
    assert f"{BASE}:45:28: error: unknown name 'pile'" in found
    assert f"{BASE}:56:9: error: unknown name 'pile'" in found


def test_a_cycle_of_extends_is_refused(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\nname: A\n")
    b = write(tmp_path, "b.yaml", "extends: a.yaml\nname: B\n")
    assert errors_of(tmp_path / "a.yaml") == [f"{b}:1:10: error: extends: a.yaml extends this file again (a cycle)"]


def test_a_missing_base_is_reported_at_extends(tmp_path):
    path = write(tmp_path, "c.yaml", "extends: nothere.yaml\nname: C\n")
    assert errors_of(path) == [
        f"{path}:1:10: error: extends: cannot read {tmp_path / 'nothere.yaml'}: No such file or directory"]


def test_show_resolved_prints_the_merged_spec():
    result = CliRunner().invoke(main, ["show", str(GAMES / "crazy_eights.yaml"), "--resolved"])
    assert result.exit_code == 0
    assert result.output.startswith(f"# Crazy eights: resolved from {GAMES / 'crazy_eights.yaml'}\n"
                                    "# options in force: hand_size=5\nname: Crazy eights\n")
    assert "extends" not in result.output and "play_eight:" in result.output and "draw:" in result.output


def test_show_summarises_a_game():
    result = CliRunner().invoke(main, ["show", str(GAMES / "dice_poker.yaml"), "-o", "strict_chance=yes"])
    assert result.exit_code == 0
    assert "players: 2 to 4 (default 3)" in result.output
    assert "  strict_chance (bool, now true): Chance may be written only" in result.output
    assert "  turns: throw, rethrow, score, cross" in result.output
    assert "  rethrow <chosen>: Throw the chosen dice again" in result.output


def test_extends_takes_only_game_files(tmp_path):
    text = write(tmp_path, "d.yaml", "extends: /etc/passwd\nname: D\n")
    assert errors_of(text) == [f"{text}:1:10: error: extends: /etc/passwd is not a game file (.yaml or .yml)"]
    (tmp_path / "dir.yaml").mkdir()
    folder = write(tmp_path, "e.yaml", "extends: dir.yaml\nname: E\n")
    assert errors_of(folder) == [f"{folder}:1:10: error: extends: dir.yaml is not a regular file"]
