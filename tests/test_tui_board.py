"""Picking on the board of the full-screen table (keys and the mouse), and undo in turn play
against bots: what it takes back, when it refuses, and the record it leaves."""
from __future__ import annotations

import asyncio
import contextlib
import functools

from interpreter.api import load_game
from interpreter.play.record_writer import RecordWriter
from interpreter.play.records import Record, read_record, replay
from interpreter.play.session import Session
from interpreter.play.tui.board import CURSOR
from interpreter.play.tui.builder import MoveBuilder, Option
from tests.helpers import load as load_fresh
from tests.test_tui import LAID_OUT, _app, _QuickKeys

load = functools.cache(load_fresh)      # each game compiled once for these tests


def run(coroutine):
    return asyncio.run(coroutine)


@contextlib.asynccontextmanager
async def _table(app, monkeypatch):
    """The app running at 80x24, drawn, its key handling quick until the test ends."""
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        _QuickKeys(app, monkeypatch).__enter__()
        yield pilot


def _nerts():
    return _app(load("nerts"), players=3, seed=16)     # P1 may play its Nerts top 3♥ on 4♠


def test_a_card_picked_with_keys_narrows_the_moves_marks_its_targets_and_a_target_plays_it(monkeypatch):
    async def keys():
        app, clock = _nerts()
        async with _table(app, monkeypatch) as pilot:
            await pilot.press("tab")               # the board: the cursor on a card to move
            assert app.cursor == ("card", "nerts", 0, 12)
            drawn = app.board.table(app.session.view(0), cursor=app.cursor)
            assert [drawn.plain[span.start:span.end] for span in drawn.spans if span.style == CURSOR] == ["3♥"]
            await pilot.press("enter")
            c = app.controller
            assert c.builder.path() == "play 3♥ on …" and [o.label for o in c.options()] == ["your work pile 3"]
            assert c.board_marks() == (frozenset({("pile", "work", 2)}), frozenset({("card", "nerts", 0, 12)}))
            assert "│P1, your move: play 3♥ on …\n" in app.screen_text()
            await pilot.press("down", "right")     # 5♥ (work #1), then A♦ (work #2): not a target
            await pilot.press("enter")
            assert c.notice == "'play 3♥ on …' cannot use A♦" and c.builder.path() == "play 3♥ on …"
            await pilot.press("right", "enter")    # 4♠ on work #3: its pile is the target
            assert app.session.log_lines(0) == ["P1: play 3♥ on your work pile 3"]
            assert c.notice == "you: play 3♥ on your work pile 3"
    run(keys())


def test_a_click_picks_too_and_a_card_no_move_uses_is_refused_with_nothing_lost(monkeypatch):
    async def clicks():
        app, clock = _nerts()
        async with _table(app, monkeypatch) as pilot:
            c = app.controller
            await pilot.click("#board", offset=(12, 5))     # 3♥, the top of P1's Nerts pile
            await pilot.pause()
            assert c.builder.path() == "play 3♥ on …" and app.focused is app.query_one("#board")
            await pilot.click("#board", offset=(40, 9))     # K♥ on P2's work pile: no move of 3♥
            await pilot.pause()
            assert c.notice == "'play 3♥ on …' cannot use K♥" and c.builder.path() == "play 3♥ on …"
            await pilot.press("escape")                    # back: nothing chosen
            assert c.builder.path() == ""
            await pilot.click("#board", offset=(40, 9))
            await pilot.pause()
            assert c.notice == "no legal move uses K♥ now" and c.builder.path() == ""
            assert "│no legal move uses K♥ now\n" in app.screen_text()
            await pilot.click("#board", offset=(11, 6))     # 5♥, which no move takes: its pile
            await pilot.pause()
            assert c.builder.path() == "move … and the cards on it onto …" and [o.label for o in c.options()] == ["4♠"]
            assert c.board_marks()[0] == frozenset({("card", "work", 2, 0)})
    run(clicks())


