"""Records and the seed in every front end: the full-screen table keeps the record through
record_writer and shows the seed only when it is closed; a served table never writes its record
over the game file; bundled games by name everywhere."""
from __future__ import annotations

import json
import shutil

import pytest

from interpreter.errors import RecordError
from interpreter.play.serve.registry import Tables
from interpreter.play.terminal import MAX_ENTRY_CHARS, open_session
from interpreter.play.tui.app import TableApp
from interpreter.play.tui.clock import SetClock
from tests.helpers import GAMES


def _table(tmp_path, full=True):
    session = open_session("dice_poker", {}, 2, 3, "random", str(tmp_path / "game.jsonl"),
                           lambda count: {0}, full_record=full)
    return TableApp(session, clock=SetClock(), bot_delay=0, auto=False)


def test_the_table_closed_before_the_end_keeps_a_full_record_and_shows_the_seed_then(tmp_path, capsys):
    app = _table(tmp_path)
    assert app.controller.log_lines()[0] == "Dice poker: 2 players"        # no seed while it runs
    assert not (tmp_path / "game.jsonl").exists()                          # written beside, renamed at the end
    assert app._ended(None) == 0
    path = tmp_path / "game.jsonl"
    assert capsys.readouterr().out == f"game stopped before its end; the record so far is in {path}.\nseed 3\n"
    header = json.loads(path.read_text().splitlines()[0])
    assert header["full"] is True and header["seed"] == 3 and header["file"] == "dice_poker"


def test_the_table_interrupted_exits_130_and_a_players_record_has_no_seed(tmp_path, capsys):
    app = _table(tmp_path, full=False)
    assert app._ended(KeyboardInterrupt()) == 130
    assert capsys.readouterr().out.endswith("interrupted: the game is not finished; the record so far is in "
                                            f"{tmp_path / 'game.jsonl'}.\nseed 3\n")
    header = json.loads((tmp_path / "game.jsonl").read_text().splitlines()[0])
    assert header["full"] is False and "seed" not in header


def test_an_over_long_typed_entry_on_the_table_is_refused_without_being_echoed(tmp_path):
    controller = _table(tmp_path).controller
    assert controller.typed("x" * (MAX_ENTRY_CHARS + 1)) is False
    assert controller.notice == "1,001 characters are too many for a move (at most 1,000)"


def test_a_served_table_never_writes_its_record_over_the_game_file(tmp_path):
    game = tmp_path / "nerts.yaml"
    shutil.copy(GAMES / "nerts.yaml", game)
    with pytest.raises(RecordError, match="is the game file: the record would overwrite it"):
        Tables().create(str(game), players=2, seed=1, fake_clock=0.5, record_path=str(game))
    assert game.read_text() == (GAMES / "nerts.yaml").read_text()


def test_a_served_table_of_a_bundled_game_by_name_records_its_header_at_once(tmp_path):
    path = tmp_path / "table.jsonl"
    table = Tables().create("nerts", players=2, seed=1, fake_clock=0.5, record_path=str(path))
    assert table.session.record.path == str(path)
    header = json.loads(path.read_text().splitlines()[0])
    assert header["game"] == "Nerts" and header["seed"] == 1 and header["full"] is True
