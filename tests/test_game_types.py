"""Seats, cards and zones of several games loaded in one process keep their own members; the
types known at load let member reads go straight to the member."""
from __future__ import annotations

import pytest

from interpreter.api import load_game
from interpreter.engine.values import zone_ref
from interpreter.errors import EvalError
from tests.helpers import reads_by_type

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


PICK = """\
name: Pick
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {}
  hand: {per: seat}
setup:
  - deal: 2
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: main
      turns: {from: 0}
      moves: [pick]
moves:
  pick:
    params:
      card: {from: hand.cards}
    when: 'me.index == 0 and card.rank > 0'
    do: [end_game]
scoring:
  score: 0
"""


def test_a_move_condition_reads_its_parameters_members_directly(monkeypatch):
    # 'when' runs in stages; each keeps the type of the parameter's list (here, cards).
    read_by_type = reads_by_type(monkeypatch)
    game = load_game("pick.yaml", text=PICK)
    assert len(game.legal_moves(game.new_state(seed=3))) == 2
    assert read_by_type == []


@pytest.mark.parametrize("member", ["cards", "top", "bottom", "size", "empty"])
def test_a_zone_read_outside_of_a_game_says_so(member):
    game = load_game("pick.yaml", text=PICK).game
    with pytest.raises(EvalError) as caught:
        game.types.zone.members[member].get(zone_ref("stock"))
    assert caught.value.message == "a seat's or zone's contents were read outside of a game"