def test_dice_picked_on_the_board_are_toggled_for_the_move_that_throws_them_again(monkeypatch):
    async def dice():
        app, clock = _app(load("dice_poker"), players=2, seed=3)
        async with _table(app, monkeypatch) as pilot:
            await pilot.press("1")                 # throw: 1 4 5 5 5
            assert app.session.view(0)["dice"] == [1, 4, 5, 5, 5]
            await pilot.press("tab", "enter")      # the first die: 'rethrow' begun, the 1 in it
            c = app.controller
            assert c.builder.path() == "throw {1} again"
            await pilot.press("right", "right", "enter", "right", "enter")
            assert c.builder.path() == "throw {1 5 5} again"
            assert c.board_marks()[1] == frozenset({("die", 0), ("die", 2), ("die", 3)})
            await pilot.press("enter")             # the same die again: out
            assert c.builder.path() == "throw {1 5} again"
            await pilot.press("left", "enter")     # the first 5 again: out too
            assert c.builder.path() == "throw {1} again"
            await pilot.press("right", "enter")
            await pilot.press("tab", "end", "enter")   # 'done' in the list
            assert app.session.log_lines(0)[-1] == "P1: throw 1 5 again"
    run(dice())


def test_the_builder_takes_a_value_as_the_parameter_or_narrows_and_goes_back_choice_by_choice():
    loaded = load("nerts")
    state = loaded.new_state(3, 16)
    moves = loaded.legal_moves(state, 0)
    builder = MoveBuilder(moves, {n: [p.kind for p in m.params] for n, m in loaded.game.moves.items()})
    four = next(m.args[0] for m in moves if m.name == "shift")
    assert builder.pick([four], where="4♠") is None and builder.path() == "shift 4♠"
    assert [o.label for o in builder.options()] == ["work[P1]#1"]
    assert builder.pick([four], where="4♠") is None and builder.path() == ""   # picked again: put back
    builder.choose("start")
    assert builder.path() == "start A♦" and builder.pick([four]) == "'start A♦' cannot use 4♠"
    assert builder.back() and builder.path() == "" and not builder.back()


def _schmier(tmp_path=None, humans=frozenset({0})):
    loaded = load("schmier")
    writer = None
    if tmp_path is not None:
        record = Record(loaded.name, loaded.digest(), "schmier.yaml", loaded.options, 5, 6)
        writer = RecordWriter.open(tmp_path / "game.jsonl", record)
    return loaded, Session(loaded, 6, 5, "random", set(humans), record=writer)


def test_undo_takes_back_the_persons_move_and_the_bots_answers_and_the_record_keeps_what_stands(tmp_path):
    loaded, session = _schmier(tmp_path)
    session.advance()
    before = session.state.to_json()
    assert session.log_lines(0) == ["P6: bid 3"]
    session.submit(0, session.resolve(0, "pass"), 0)
    session.advance()
    assert session.log_lines(0) == ["P6: bid 3", "P1: pass", "P2: bid 6", "P2: name diamonds trump",
                                    "P2 names diamonds trump.", "P6: keep all six cards"]
    assert session.undo() == (True, "took back pass and the 3 moves after it")
    assert session.state.to_json() == before and session.log_lines(0) == ["P6: bid 3"]
    assert session.undo() == (False, "nothing to undo")
    session.submit(0, session.resolve(0, "pass"), 0)         # the same move meets the same answers
    session.advance()
    assert session.log_lines(0)[-3:] == ["P2: name diamonds trump", "P2 names diamonds trump.", "P6: keep all six cards"]
    assert session.undo()[0]
    session.submit(0, session.resolve(0, "bid 4"), 0)
    session.advance()
    session.close_record()
    record = read_record(tmp_path / "game.jsonl")
    assert [m["move"] for m in record.moves][:2] == ["bid 3", "bid 4"]
    assert replay(loaded.game, record, loaded.digest()).to_json() == session.state.to_json()


def test_undo_refuses_after_a_card_came_into_sight_or_the_dice_were_thrown():
    session = Session(load("last_card"), 3, 5, "random", {0})
    session.submit(0, session.resolve(0, "play 5S"), 0)
    session.advance()                              # P2 plays the K♠, face up
    assert session.undo() == (False, "cannot undo: a card came into sight since (K♠)")
    dice = Session(load("dice_poker"), 2, 5, "random", {0})
    dice.advance()
    dice.submit(0, dice.resolve(0, "throw"), 0)
    assert dice.undo() == (False, "cannot undo: the dice were thrown since")


