"""Legal moves build their text as the choices are made; it must be the move's ``notation``."""
from __future__ import annotations

import random

import pytest

from interpreter import engine
from interpreter.moves import notation, sub_collections
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
