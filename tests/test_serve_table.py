"""A table on the server, without the network: moves stamped on the server's clock, races won by
the earlier stamp and the loser told who was first, turns, hands and ready-before-Go."""
from __future__ import annotations

import pytest

from interpreter.bots.agents import make_bot
from interpreter.errors import OptionError
from interpreter.play.serve.registry import Tables

from tests.helpers import GAMES, everyone_ready


def nerts_table(**kw):
    return everyone_ready(Tables().create(str(GAMES / "nerts.yaml"), players=2, seed=1, fake_clock=0.5, **kw))


def play_by_bots(table, steps):
    """Both people play the priority bot's choice in turn, each in the position as it is."""
    loaded, session = table.loaded, table.session
    bots = [make_bot("priority", loaded.game, seat, 1) for seat in range(2)]
    for step in range(steps):
        seat = step % 2
        move = bots[seat].choose(session.state, loaded.legal_moves(session.state, seat))
        assert table.move(seat, move.text, table.version) == (True, None)


def test_a_race_goes_to_the_earlier_stamp_and_the_loser_is_told_who_was_first():
    table = nerts_table()
    play_by_bots(table, 210)
    seen = table.version           # both people see this position and want the same pile
    table.state_message(0, None)    # sent to them
    assert table.move(1, "build 6S foundations#6", seen) == (True, None)
    changed, reply = table.move(0, "build 6S foundations#6", seen)
    assert not changed
    assert reply == {"type": "refused", "move": "build 6S foundations#6",
                     "reason": "too slow: P2 played 'build 6♠ on foundation 6' 0.5 s earlier"}
    assert table.session.log_lines(0)[-1] == "P2: build 6♠ on foundation 6"


def test_a_refusal_names_the_action_that_made_the_move_impossible_not_the_newest():
    table = nerts_table()
    play_by_bots(table, 210)
    seen = table.version
    table.state_message(0, None)
    assert table.move(1, "build 6S foundations#6", seen) == (True, None)
    later = next(m for m in table.session.legal(1) if m.name == "turn")
    assert table.move(1, later.text, table.version) == (True, None)      # P2 moves on: turns its stock
    changed, reply = table.move(0, "build 6S foundations#6", seen)
    assert reply["reason"] == "too slow: P2 played 'build 6♠ on foundation 6' 1.0 s earlier"
    assert table.session.log_lines(0)[-1] == "P2: turn stock cards onto the waste"


def test_a_move_that_was_never_possible_is_refused_with_the_engines_reason():
    table = nerts_table()
    version = table.version
    assert table.move(0, "build 9S foundations#1", version) == (False, {
        "type": "refused", "move": "build 9S foundations#1",
        "reason": "'build 9S foundations#1' is not a legal move now (legal now: start a foundation with …, turn stock cards onto the waste)"})
    assert table.version == version
    assert table.move(None, "turn", version) == (False, {
        "type": "refused", "move": "turn", "reason": "a spectator does not move"})


def test_out_of_turn_moves_are_refused_and_change_nothing():
    table = Tables().create(str(GAMES / "dice_poker.yaml"), players=2, seed=3, fake_clock=0.5)
    assert table.session.state.current == 1
    assert table.move(0, "throw", 0) == (False, {"type": "refused", "move": "throw", "reason": "it is P2's turn"})
    assert table.version == 0 and table.session.log == []
    assert table.move(1, "throw", 0) == (True, None)
    assert table.session.log_lines(0) == ["P2: throw all five dice"]


def test_bots_answer_at_once_in_turns():
    table = Tables().create(str(GAMES / "dice_poker.yaml"), players=2, bots={0}, seed=3, fake_clock=0.5)
    for _ in range(10):                           # P2's turn: a few throws, then a box is scored
        if any(line.startswith("P1: ") for line in table.session.log_lines(1)):
            break
        assert table.move(1, table.session.legal(1)[0].text, table.version) == (True, None)
    assert table.session.log_lines(1)[-1].startswith("P1: ")   # the bot at P1 played its whole turn...
    assert table.session.state.current == 1                    # ...and it is P2's turn again


def test_a_hand_ends_and_the_next_starts_when_everyone_is_ready():
    table = nerts_table()
    session = table.session
    bots = [make_bot("priority", table.loaded.game, seat, 1) for seat in range(2)]
    for step in range(5000):
        if session.paused:
            break
        seat = step % 2
        table.move(seat, bots[seat].choose(session.state, table.loaded.legal_moves(session.state, seat)).text,
                   table.version)
    assert session.paused and session.state.round == 2
    message = table.state_message(0, None)
    assert message["paused"] and message["view"]["moves"] == [] and message["hand_end"] == session.hand_end_view(0)
    assert message["hand_end"]["round"] == 1 and message["hand_end"]["over"]
    assert table.move(0, "turn", table.version)[1]["reason"] == "the hand is over: press Ready for the next one"
    assert table.set_ready(0) and message["ready"] == [] and table.state_message(0, None)["ready"] == [0]
    assert not table.set_ready(0)                  # said once is enough
    assert table.set_ready(1) and not session.paused
    assert table.state_message(1, None)["view"]["moves"]


def test_seats_are_checked():
    with pytest.raises(OptionError, match="there is no seat 3 at a table of 2"):
        nerts_table(bots={2})
    with pytest.raises(OptionError, match="Nerts is for 2 to 8 players, not 9"):
        Tables().create(str(GAMES / "nerts.yaml"), players=9)
