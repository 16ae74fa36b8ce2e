"""Nerts (games/nerts.yaml): what each seat may see, the automatic flip of the Nerts pile, and
hands between random bots that always end (the all-stuck procedure of the spec bounds them).

A hand takes about a second between random bots (several hundred moves, each with every seat's
legal moves). The default run plays HANDS hands at each table size; set NERTS_HANDS=200 for the
full check of the issue (about 15 minutes on one core)."""
from __future__ import annotations

import os
import random

import pytest

from interpreter import engine
from interpreter.bots.agents import RandomBot
from tests.helpers import load

HANDS = int(os.environ.get("NERTS_HANDS", "2"))
MOVES_PER_HAND = 20_000       # far above any hand seen (under 2,500 moves)


@pytest.fixture(scope="module")
def nerts():
    return load("nerts")


def play_hand(loaded, players, seed):
    """One hand between random bots; each action, a seat drawn at random acts if it can."""
    state = loaded.new_state(players, seed)
    bots = [RandomBot(loaded.game, seat, seed) for seat in range(players)]
    draw = random.Random(seed)
    while state.round == 1 and not state.over:
        assert state.moves < MOVES_PER_HAND, f"hand {seed} at {players} seats has not ended"
        seat = draw.randrange(players)
        moves = engine.legal_moves(loaded.game, state, seat)
        if moves:
            engine.apply_move(loaded.game, state, bots[seat].choose(state, moves), checked=False)
        else:
            assert engine.acting_seats(loaded.game, state), "no seat may move, yet the hand goes on"
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_hand_between_random_bots_ends(nerts, players):
    for seed in range(HANDS):
        state = play_hand(nerts, players, seed)
        hands = [v["hand"] for v in state.seat_vars]
        assert all(-26 <= h <= 52 for h in hands)
        assert [v["total"] for v in state.seat_vars] == hands


def test_the_nerts_pile_shows_only_its_top_and_the_next_card_turns_up(nerts):
    state = nerts.new_state(2, 5)
    assert nerts.view(state, 0)["zones"]["nerts"][0][:-1] == [None] * 12
    table = nerts.game.card_table(2)
    pile, stock = state.zones["nerts"][0], state.zones["stock"][0]
    ace = next(c for c in stock if table[c].attrs["rank"] == 1)
    stock.remove(ace)
    stock.append(pile.pop())          # the dealt top goes back to the stock: an ace is on top
    pile.append(ace)
    state.face_up.add(ace)
    under = table[pile[-2]].label
    assert nerts.view(state, 1)["zones"]["nerts"][0][-2:] == [None, table[ace].label]
    nerts.apply(state, f"start {table[ace].label}", 0)
    assert nerts.view(state, 1)["zones"]["nerts"][0] == [None] * 11 + [under]


def test_the_stock_is_hidden_from_its_owner_and_the_waste_shows_its_top_only(nerts):
    state = nerts.new_state(2, 3)
    nerts.apply(state, "turn", 0)
    view = nerts.view(state, 0)
    assert view["zones"]["stock"][0] == [None] * 32
    waste = view["zones"]["waste"][0]
    assert waste[:2] == [None, None] and waste[2] is not None
    assert all(card is not None for pile in view["zones"]["work"] for card in pile)


def test_another_seats_hidden_cards_do_not_change_a_view(nerts):
    state = nerts.new_state(2, 4)
    nerts.apply(state, "turn", 1)
    before = nerts.view(state, 0)
    changed = state.clone()
    p2_stock, p2_nerts = changed.zones["stock"][1], changed.zones["nerts"][1]
    p2_stock[0], p2_nerts[0] = p2_nerts[0], p2_stock[0]          # both face down
    waste = changed.zones["waste"][1]
    waste[0], waste[1] = waste[1], waste[0]                        # under the waste top
    changed.zones["stock"][1].reverse()
    assert changed != state and nerts.view(changed, 0) == before
