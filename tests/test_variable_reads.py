"""What an expression reads (engine/variable_reads.py): the game variables a trick's suit and rank depend
on, when they read nothing else of the state; and their values kept by those variables."""
from __future__ import annotations

import pytest

from interpreter.api import load_game
from interpreter.engine import trick_values, tricks
from interpreter.engine.context import Ctx, active
from tests.helpers import load
from tests.test_tricks import GAME, write


def reads_of(tmp_path, suit, extra=""):
    text = GAME.replace("""suit: 'if card.joker then "spades" else card.suit'""", f"suit: '{suit}'")
    text = text.replace("  game: {leader: none}", "  game: {leader: none, trump: spades, order: [1, 2]}\n"
                        "  seat: {bid: 0}" + extra)
    rules = load_game(write(tmp_path, text)).game.tricks
    return rules.suit_reads


def test_schmier_suit_and_rank_read_the_trump_and_its_colour():
    rules = load("schmier").game.tricks
    assert (rules.suit_reads, rules.rank_reads) == (("trump", "trump_color"), ("trump", "trump_color"))


def test_the_reference_keeps_no_value():
    rules = load_game("games/schmier.yaml", engine="reference").game.tricks
    assert (rules.suit_reads, rules.rank_reads) == (None, None)


@pytest.mark.parametrize("suit, reads", [
    ('if card.joker then "spades" else card.suit', ()),
    ("if card.suit == trump then trump else card.suit", ("trump",)),
    ("if card.rank in order then trump else card.label", ("order", "trump")),
    ("[s for s in [card.suit, trump] if s != none][0]", ("trump",)),
    # what reads the state of play otherwise: a zone, the acting seat, a seat variable, the flow
    ("if trick.empty then card.suit else trump", None),
    ("if me == none then card.suit else card.suit", None),
    ("if bid > 0 then card.suit else card.suit", None),
    ("if round > 1 then card.suit else card.suit", None),
    ("if card.face_up then card.suit else card.suit", None),
    ("if leader == none then card.suit else leader.hand.top.suit", None),
])
def test_what_a_suit_reads(tmp_path, suit, reads):
    assert reads_of(tmp_path, suit) == reads


def test_defined_functions_are_read_through(tmp_path):
    pure = "\ndefine:\n  low(c): c.rank < 5\n  t: trump"
    assert reads_of(tmp_path, 'if low(card) then t else card.suit', pure) == ("trump",)
    impure = "\ndefine:\n  low(c): c.rank < len(hand.cards)"
    assert reads_of(tmp_path, 'if low(card) then trump else card.suit', impure) is None


def test_a_kept_suit_follows_the_variables_it_reads():
    loaded = load("schmier")
    game = loaded.game
    state = loaded.new_state(6, 0)
    card = next(c for c in game.card_table(6) if c.label == "JH")      # the right bauer of hearts
    with active(game, state):
        ctx = Ctx(game, state, 0)
        state.vars.update(trump="hearts", trump_color="red")
        assert (tricks.suit_of(ctx, card), tricks.rank_of(ctx, card)) == ("hearts", 12)
        state.vars.update(trump="diamonds", trump_color="red")         # the left bauer now
        assert (tricks.suit_of(ctx, card), tricks.rank_of(ctx, card)) == ("diamonds", 11)
        state.vars.update(trump="spades", trump_color="black")
        assert (tricks.suit_of(ctx, card), tricks.rank_of(ctx, card)) == ("hearts", 11)
    # Kept for every state of the game: a new deal finds them.
    assert game.tricks.kept[("suit", 6, ("hearts", "red"))][card.id] == "hearts"
    assert game.tricks.kept[("rank", 6, ("diamonds", "red"))][card.id] == 11


def test_kept_values_are_shared_by_the_deals_and_bounded():
    loaded = load("schmier")
    game = loaded.game
    game.tricks.kept.clear()
    try:
        card = next(c for c in game.card_table(6) if c.label == "JH")
        first, second = loaded.new_state(6, 0), loaded.new_state(6, 1)
        with active(game, first):
            first.vars.update(trump="hearts", trump_color="red")
            assert tricks.suit_of(Ctx(game, first, 0), card) == "hearts"
        game.tricks.kept[("suit", 6, ("hearts", "red"))][card.id] = "planted"
        with active(game, second):      # another deal with the same trump finds the value kept
            second.vars.update(trump="hearts", trump_color="red")
            assert tricks.suit_of(Ctx(game, second, 0), card) == "planted"
            for k in range(trick_values.MOST_KEPT + 5):      # a variable of many values: the tables are dropped
                second.vars.update(trump=f"suit{k}")
                tricks.suit_of(Ctx(game, second, 0), card)
        assert 0 < len(game.tricks.kept) <= trick_values.MOST_KEPT
    finally:
        game.tricks.kept.clear()
