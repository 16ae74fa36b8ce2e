"""The full-screen table, driven headless by Textual's pilot: every bundled game played by keys to
the end of a round, the default layout of each at 80x24 and 120x40 against stored screens, and
free play on a clock set by the test (races, stale choices, the end of a hand, ready before Go).

Set UPDATE_SCREENS=1 to write the stored screens again (then read the difference)."""
from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
import textual.app

from interpreter.api import load_game
from interpreter.play.session import Session
from interpreter.play.tui.app import TableApp
from interpreter.play.tui.clock import SetClock
from interpreter.play.tui.controller import BETWEEN
from tests.helpers import game_files
from tests.test_line_mode import GRAB_TWO_HANDS

SCREENS = Path(__file__).parent / "screens"
SIZES = [(80, 24), (120, 40)]


# A game whose seed 3 leaves P1 nothing to do (in Euchre the bots play the whole deal: P1's
# partner goes alone) is shown and played from another seed.
SEEDS = {"euchre": 1}


def _app(loaded, players=None, seed=3, humans=frozenset({0}), bot="random", speed=2.0):
    session = Session(loaded, players or loaded.game.default_players, seed, bot, set(humans), speed)
    clock = SetClock()
    return TableApp(session, clock=clock, bot_delay=0, auto=False), clock


def run(coroutine):
    return asyncio.run(coroutine)


def _toggling(options) -> bool:
    return isinstance(options[0].key, tuple) and options[0].key[0] == "toggle"


async def _press_through(app, pilot, clock, rounds=1, limit=400, step=1.0):
    """Choose the first choice by its key (toggling the first member, then 'done') until
    ``rounds`` hands are over; every press takes ``step`` seconds on the clock, and the bots act
    up to it (their timer's work, done at once). The number of presses."""
    state = app.session.state
    for presses in range(limit):
        if state.over or state.round > rounds:
            return presses
        options = app.controller.options()
        clock.time += step
        if not options:
            app.tick()
        elif _toggling(options):
            await pilot.press("1", "end", "enter")
        else:
            await pilot.press("1")
    raise AssertionError(f"no end of round {rounds} after {limit} presses")


class _QuickKeys:
    """Keys pressed through the pilot (Textual's driver, bindings and focus, as a person's) without
    its two waits for an idle machine after each key (20 ms or more each, longer on a busy
    machine): instead, the wait lasts until no part of the app has a message left to handle."""

    def __init__(self, app, monkeypatch):
        self.app, self.monkeypatch = app, monkeypatch

    def __enter__(self):
        app = self.app

        async def settled(*args, **kwargs):
            for _ in range(1000):
                await asyncio.sleep(0)
                nodes = [app, *app.screen.walk_children(with_self=True)]
                if all(node._message_queue.empty() for node in nodes):
                    return
        self.monkeypatch.setattr(textual.app, "wait_for_idle", settled)

    def __exit__(self, *exc):
        self.monkeypatch.undo()


def _stored(name: str, text: str) -> str:
    path = SCREENS / name
    if os.environ.get("UPDATE_SCREENS"):
        path.write_text(text + "\n", encoding="utf-8")
    return path.read_text(encoding="utf-8").rstrip("\n")


def identifiers_with_words(loaded) -> set[str]:
    """The game file's identifiers that must never be drawn: those it gives words (moves, zones,
    phases, variables) unless the words are the identifier itself, and those it does not show,
    but for the marks beside the seats (a variable 'dealer' hidden, the mark 'dealer' drawn)."""
    data = loaded.spec.data
    view = data.get("view") or {}
    labelled = [(name, spec.get("label")) for name, spec in (data.get("moves") or {}).items()]
    labelled += [(name, spec.get("label")) for name, spec in (data.get("zones") or {}).items()]
    labelled += [(phase["name"], phase.get("label")) for phase in data["flow"]["phases"]]
    labelled += list((view.get("labels") or {}).items())
    # A name one of whose words is the name itself (a move 'play' reading "play K♥") may be drawn.
    drawn = {name for name, label in labelled if not label or re.search(rf"\b{name}", label, re.IGNORECASE)
             or re.fullmatch(rf"{re.escape(label)}s?", name, re.IGNORECASE)}     # foundation(s)
    hidden = {name for name, _ in labelled if name not in drawn} | set(view.get("not_shown") or ())
    return hidden - set(view.get("seat_marks") or ())       # a mark beside a seat is drawn by its name


