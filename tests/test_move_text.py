"""Legal moves build their text as the choices are made; it must be the move's ``notation``."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import engine
from interpreter.engine.moves import (
    _sub_collections,
    notation,
    order_key,
    sub_collections,
)
from interpreter.engine.values import Card
from tests.helpers import game_files, load

MOVES_PER_GAME = 60


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_every_listed_move_s_text_is_its_notation(path):
    loaded = load(path.stem)
    state = loaded.new_state(seed=7)
    pick = random.Random(7)
    for _ in range(MOVES_PER_GAME):
        moves = engine.legal_moves(loaded.game, state)
        if not moves:
            break
        assert [m.text for m in moves] == [notation(m.name, m.args) for m in moves]
        assert len({m.text for m in moves}) == len(moves)
        engine.apply_move(loaded.game, state, pick.choice(moves))


def test_sub_collections_of_dice_come_with_their_words():
    subsets, words = sub_collections([5, 2, 5])
    assert subsets == [[2], [5], [2, 5], [5, 5], [2, 5, 5]]
    assert words == ("2", "5", "2 5", "5 5", "2 5 5")


def test_sub_collections_of_other_values_are_shown_when_listed():
    subsets, words = sub_collections([[1], [1]])
    assert subsets == [[[1]], [[1], [1]]]
    assert words is None


def test_sub_collections_of_distinct_cards_are_ordered_by_size_then_by_card():
    cards = [Card(id=i, label=str(i), attrs={}) for i in (7, 3, 9)]
    subsets, words = sub_collections(cards)
    assert [[c.id for c in s] for s in subsets] == [[3], [7], [9], [3, 7], [3, 9], [7, 9], [3, 7, 9]]
    assert words is None


@given(st.lists(st.integers(0, 6), max_size=7))
def test_the_shortcut_for_distinct_values_lists_what_the_general_way_does(values):
    # Lists of one number are not plain values, so they take the uncached path, as cards do.
    wrapped = [[v] for v in values]
    expected = sorted({tuple(sorted(map(tuple, chosen))) for size in range(1, len(values) + 1)
                       for chosen in itertools.combinations(wrapped, size)},
                      key=lambda s: (len(s), [order_key(list(v)) for v in s]))
    assert _sub_collections(wrapped) == [[list(v) for v in s] for s in expected]
