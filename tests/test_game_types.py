"""Seats, cards and zones of several games loaded in one process keep their own members."""
from __future__ import annotations

from interpreter.api import load_game

GAME = """\
name: NAME
players: {min: 2, max: 2}
variables:
  game: {champion: none}
  seat: {VAR: 7}
flow:
  rounds: 1
  phases:
    - name: main
      turns: {from: 0}
      moves: [crown]
moves:
  crown:
    do:
      - set: {champion: me}
      - end_game
scoring:
  score: 'if champion == none then 0 else champion.VAR'
"""


def test_a_value_known_only_at_run_time_reads_the_members_of_its_own_game():
    first = load_game("a.yaml", text=GAME.replace("NAME", "A").replace("VAR", "alpha"))
    second = load_game("b.yaml", text=GAME.replace("NAME", "B").replace("VAR", "beta"))
    for game in (first, second):
        state = game.new_state()
        game.apply(state, "crown")
        assert game.scores(state) == [7, 7]