def assert_no_identifiers(loaded, screens: list[str]) -> None:
    for name in sorted(identifiers_with_words(loaded)):
        for screen in screens:
            assert not re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", screen), (name, screen)


def _fits(text: str, size: tuple[int, int]) -> None:
    lines = text.splitlines()
    assert len(lines) == size[1] and max(len(line) for line in lines) <= size[0]


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_every_game_laid_out_at_80x24_and_120x40_then_played_by_keys_to_the_end_of_a_round(path, monkeypatch):
    loaded = load_game(path)
    free = any(phase.turns is None for phase in loaded.game.phases)

    async def play():
        # In free play the bots are quick, so that they end the hand in a few presses.
        app, clock = _app(loaded, seed=SEEDS.get(path.stem, 3), speed=0.5 if free else 2.0)
        async with app.run_test(size=SIZES[1]) as pilot:
            await pilot.pause()
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                text = app.screen_text()
                _fits(text, size)
                assert text == _stored(f"{path.stem}-{size[0]}x{size[1]}.txt", text)
            await pilot.resize_terminal(*SIZES[0])      # smaller: quicker to draw
            with _QuickKeys(app, monkeypatch):
                presses = await _press_through(app, pilot, clock, step=4.0 if free else 1.0)
            await pilot.pause()
            screen = app.screen_text()
            _fits(screen, SIZES[0])
            assert screen == _stored(f"{path.stem}-hand-end-{SIZES[0][0]}x{SIZES[0][1]}.txt", screen)
            assert_no_identifiers(loaded, [screen] + [(SCREENS / f"{path.stem}-{w}x{h}.txt").read_text(encoding="utf-8") for w, h in SIZES])
            state = app.session.state
            status = screen.splitlines()[0]
            assert presses > 1 and "you are P1" in status and " · scores " in status
            if state.over:
                assert "game over" in status and "scores P1" in status
            elif app.controller.mode == BETWEEN:
                assert "hand over" in status and "│Hand over. Enter when ready.\n" in screen
                await pilot.press("enter")
                await pilot.pause()
                assert app.controller.mode == "play" and "│Go!" in app.screen_text()
            else:
                raise AssertionError(f"round {state.round} goes on after its end")
    run(play())


def _grab(speed=1.0, seed=2):
    return _app(load_game("grab.yaml", text=GRAB_TWO_HANDS), players=2, seed=seed, bot="priority", speed=speed)


def test_a_lost_race_names_who_took_the_move_and_clears_the_choice():
    async def race():
        app, clock = _grab()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert [o.label for o in app.controller.options()] == ["take (6)", "look"]
            await pilot.press("1")                   # take: then the coin
            await pilot.pause()
            # Each coin taken scores one: the choices show it.
            assert [o.label for o in app.controller.options()] == [f"c{n}  +1" for n in range(1, 7)]
            clock.time = 1.5                         # P2's bot took c5 at 0.9 s
            await pilot.press("5")
            await pilot.pause()
            screen = app.screen_text()
            assert app.controller.notice == "too slow: P2 played 'take c5' 0.6 s earlier"
            assert "│too slow: P2 played 'take c5'\n" in screen and "│0.6 s earlier\n" in screen
            assert app.controller.builder.path() == ""          # the choice is cleared
            assert [o.label for o in app.controller.options()] == ["take (5)", "look"]
            assert "P2: take c5" in screen
    run(race())


