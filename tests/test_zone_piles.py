"""Zones of several piles (`piles:`): a list of zones per owner, sized by a number or an expression."""
from __future__ import annotations

import json

import pytest

from interpreter.api import load_game
from interpreter.play.render import render_view

GAME = """\
name: Piles
players: {min: 2, max: 4}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  work: {per: seat, piles: 2}
  foundations: {piles: 2 * player_count}
  tricks: {per: team, face: down}
teams:
  of: seat % 2
variables:
  game: {latest: none}
setup:
  - for: p in players
    do:
      - for: w in p.work
        do:
          - move: stock.top
            to: w
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [found, bank]
moves:
  found:
    params:
      pile: {from: work}
      target: {from: '[f for f in foundations if f.empty]'}
    when: not pile.empty and target.index == 0
    do:
      - move: pile.top
        to: target
      - set: {latest: target}
      - end_turn
  bank:
    params:
      pile: {from: work}
    when: not pile.empty
    do:
      - move: pile.top
        to: tricks
      - end_turn
"""


@pytest.fixture(scope="module")
def game():
    return load_game("piles.yaml", text=GAME)


def test_piles_are_allocated_per_owner_and_by_expression(game):
    state = game.new_state(players=3, seed=2)
    assert [len(p) for p in state.zones["work"]] == [1, 1, 1, 1, 1, 1]
    assert len(state.zones["foundations"]) == 6
    assert len(state.zones["tricks"]) == 2          # teams {0, 2} and {1}
    assert len(state.zones["stock"][0]) == 52 - 6


def test_a_zone_of_piles_is_a_list_of_zones(game):
    state = game.new_state(players=3, seed=2)
    assert [m.text for m in game.legal_moves(state)] == [
        "found work[P1]#1 foundations#1", "found work[P1]#2 foundations#1", "bank work[P1]#1", "bank work[P1]#2"]
    game.apply(state, "found work[P1]#2 foundations")
    assert state.zones["work"][1] == [] and len(state.zones["foundations"][0]) == 1
    assert str(state.vars["latest"]) == "foundations#1"


def test_team_zones_belong_to_the_acting_seats_team(game):
    state = game.new_state(players=3, seed=2)
    game.apply(state, "found work[P1]#1 foundations")
    game.apply(state, "bank work[P2]#1")
    game.apply(state, "bank work[P3]#1")
    assert [len(p) for p in state.zones["tricks"]] == [1, 1]


def test_piles_round_trip_and_show_by_owner_and_number(game):
    state = game.new_state(players=2, seed=2)
    game.apply(state, "found work[P1]#1 foundations")
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.vars["latest"] == state.vars["latest"]
    view = game.view(state, 0)
    assert view["pile_names"]["work"] == ["P1#1", "P1#2", "P2#1", "P2#2"]
    assert view["pile_names"]["foundations"] == ["#1", "#2", "#3", "#4"]
    assert view["pile_names"]["tricks"] == ["T1", "T2"]
    text = render_view(view)
    assert "work P1#2 (you): " in text and "foundations #1: " in text and "tricks T1: (empty)" in text


def test_a_pile_count_below_one_is_an_error():
    bad = load_game("bad.yaml", text=GAME.replace("piles: 2 * player_count", "piles: player_count - 3"))
    with pytest.raises(Exception) as error:
        bad.new_state(players=2)
    assert str(error.value) == "error: zone 'foundations' must have at least one pile, not -1"
