"""Held-out attacks on ``validate``: each bad game file is refused with the place of the problem,
and the work of loading stays bounded (exact messages, rendered as ``rules validate`` shows them)."""
from __future__ import annotations

import pytest

from interpreter.api import load_game
from interpreter.errors import RulesError, flatten

#  1 name: G
#  2 players: {min: 2, max: 3}
#  3 decks:
#  4   main: {standard: true, zone: stock}
#  5 zones:
#  6   stock: {face: down}
#  7   hand: {per: seat, visible_to: owner}
#  8   pile: {}
#  9 variables:
# 10   game:
# 11     x: 0
# 12 flow:
# 13   rounds: 1
# 14   phases:
# 15     - name: play
# 16       turns: {from: 0}
# 17       moves: [go]
# 18 moves:
# 19   go:
# 20     params:
# 21       card: {from: hand.cards}
# 22     when: card.rank > 3
# 23     do: [end_game]
BASE = """\
name: G
players: {min: 2, max: 3}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
  pile: {}
variables:
  game:
    x: 0
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0}
      moves: [go]
moves:
  go:
    params:
      card: {from: hand.cards}
    when: card.rank > 3
    do: [end_game]
"""


def variant(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def rendered(text: str) -> str:
    """Every error of loading ``text``, rendered as ``rules validate`` prints them."""
    with pytest.raises(RulesError) as caught:
        load_game("g.yaml", text=text)
    return "\n".join(e.render() for e in flatten([caught.value]))


def test_the_base_game_is_valid():
    load_game("g.yaml", text=BASE)


def test_aliases_are_counted_before_the_file_is_walked():
    # One anchored effect and 150,000 aliases to it under an unknown key: refused at the first
    # alias past the limit, before the rest of the file is even scanned.
    text = variant("    do: [end_game]", "    do:\n      - &eff {set: {x: 1}}\n      - end_game")
    text += "bogus: [" + ",".join(["*eff"] * 150_000) + "]\n"
    with pytest.raises(RulesError) as caught:
        load_game("g.yaml", text=text)
    assert caught.value.headline() == "g.yaml:26:5009: error: too many aliases; the limit is 1000"
    assert caught.value.hint == "write the repeated part once, or fewer times"