def test_a_choice_half_made_is_kept_while_it_stays_possible_and_dropped_when_not():
    async def stale():
        app, clock = _grab()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("1")                   # take ...
            await pilot.pause()
            clock.time = 1.0
            app.tick()                               # P2 takes c5: 'take' is still possible
            await pilot.pause()
            assert app.controller.builder.path() == "take"
            # c5 keeps its place (number 5) greyed out a moment: no other coin took its number.
            shown = [(o.label, o.enabled) for o in app.controller.options()]
            assert shown == [(f"c{n}  +1", True) for n in range(1, 5)] + [("c5", False), ("c6  +1", True)]
            clock.time = 3.0
            assert [o.label for o in app.controller.options()] == ["c1  +1", "c2  +1", "c3  +1", "c4  +1", "c6  +1"]
            assert "P1, your move: take" in app.screen_text()
    run(stale())


def test_no_move_crosses_a_hand_and_the_bots_wait_for_go():
    async def boundary():
        app, clock = _grab(speed=0.5)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("1")                   # take ... (the coin is chosen too late)
            await pilot.pause()
            clock.time = 10.0
            app.tick()                               # the bot empties the pot: the hand is over
            await pilot.pause()
            assert app.controller.mode == BETWEEN
            screen = app.screen_text()
            assert "│Hand over. Enter when ready.\n" in screen
            assert "hand over" in screen.splitlines()[0]
            assert [o.label for o in app.controller.options()] == ["ready: Go!"]
            moves = app.session.state.moves
            clock.time = 20.0
            app.tick()                               # nobody moves before Go
            assert app.session.state.moves == moves and app.session.state.round == 2
            await pilot.press("enter")
            await pilot.pause()
            assert app.controller.mode != BETWEEN
            assert "Go!" in app.screen_text()
            clock.time = 20.4
            app.tick()                               # the bots start afresh from Go (20 s)
            assert app.session.state.moves == moves
            clock.time = 21.0
            app.tick()
            assert app.session.state.moves > moves
    run(boundary())


def test_a_move_submitted_after_the_hand_ended_is_refused():
    loaded = load_game("grab.yaml", text=GRAB_TWO_HANDS)
    session = Session(loaded, 2, 2, "priority", {0}, 0.5)
    move = session.resolve(0, "look")          # possible to the last moment of the hand
    submitted = session.submit(0, move, 10.0)
    assert submitted.refusal == "the hand ended before your move; it was not played"
    assert session.paused and session.state.round == 2


def test_typed_moves_complete_accept_cards_as_shown_and_are_remembered():
    async def typed():
        loaded = load_game(game_files()[[p.stem for p in game_files()].index("last_card")])
        app, clock = _app(loaded, players=2, seed=4)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.controller.seen_moves == ["play 5D", "play 8S"]
            entry = app.query_one("#entry")
            await pilot.press("slash", "p", "l")
            await pilot.pause()
            await pilot.press("right")               # the suggestion completes the move
            assert entry.value == "play 5♦"
            entry.value = "play 5♦"                  # as the board shows it
            await pilot.press("enter")
            await pilot.pause()
            assert "P1: play 5♦" in app.session.log_lines(0)
            assert entry.history == ["play 5♦"] and entry.value == ""
            assert app.focused is app.query_one("#choices")     # the keys work again
            await pilot.press("slash", "up")
            assert entry.value == "play 5♦"
            await pilot.press("enter")               # not legal any more: a reason, and a new try
            await pilot.pause()
            assert app.controller.notice.startswith("'play 5♦' is not a legal move now")
    run(typed())


