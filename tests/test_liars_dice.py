"""Liar's dice (games/liars_dice.yaml with `wild=sixes` and one chip each) played move for move
beside OpenSpiel's C++ liars_dice (needs the [openspiel] extra): the same cups in both (OpenSpiel's
chance outcomes thrown into our cups with `new_state(rolls=...)`), then at every decision the same
seat to act and the same legal moves (OpenSpiel's actions written in our notation: `2-5` is
`bid 2 5`, `Liar` is `call`), and at the end the same loser. Each seat's view shows its own cup and
none of the others'. LIARS_DICE_GAMES=1000 plays more games per test, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("LIARS_DICE_GAMES", "150"))
TABLES = [(2, 1), (2, 2), (2, 3), (2, 5)]      # (players, dice each): OpenSpiel plays it with two


def our_text(theirs, action: int) -> str:
    text = theirs.action_to_string(theirs.current_player(), action)
    return "call" if text == "Liar" else "bid " + text.replace("-", " ")


def thrown_cups(theirs, players: int, each: int, pick) -> list[list[int]]:
    """OpenSpiel's chance nodes played (each die by ``pick``); the cups, seat by seat."""
    cups = []
    for _ in range(players):
        cup = []
        for _ in range(each):
            outcome = pick([a for a, _ in theirs.chance_outcomes()])
            theirs.apply_action(outcome)
            cup.append(outcome + 1)
        cups.append(cup)
    return cups


@pytest.mark.parametrize("players, each", TABLES, ids=lambda v: str(v))
def test_every_decision_and_loser_match_openspiel(players, each):
    ours = load("liars_dice", wild="sixes", start_chips="1", dice_each=str(each))
    game = pyspiel.load_game("liars_dice", {"players": players, "numdice": each})
    chooser = random.Random(players * 10 + each)
    for number in range(GAMES_PER_TEST):
        theirs = game.new_initial_state()
        cups = thrown_cups(theirs, players, each, chooser.choice)
        state = ours.new_state(players, number, rolls=cups)
        assert state.dice == [sorted(cup) for cup in cups]
        while not theirs.is_terminal():
            seat = theirs.current_player()
            assert state.current == seat
            view = ours.view(state, seat)
            assert view["dice"] == [sorted(cup) if s == seat else [None] * each for s, cup in enumerate(cups)]
            expected = [our_text(theirs, a) for a in theirs.legal_actions()]
            assert [m.text for m in ours.legal_moves(state, seat)] == expected
            action = chooser.choice(theirs.legal_actions())
            ours.apply(state, our_text(theirs, action), seat)
            theirs.apply_action(action)
        assert state.over
        returns = theirs.returns()
        assert ours.scores(state) == [0 if r < 0 else 1 for r in returns]
        assert ours.view(state, None)["dice"] == [sorted(cup) for cup in cups]     # the cups were lifted