def test_undo_is_not_for_free_play_several_people_or_a_game_that_forbids_it():
    nerts = Session(load("nerts"), 3, 1, "random", {0})
    assert nerts.undo() == (False, "cannot undo in free play: everyone moves at once")
    loaded, session = _schmier(humans={0, 1})
    assert session.undo() == (False, "cannot undo with several people at the table")
    strict = load_game("laid.yaml", text=LAID_OUT + "play: {undo: false}\n")
    assert Session(strict, 2, 1, "random", {0}).undo() == (False, "cannot undo: Laid out does not allow it")


def test_the_u_key_takes_back_the_last_move_on_the_table(monkeypatch):
    async def undo():
        app, clock = _app(load("schmier"), seed=5)
        async with _table(app, monkeypatch) as pilot:
            app.tick()
            await pilot.press("2")                 # pass
            for _ in range(6):
                app.tick()                         # the bots, one move a tick
            await pilot.press("u")
            await pilot.pause()
            assert app.controller.notice.startswith("took back pass and the ")
            assert app.session.log_lines(0) == ["P6: bid 3"]
            assert "│took back pass and the " in app.screen_text()
    run(undo())


def test_the_log_holds_the_games_lines_of_the_real_game_not_of_the_positions_a_bot_imagines():
    session = Session(load("schmier"), 6, 5, "greedy", {0})     # greedy bots play moves on guesses
    session.advance()
    session.submit(0, session.resolve(0, "pass"), 0)
    session.advance()
    assert session.log_lines(0) == ["P6: pass", "P1: pass", "P2: pass", "P3: pass", "P4: pass", "P5: pass",
                                    "Everyone passed: P5 deals again.", "P6: pass"]


def test_the_line_mode_takes_a_move_back_too():
    from click.testing import CliRunner

    from cli import main
    typed = "pass\nundo\nundo\nquit\n"
    result = CliRunner().invoke(main, ["play", "schmier", "--seed", "5", "--bot", "random"], input=typed)
    out = result.output
    assert "P1> P1: pass\nP2: bid 6\nP2: name diamonds trump\nP2 names diamonds trump.\nP6: keep all six cards\n" in out
    assert "P1> took back pass and the 3 moves after it\n== Schmier: round 1, Bidding, P1 to play ==\n" in out
    assert "P1> nothing to undo\nP1> \ngame stopped before its end." in out


def test_a_long_value_of_a_seat_is_a_line_of_its_own_and_the_sheet_keeps_its_width():
    """Crossing rows of the dice sheet grows a list per seat: in the table, one long cell would
    widen every column (the sheet wrapping at 80 columns); it is drawn below the table instead."""
    from interpreter.play.render import render_view
    from interpreter.play.tui.board import Board
    loaded = load("dice_poker")
    state = loaded.new_state(2, 3)
    before = Board(0, color=False).values(loaded.view(state, 0)).plain.splitlines()
    state.seat_vars[0]["crossed"] = ["two_pairs", "small_straight"]
    after = Board(0, color=False).values(loaded.view(state, 0)).plain.splitlines()
    table = [line for line in before if not line.startswith("crossed")]
    assert after[:len(table)] == table and after[len(table):] == ["crossed  P1 two_pairs small_straight  P2 -"]
    assert "crossed  P1 two_pairs small_straight  P2 -" in render_view(loaded.view(state, 0)).splitlines()
    assert max(len(line) for line in render_view(loaded.view(state, 0)).splitlines()[2:20]) <= 30


def test_a_scoring_choice_shows_what_it_would_score_now_worked_out_on_a_copy(monkeypatch):
    async def previews():
        app, clock = _app(load("dice_poker"), players=2, seed=3)
        async with _table(app, monkeypatch) as pilot:
            await pilot.press("1")                 # throw: 1 4 5 5 5
            state = app.session.state.to_json()
            await pilot.press("2")                 # score …: each row with its points now
            labels = [o.label for o in app.controller.options()]
            assert labels == ["ones  -2", "twos  -6", "threes  -9", "fours  -8", "fives  +0", "sixes  -18"]
            assert "│1. ones  -2\n" in app.screen_text()
            assert app.session.state.to_json() == state and app.session.log_lines(0)[-1] == "P1: throw all five dice"
            await pilot.press("escape", "1")       # throw again: a throw is chance, nothing to preview
            assert all("  " not in o.label for o in app.controller.options())
    run(previews())


