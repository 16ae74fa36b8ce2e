"""Dice per seat on the full-screen table: each seat's cup drawn with the seat, your own dice with
their values and the others' as [?] until a call lifts every cup; only your own dice are places
of the board, and a move that chooses some dice chooses among them. Played by keys through
Textual's pilot, and drawn by the board from views."""
from __future__ import annotations

import asyncio

from interpreter.api import load_game
from interpreter.play.tui.board import Board
from interpreter.play.tui.builder import MoveBuilder
from interpreter.play.tui.controller import BETWEEN
from interpreter.play.tui.places import candidates, places_of
from tests.helpers import GAMES
from tests.test_tui import _app

# Two or three seats, three dice each in a cup seen by its owner; a seat throws again some of its
# own dice (a sub-collection of `dice`: the acting seat's cup), or stops.
CUPS = """\
name: Cups
players: {min: 2, max: 3}
dice: {count: 3, faces: 6, per: seat, visible_to: owner}
setup:
  - for: p in players
    do:
      - roll: p.dice
        of: p
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [again, stop]
moves:
  again:
    params:
      chosen: {subset_of: dice}
    do:
      - roll: chosen
      - end_turn
  stop:
    do:
      - end_game
scoring:
  score: sum(dice)
"""


def _board(screen: str) -> list[str]:
    """The board's side of the screen (left of the log), each line without its trailing spaces."""
    return [line.split("│")[0].rstrip() for line in screen.splitlines()[1:-1]]


def _cup(values) -> str:
    return " ".join(f"[{'?' if v is None else v}]" for v in values)


def test_liars_dice_shows_your_cup_the_others_as_backs_and_every_cup_after_a_call():
    loaded = load_game(GAMES / "liars_dice.yaml")

    async def play():
        app, clock = _app(loaded, seed=3)
        session = app.session
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert session.state.dice[0] == [1, 3, 4, 5, 5]
            assert _board(app.screen_text())[:4] == [
                " You (P1) ◀",
                " dice [1] [3] [4] [5] [5]",
                " P2 (left)  dice [?] [?] [?] [?] [?]",
                " P3 (right)  dice [?] [?] [?] [?] [?]",
            ]
            hidden = {v for cup in session.state.dice[1:] for v in cup} - set(session.state.dice[0])
            assert hidden and not any(f"[{v}]" in app.screen_text() for v in hidden)   # 2 and 6: never drawn
            await pilot.press("1", "1")              # bid 1 × 2: the move's two choices
            await pilot.pause()
            assert session.log_lines(0)[0] == "P1: bid 1 × 2"
            for _ in range(50):                      # the bots bid until P1 is to act again
                if [o for o in app.controller.options() if o.key == "call"]:
                    break
                clock.time += 1.0
                app.tick()
                await pilot.pause()
            call = [o.key for o in app.controller.options()].index("call")
            await pilot.press(str(call + 1))
            await pilot.pause()
            assert app.controller.mode == BETWEEN
            lifted = session.hand_end.dice
            assert lifted == [[1, 3, 4, 5, 5], [1, 1, 3, 6, 6], [1, 3, 4, 6, 6]]
            assert _board(app.screen_text())[:4] == [
                " You (P1)",
                " dice [1] [3] [4] [5] [5]",
                " P2 (left)  dice [1] [1] [3] [6] [6]",
                " P3 (right)  dice [1] [3] [4] [6] [6]",
            ]
            await pilot.press("enter")               # the next round: every cup thrown again, in secret
            await pilot.pause()
            board = _board(app.screen_text())
            assert board[1] == " dice " + _cup(session.state.dice[0])
            assert board[2].startswith(" P2 (left)") and board[3].startswith(" P3 (right)")   # ◀: P3 lost, opens
            assert [line.split("  ", 1)[1] for line in board[2:4]] == ["dice [?] [?] [?] [?] [?]"] * 2
    asyncio.run(play())


def test_a_spectator_sees_every_cup_as_backs_and_picks_no_die():
    loaded = load_game(GAMES / "liars_dice.yaml")
    state = loaded.new_state(3, 3)
    board = Board(None, color=False)
    assert board.table(loaded.view(state, None)).plain.splitlines() == [
        "P1 ◀  dice [?] [?] [?] [?] [?]", "P2  dice [?] [?] [?] [?] [?]", "P3  dice [?] [?] [?] [?] [?]"]
    assert not [place for place in board.spots if place[0] == "die"]


def test_only_your_own_dice_are_places_and_a_move_choosing_dice_chooses_among_them(tmp_path):
    path = tmp_path / "cups.yaml"
    path.write_text(CUPS)
    loaded = load_game(path)
    state = loaded.new_state(2, 0, rolls=[[2, 5, 5], [6, 6, 1]])
    view = loaded.view(state, 0)
    assert view["dice"] == [[2, 5, 5], [None, None, None]]
    board = Board(0, color=False)
    assert board.table(view).plain.splitlines() == ["You (P1) ◀", "dice [2] [5] [5]", "P2 (across)  dice [?] [?] [?]"]
    assert [place for place in board.spots if place[0] == "die"] == [("die", 0, 0), ("die", 1, 0), ("die", 2, 0)]
    moves = loaded.legal_moves(state, 0)
    kinds = {name: [p.kind for p in move.params] for name, move in loaded.game.moves.items()}
    builder = MoveBuilder(moves, kinds, None, 0)
    builder.choose("again")
    assert places_of(builder.current_values(), view, {}) == {("die", 0, 0), ("die", 1, 0), ("die", 2, 0)}
    assert builder.pick(candidates(("die", 2, 0), view, {}), None, ("die", 2, 0)) is None    # a five
    assert builder.path() == "again {5}"
    assert set(builder.chosen_places()) == {("die", 2, 0)}
    builder.choose("done")
    assert builder.complete().text == "again 5"
