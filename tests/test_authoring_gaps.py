"""What authors of new games stumbled on: chance fixed in scenarios and from Python, typed scenario
values, stacking from Python, the views of cards in variables, decks of some ranks or generated
cards; each with its exact behaviour or message."""
from __future__ import annotations

import textwrap

import pytest

from interpreter.api import load_game
from interpreter.play.render import render_view

# A trick game with no trump, a card and a list of cards held in variables.
NO_TRUMP = """
name: No trump
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
  trick: {}
variables:
  game: {turned: none, seen: []}
tricks:
  zone: trick
  hand: hand
  suit: card.suit
  rank: card.rank
setup:
  - set: {turned: stock.bottom, seen: '[stock.bottom, stock.cards[1]]'}
  - deal: 1
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      until: all(p.hand.empty for p in players)
      moves: [play]
moves:
  play:
    params:
      card: {from: playable}
    do:
      - play_to_trick: card
      - end_turn
"""


def write(tmp_path, text, name="g.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_cards_in_variables_are_shown_as_cards_and_no_trump_is_not_shown(tmp_path):
    game = load_game(write(tmp_path, NO_TRUMP))
    state = game.new_state(2, 0)
    game.apply(state, "play KS")
    assert render_view(game.view(state, 1)).splitlines() == [
        "== No trump: round 1, play, P2 to play ==",
        "turned: A♣  seen: A♣ 2♣",
        "led: ♠ by P1",
        "played: P1 K♠",
        "stock: 50 face down",
        "hand P1: (empty)",
        "hand P2 (you): ♠ Q♠",
        "trick: K♠",
    ]