def test_choices_that_would_all_score_nothing_now_show_no_preview(monkeypatch):
    async def bids():
        app, clock = _app(load("schmier"), seed=5)
        async with _table(app, monkeypatch) as pilot:
            await pilot.press("1")                 # bid … (P6 bid 3): no bid scores now
            assert [o.label for o in app.controller.options()] == ["4", "5", "6"]
    run(bids())


def test_in_free_play_the_choices_keep_their_numbers_while_the_bots_move(monkeypatch):
    async def keys():
        app, clock = _nerts()
        async with _table(app, monkeypatch) as pilot:
            c = app.controller
            first = [o.label for o in c.options()]
            assert first == ["start a foundation with …", "play … on …", "move … and the cards on it onto …",
                             "turn stock cards onto the waste"]
            for _ in range(8):                     # a bot's move makes 'build' possible for P1 too
                clock.time += 1.0
                app.tick()
            labels = [o.label for o in c.options()]
            assert labels[:4] == first and labels[4] == "build … on …"     # new: after, not among them
            assert [m.name for m in app.session.legal(0)].index("build") < 4    # where a fresh list has it
            path, kept, gone = c.kept_options      # a choice listed before, no longer possible:
            c.kept_options = (path, kept + [Option("slide … under …", "slide")], gone)
            assert [(o.label, o.enabled) for o in c.options()][5] == ("slide … under …", False)
            await pilot.press("6")                 # kept in its place a moment, greyed out
            assert c.notice == "'slide … under …' is no longer possible" and c.builder.name is None
            clock.time += 2.0
            assert len(c.options()) == 5           # then the list closes up
    run(keys())


def test_without_colour_the_places_chosen_are_marked_in_the_text_too():
    from interpreter.play.tui.board import Board
    loaded = load("dice_poker")
    session = Session(loaded, 2, 3, "random", {0})
    session.advance()
    session.submit(0, session.resolve(0, "throw"), 0)
    view = session.view(0)
    chosen = frozenset({("die", 0), ("die", 2)})
    plain = Board(0, color=False).table(view, chosen=chosen).plain
    assert plain.startswith("dice [1]✓ [4] [5]✓ [5] [5]\n")
    assert Board(0, color=True).table(view, chosen=chosen).plain.startswith("dice [1] [4] [5] [5] [5]\n")


def test_a_click_on_the_stock_turns_it(monkeypatch):
    async def turn():
        app, clock = _nerts()
        async with _table(app, monkeypatch) as pilot:
            assert app.screen_text().splitlines()[8].startswith(" stock 35▒")
            await pilot.click("#board", offset=(7, 7))      # 35▒: P1's stock, which no move takes
            await pilot.pause()
            assert app.session.log_lines(0)[-1] == "P1: turn stock cards onto the waste"
            assert app.controller.notice == "you: turn stock cards onto the waste"
            await pilot.click("#board", offset=(7, 8))      # the card turned onto the waste: not a turn again
            await pilot.pause()
            assert app.session.log_lines(0)[-1] == "P1: turn stock cards onto the waste"
    run(turn())


HELD = """
name: Cards held in variables
players: {min: 2, max: 2}
decks:
  main: {standard: true, ranks: [9, 10, J, Q, K, A], zone: stock}
zones:
  stock: {face: down, visible_to: none}
variables:
  game: {turned: none}
  seat: {kept: []}
setup:
  - set: {turned: 'first(stock.cards)'}
  - set: {kept: '[c for c in stock.cards if c.rank == 9]'}
    of: players[0]
flow:
  rounds: 1
  phases:
    - name: turns
      turns: {from: 0}
      moves: [stop]
moves:
  stop:
    do: [end_game]
scoring:
  score: len(kept)
"""


def test_cards_held_in_variables_are_drawn_as_cards_on_the_board():
    from interpreter.api import load_game
    from interpreter.play.tui.board import Board
    loaded = load_game("held.yaml", text=HELD)
    state = loaded.new_state(2, 0)
    lines = Board(0, color=False).values(loaded.view(state, 0)).plain.splitlines()
    assert lines[0] == "turned A♣" and "kept  P1 9♣ 9♦ 9♥ 9♠  P2 -" in lines      # not "card 0"