def test_help_shows_the_moves_the_rules_in_brief_and_the_legend_and_scrolls_at_80x24():
    async def helped():
        loaded = load_game(game_files()[[p.stem for p in game_files()].index("dice_poker")])
        app, clock = _app(loaded, players=2, seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            screen = app.screen_text()
            assert "│ throw all five dice: Throw all five dice (the first throw of a       │\n" in screen
            assert "│ The rules in brief:" in screen and "Esc closes" not in screen
            await pilot.press("end")                 # the help scrolls to its end: the keys
            await pilot.pause()
            assert "│ (arrows scroll · Esc closes)" in app.screen_text()
            await pilot.press("escape")              # Esc (or q, ?, Enter) puts the table back
            await pilot.pause()
            assert "The rules in brief:" not in app.screen_text() and "│P1, choose a move" in app.screen_text()
    run(helped())


def test_the_playing_guide_shows_every_games_stored_screen():
    guide = (Path(__file__).resolve().parents[1] / "docs" / "playing.md").read_text(encoding="utf-8")
    for path in game_files():
        screen = (SCREENS / f"{path.stem}-80x24.txt").read_text(encoding="utf-8").rstrip("\n")
        assert f"```\n{screen}\n```" in guide, f"docs/playing.md lacks the screen of {path.stem}"


def test_colour_is_off_with_no_color_or_the_flag(monkeypatch):
    from interpreter.play.front import wants_color
    from interpreter.play.tui.board import Board
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_color(False) and not wants_color(True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_color(False)
    loaded = load_game(game_files()[[p.stem for p in game_files()].index("last_card")])
    view = loaded.view(loaded.new_state(2, 4), 0)
    red = [span for span in Board(0, color=True).table(view).spans if "red" in str(span.style)]
    assert red and not [span for span in Board(0, color=False).table(view).spans if "red" in str(span.style)]
    assert Board(0, color=True).table(view).plain == Board(0, color=False).table(view).plain


def test_an_error_of_the_game_ends_the_table_with_its_message_not_a_traceback():
    from interpreter.errors import LimitError

    async def failing():
        loaded = load_game(game_files()[[p.stem for p in game_files()].index("last_card")])
        app, clock = _app(loaded, players=2, seed=4)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

            def broken():
                raise LimitError("the game took more than 100000 moves")
            app.controller.tick = broken
            app.tick()
            await pilot.pause()
            return app
    app = run(failing())
    assert app.failure.render() == "error: the game took more than 100000 moves"


LAID_OUT = """
name: Laid out
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down, visible_to: none}
  pile: {}
  hand: {per: seat}
  spare: {per: seat}
layout:
  order: [hand, pile]
  hide: [spare]
  fan: [hand]
setup:
  - deal: 3
    from: stock
    to: hand
  - move: stock.top
    to: pile
flow:
  phases:
    - name: main
      turns: {from: 0}
      moves: [pass]
moves:
  pass:
    do: [end_game]
"""


def test_a_games_layout_hints_order_hide_and_fan_its_zones():
    from interpreter.play.tui.board import Board
    loaded = load_game("laid.yaml", text=LAID_OUT)
    view = loaded.view(loaded.new_state(2, 1), 0)
    assert Board(0, layout=loaded.game.layout).table(view).plain == (
        "Table\npile 7♠\nstock 45▒\nYou (P1) ◀\nhand K♠ J♠ 9♠\nP2 (across)  hand Q♠ 10♠ 8♠\n")
    assert Board(0).table(view).plain == (
        "Table\nstock 45▒\npile 7♠\nYou (P1) ◀\nhand K♠ J♠ 9♠\nspare —\nP2 (across)  hand 8♠+2\n")


def test_a_layout_hint_naming_an_unknown_zone_is_an_error():
    from interpreter.errors import RulesError
    with pytest.raises(RulesError) as caught:
        load_game("laid.yaml", text=LAID_OUT.replace("hide: [spare]", "hide: [spere]"))
    assert caught.value.render().splitlines()[0] == "laid.yaml:13:10: error: unknown zone 'spere'"
    assert "did you mean 'spare'?" in caught.value.render()


def test_a_letter_typed_at_the_table_begins_a_typed_move():
    """'play 5♦' typed without '/' goes to the entry whole: its '5' picks nothing from the list."""
    async def typed():
        loaded = load_game(game_files()[[p.stem for p in game_files()].index("last_card")])
        app, clock = _app(loaded, players=2, seed=4)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            entry = app.query_one("#entry")
            await pilot.press("p", "l", "a", "y", "space", "5", "D")
            await pilot.pause()
            assert app.focused is entry and entry.value == "play 5D"
            await pilot.press("enter")
            await pilot.pause()
            assert "P1: play 5♦" in app.session.log_lines(0)
            await pilot.press("u")                   # u stays the key of undo
            await pilot.pause()
            assert entry.value == "" and "P1: play 5♦" not in app.session.log_lines(0)
    run(typed())
