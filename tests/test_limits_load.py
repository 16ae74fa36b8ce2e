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


CASES = [
    ("nested loops over lists known at load", variant("    do: [end_game]", """\
    do:
      - for: i in 1..1000
        do:
          - if: x > 0
            then:
              - for: j in 1..1000
                do: [end_game]
          - for: j in 1..100
            do:
              - for: k in 1..1000
                do: [end_game]"""), """\
g.yaml:32:22: error: these loops take more than 100000 turns
   32 |               - for: k in 1..1000
      |                      ^^^^^^^^^^^^
hint: loop over fewer items, or nest fewer loops"""),
    ("a negative number of rounds", variant("rounds: 1", "rounds: -5"), """\
g.yaml:13:11: error: flow.rounds must be at least 1, not -5
   13 |   rounds: -5
      |           ^^
hint: a match has at least one round"""),
    ("rounds that are not a number", variant("rounds: 1", "rounds: '\"three\"'"), """\
g.yaml:13:12: error: flow.rounds must be a whole number, not str
   13 |   rounds: '"three"'
      |            ^^^^^^^"""),
    ("a card member misspelled in a move condition", variant("card.rank > 3", "card.rnk > 3"), """\
g.yaml:22:16: error: card has no member 'rnk'
   22 |     when: card.rnk > 3
      |                ^^^
hint: did you mean 'rank'?"""),
    ("a member of a sub-collection read as if it were a card",
     variant("card: {from: hand.cards}", "card: {subset_of: hand.cards}"), """\
g.yaml:22:16: error: list of card has no member 'rank'
   22 |     when: card.rank > 3
      |                ^^^^"""),
    ("a deck in a zone that does not exist", variant("zone: stock}", "zone: stok}"), """\
g.yaml:4:32: error: deck 'main' starts in the zone 'stok', which is not declared
    4 |   main: {standard: true, zone: stok}
      |                                ^^^^
hint: did you mean 'stock'?"""),
    ("a parameter drawn from a number", variant("card: {from: hand.cards}\n    when: card.rank > 3",
                                                "card: {from: 5}\n    when: card > 3"), """\
g.yaml:21:20: error: parameter 'card' of move 'go' must draw from a list, not int
   21 |       card: {from: 5}
      |                    ^
hint: write a list, such as 1..5, [1, 2, 3] or hand.cards"""),
    ("a view that shows each seat's hand to every seat", BASE + "view:\n  seat:\n    holding: hand.cards\n", """\
g.yaml:26:14: error: view: 'holding' shows the cards of zone 'hand' to every seat, but only its owner may see them
   26 |     holding: hand.cards
      |              ^^^^^^^^^^
hint: show only what every seat may see, such as how many cards it holds"""),
    ("a view that shows another seat's card", BASE + "view:\n  game:\n    second: 'players[1].hand.top'\n", """\
g.yaml:26:14: error: view: 'second' shows the cards of zone 'hand' to every seat, but only its owner may see them
   26 |     second: 'players[1].hand.top'
      |              ^^^^^^^^^^^^^^^^^^^
hint: show only what every seat may see, such as how many cards it holds"""),
    ("a view of a face-down card", BASE + "view:\n  game:\n    size: 'len(hand.cards) + stock.size'\n"
                                          "    shown: pile.cards\n    next: stock.top\n", """\
g.yaml:28:11: error: view: 'next' shows the cards of zone 'stock' to every seat, but they lie face down
   28 |     next: stock.top
      |           ^^^^^^^^^
hint: show only what every seat may see, such as how many cards it holds"""),
    ("a score that is a list of cards", BASE + "scoring:\n  score: hand.cards\n", """\
g.yaml:25:10: error: scoring.score must be a number, not list of card
   25 |   score: hand.cards
      |          ^^^^^^^^^^"""),
    ("a deck of ten million cards", variant("  main: {standard: true, zone: stock}",
                                            "  main:\n    zone: stock\n    cards:\n      - {name: x, count: 10000000}"), """\
g.yaml:7:26: error: the decks hold more than 10000 cards
    7 |       - {name: x, count: 10000000}
      |                          ^^^^^^^^
hint: the limit is 10000 cards in play"""),
    ("a count times many kinds of card", variant(
        "  main: {standard: true, zone: stock}",
        "  main:\n    zone: stock\n    cards:\n" + "".join(f"      - {{name: k{i}, count: 1000}}\n" for i in range(12))),
     """\
g.yaml:17:28: error: the decks hold more than 10000 cards
   17 |       - {name: k10, count: 1000}
      |                            ^^^^
hint: the limit is 10000 cards in play"""),
    ("per-seat decks copied for the most seats", variant(
        "  main: {standard: true, zone: stock}",
        "  main:\n    zone: stock\n    per_seat: true\n    cards:\n      - {name: x, count: 4000}"), """\
g.yaml:8:26: error: the decks hold more than 10000 cards (the deck is copied for each of up to 3 seats)
    8 |       - {name: x, count: 4000}
      |                          ^^^^
hint: the limit is 10000 cards in play"""),
    ("counts that are not whole numbers of at least 1", variant(
        "  main: {standard: true, zone: stock}",
        "  main:\n    zone: stock\n    cards:\n      - {name: x, count: 0}\n      - {name: y, count: two}"), """\
g.yaml:7:26: error: a card's count must be a whole number of at least 1, not 0
    7 |       - {name: x, count: 0}
      |                          ^
g.yaml:8:26: error: unknown name 'two'
    8 |       - {name: y, count: two}
      |                          ^^^
hint: a component's size is a number or an expression of the game's options"""),
    ("parameters whose lists give too many choices", variant(
        "      card: {from: hand.cards}\n    when: card.rank > 3\n", "      a: {from: 1..1000}\n      b: {from: 1..1000}\n"),
     """\
g.yaml:22:17: error: the parameters of move 'go' give more than 100000 choices
   22 |       b: {from: 1..1000}
      |                 ^^^^^^^
hint: draw from shorter lists, use fewer parameters, or check each choice in 'when' sooner"""),
]


@pytest.mark.parametrize("text, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_attacks_on_validate_are_refused_at_their_place(text, expected):
    assert rendered(text) == expected


def test_a_condition_between_parameters_lets_their_lists_be_long():
    text = variant("      card: {from: hand.cards}\n    when: card.rank > 3\n",
                   "      a: {from: 1..1000}\n      b: {from: 1..1000}\n    when: a == 1 and b == 2\n")
    load_game("g.yaml", text=text)
