"""The scores of the status bar: live only when the score reads nothing the viewer cannot see,
else as the last hand ended; and the game's clock, which stands still between hands."""
from __future__ import annotations

from interpreter.api import load_game
from interpreter.play.session import Session
from interpreter.play.terminal import Clock
from interpreter.play.tui.clock import RealClock, StepClock
from interpreter.play.scores import HIDDEN, OWN, PUBLIC, ScoreWatch, score_reads, scores_line
from tests.helpers import load

PEEK = """
name: Peek
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
define:
  other: 'first([p for p in players if p != me])'
  peek: 'len(other.hand.cards) + SCORE_OF_OWN'
setup:
  - shuffle: stock
  - deal: 2
    from: stock
    to: hand
flow:
  phases:
    - name: main
      turns: {from: 0}
      moves: [pass]
moves:
  pass:
    do: [end_game]
scoring:
  score: SCORE
"""


def _peek(score: str):
    return load_game("peek.yaml", text=PEEK.replace("SCORE_OF_OWN", "0").replace("score: SCORE", f"score: {score}"))


def test_what_a_score_reads_is_decided_at_load_through_the_functions_it_calls():
    assert score_reads(load("nerts").game) == (PUBLIC, frozenset())        # variables only
    assert score_reads(load("last_card").game) == (OWN, frozenset({"hand"}))   # its own hand
    assert score_reads(load("kuhn_poker").game) == (HIDDEN, frozenset({"hand"}))   # the other's card
    assert score_reads(_peek("peek").game) == (HIDDEN, frozenset({"hand"}))    # through a define
    assert score_reads(_peek("sum(c.rank for c in hand.cards)").game) == (OWN, frozenset({"hand"}))
    assert score_reads(_peek("round * 2").game) == (PUBLIC, frozenset())


def test_a_score_reading_hidden_cards_is_not_shown_live_but_as_the_last_hand_ended():
    loaded = load("last_card")
    session = Session(loaded, 3, 4, "random", {0})
    watch = ScoreWatch(loaded)
    view = session.view(0)
    live = loaded.scores(session.state)
    # P1 sees its own hand: its score is live; the others' read cards P1 cannot see.
    assert watch.shown(view, session.state, None) == [str(live[0]), "?", "?"]
    ended = session.state.clone()
    ended.zones["hand"][1] = []          # as the last hand ended, P2 held nothing
    assert loaded.scores(ended)[1] == 0 and live[1] > 0
    assert watch.shown(view, session.state, ended) == [str(live[0]), "0", str(live[2])]
    assert scores_line(view, ["26", "?", "?"]) == "scores P1 26 P2 ? P3 ?"
    # A spectator's view shows no hand: nobody's score is live.
    assert watch.shown(session.view(None), session.state, None) == ["?", "?", "?"]


def test_a_score_read_through_another_seat_is_never_live_and_team_scores_show_once():
    loaded = _peek("peek")
    session = Session(loaded, 2, 1, "random", {0})
    assert ScoreWatch(loaded).shown(session.view(0), session.state, None) == ["?", "?"]
    assert scores_line({"teams": [0, 1, 0, 1]}, ["3", "5", "3", "5"]) == "scores T1 3 T2 5"
    assert scores_line({"teams": [0, 1, 0, 1]}, ["3", "5", "?", "5"]) == "scores P1 3 P2 5 P3 ? P4 5"


def test_the_clocks_stand_still_between_hands():
    now = [100.0]
    clock = RealClock(monotonic=lambda: now[0])
    now[0] = 103.0
    clock.pause()
    now[0] = 160.0                       # a minute reading the hand's scores
    assert clock.now() == 3.0
    clock.resume()
    now[0] = 161.0
    assert clock.now() == 4.0
    step = StepClock(1.5)
    step.acted()
    step.pause()
    step.acted()
    step.resume()
    step.acted()
    assert step.now() == 3.0
    line = Clock(monotonic=lambda: now[0])
    line.pause()
    now[0] = 200.0
    line.resume()
    now[0] = 202.5
    assert line.line_typed() == 2.5
