"""Cards, zones and hidden information, through a small shedding game (games/last_card.yaml)."""
from __future__ import annotations

import random

import pytest

from interpreter.api import load_game
from interpreter.bots.agents import GreedyBot
from interpreter.bots.determinize import sample_state
from interpreter.engine import acting_seats
from interpreter.engine.views import EMPTY_SLOT, card_visible, view
from tests.helpers import game_files, load


@pytest.fixture(scope="module")
def game():
    return load("last_card")


def labels(game, state, zone, owner=0):
    table = game.game.card_table(state.players)
    return [table[c].label for c in state.zones[zone][owner]]


def test_setup_deals_hands_and_turns_one_card(game):
    state = game.new_state(players=3, seed=4)
    assert [len(p) for p in state.zones["hand"]] == [5, 5, 5]
    assert len(state.zones["pile"][0]) == 1 and len(state.zones["stock"][0]) == 52 - 16
    assert labels(game, state, "hand") == ["JH", "4C", "6C", "9H", "4D"]
    assert labels(game, state, "pile") == ["KS"]


def test_a_hand_is_seen_by_its_owner_only_and_the_stock_by_nobody(game):
    state = game.new_state(players=3, seed=4)
    view = game.view(state, 0)
    assert view["zones"]["hand"][0] == ["JH", "4C", "6C", "9H", "4D"]
    assert view["zones"]["hand"][1] == [None] * 5
    assert view["zones"]["stock"][0] == [None] * 36
    assert view["zones"]["pile"][0] == ["KS"]
    assert game.view(state, None)["zones"]["hand"][0] == [None] * 5


def test_another_seats_hidden_cards_do_not_change_a_view(game):
    state = game.new_state(players=3, seed=4)
    before = game.view(state, 0)
    other = state.clone()
    hand, stock = other.zones["hand"][1], other.zones["stock"][0]
    hand[0], stock[0] = stock[0], hand[0]
    other.face_up.add(hand[0])          # cards lie as their places say: hands up, the stock down
    other.face_up.discard(stock[0])
    other.zones["hand"][2].reverse()
    assert other != state
    assert game.view(other, 0) == before


def test_a_sampled_state_keeps_what_the_seat_sees_and_redeals_the_rest(game):
    state = game.new_state(players=3, seed=4)
    sample = sample_state(game.game, state, 0, seed=99)
    assert sample.zones["hand"][0] == state.zones["hand"][0]
    assert sample.zones["pile"] == state.zones["pile"]
    assert sorted(sample.zones["hand"][1] + sample.zones["hand"][2] + sample.zones["stock"][0]) == \
        sorted(state.zones["hand"][1] + state.zones["hand"][2] + state.zones["stock"][0])
    assert sample.zones["hand"][1] != state.zones["hand"][1]
    assert game.view(sample, 0) == game.view(state, 0)


def test_the_greedy_bot_chooses_the_same_whatever_the_hidden_cards(game):
    state = game.new_state(players=3, seed=4)
    game.apply(state, "draw")
    other = state.clone()
    hand, stock = other.zones["hand"][2], other.zones["stock"][0]
    hand[:], stock[:len(hand)] = stock[:len(hand)], list(hand)
    other.face_up.difference_update(stock)
    other.face_up.update(hand)
    seat = state.current
    first = GreedyBot(game.game, seat, seed=5).choose(state, game.legal_moves(state))
    second = GreedyBot(game.game, seat, seed=5).choose(other, game.legal_moves(other))
    assert first == second


def test_a_card_parameter_is_written_by_its_label(game):
    state = game.new_state(players=3, seed=4)
    assert [m.text for m in game.legal_moves(state)] == ["draw"]
    game.apply(state, "draw")
    game.apply(state, "play 10S")
    assert labels(game, state, "pile") == ["KS", "10S"]
    assert len(state.zones["hand"][1]) == 4


def test_the_pile_is_shuffled_back_when_the_stock_runs_out(game):
    state = game.new_state(players=3, seed=4)
    pile, stock = state.zones["pile"][0], state.zones["stock"][0]
    top = pile[-1]
    pile[:0] = stock[:-1]               # all but one stock card go under the pile's top
    state.face_up.update(stock[:-1])
    del stock[:-1]
    assert [m.text for m in game.legal_moves(state)] == ["draw"]
    game.apply(state, "draw")
    assert state.zones["pile"][0] == [top]
    assert len(state.zones["stock"][0]) == 35
    assert not state.face_up & set(state.zones["stock"][0])
    assert state.current == 1


def test_lowest_hand_wins(game):
    state = game.new_state(players=3, seed=4)
    assert game.scores(state) == [4 + 6 + 9 + 4 + 10, *game.scores(state)[1:]]
    points = game.scores(state)
    places = game.ranking(state)
    assert places[points.index(min(points))] == 1


def test_below_draws_what_next_u64_gives_rejecting_the_biased_values():
    """``rng.below`` writes ``next_u64`` out for speed: the same value and state for any seed and bound."""
    from interpreter.engine import rng
    for seed in range(300):
        for n in (1, 2, 3, 6, 52, 1000, 2**63 + 12345):     # the last rejects a value now and then
            state = expected_state = rng.seed_state(seed)
            limit = (1 << 64) - ((1 << 64) % n)
            while True:
                value, expected_state = rng.next_u64(expected_state)
                if value < limit:
                    break
            assert rng.below(state, n) == (value % n, expected_state)


def test_a_shuffle_draws_what_fisher_yates_by_below_draws():
    """``rng.shuffled`` writes ``below``'s steps out for speed: the same order and the same state
    after it, for any seed and any length."""
    from interpreter.engine import rng
    for seed in range(300):
        items = list(range(seed % 60))
        state = expected_state = rng.seed_state(seed)
        expected = list(items)
        for i in range(len(expected) - 1, 0, -1):
            j, expected_state = rng.below(expected_state, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert rng.shuffled(state, items) == (expected, expected_state)


@pytest.mark.parametrize("bound", [1, 2, 6, 7, 1024, 1025, 1 << 40])
def test_draws_made_several_at_a_time_are_belows_draws_one_after_another(bound):
    """``rng.belows`` (dice thrown several at a time) writes ``below``'s steps out: the same
    values and the same state after them; a draw turned down is turned down there too."""
    from interpreter.engine import rng
    seeds = [rng.seed_state(seed) for seed in range(200)] + [_state_giving((1 << 64) - 1 - k) for k in range(3)]
    for state in seeds:
        expected, expected_state = [], state
        for _ in range(5):
            value, expected_state = rng.below(expected_state, bound)
            expected.append(value)
        assert rng.belows(state, 5, bound) == (expected, expected_state)


def _state_giving(value: int) -> int:
    """The generator state whose next output is ``value`` (SplitMix64's mixing undone)."""
    def unshift(y: int, k: int) -> int:
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x
    mask = (1 << 64) - 1
    z = unshift(value, 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & mask, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask, 30)
    return (z - 0x9E3779B97F4A7C15) & mask


@pytest.mark.parametrize("size, turned_down", [(24, 5), (52, 0), (3, 0), (1100, 2)])
def test_a_shuffle_turns_a_draw_down_as_below_does(size, turned_down):
    """A draw within 1024 of 2**64 is turned down (no modulo bias) and the next one taken: the
    shuffle worked out all at once gives way to the draws one by one, with the same result."""
    from interpreter.engine import rng
    top = (1 << 64) - 1
    state = (_state_giving(top) - turned_down * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    assert rng.next_u64((state + turned_down * 0x9E3779B97F4A7C15) & ((1 << 64) - 1))[0] == top
    items = list(range(size))
    expected, expected_state = list(items), state
    for i in range(size - 1, 0, -1):
        j, expected_state = rng.below(expected_state, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert rng.shuffled(state, items) == (expected, expected_state)
    assert expected_state == (state + size * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)     # one draw more


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_a_view_shows_each_card_that_its_seat_may_see_and_no_other(path):
    """The view works out what a seat may not see a pile at a time: card for card, it agrees with
    ``card_visible``, for every seat and a spectator, along a random game."""
    loaded = load_game(path)
    game, state, choose = loaded.game, loaded.new_state(None, 2), random.Random(2)
    for _ in range(40):
        table = game.card_table(state.players)
        for seat in [None, *range(state.players)]:
            zones = view(game, state, seat, with_moves=False)["zones"]
            for name, piles in state.zones.items():
                for i, pile in enumerate(piles):
                    owner = game.pile_owner(state, name, i)
                    assert zones[name][i] == [
                        EMPTY_SLOT if card is None
                        else table[card].label if card_visible(game, state, name, owner, pile, k, seat) else None
                        for k, card in enumerate(pile)], (name, i, seat)
        if state.over:
            break
        seat = state.current if state.current is not None else acting_seats(game, state)[0]
        moves = loaded.legal_moves(state, seat)
        loaded.apply(state, moves[choose.randrange(len(moves))], seat)


@pytest.mark.parametrize("turned_down", [0, 63, 65, 131])
def test_a_stream_of_draws_draws_what_below_draws(turned_down):
    """``rng.draws`` works the generator's outputs out a block at a time: the same draws as
    ``below`` one after another, a draw turned down (here the one after ``turned_down`` others,
    at the edge of a block or within one) and bounds past the table of limits included."""
    from interpreter.engine import rng
    state = (_state_giving((1 << 64) - 1) - turned_down * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    draw, expected_state = rng.draws(state), state
    for k in range(300):
        n = (3, 52, 1 << 30, 5000, 1)[k % 5]
        value, expected_state = rng.below(expected_state, n)
        assert draw(n) == value
    assert expected_state == (state + 301 * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)     # one turned down
    with rng.draws_from(lambda n: n - 1):       # chance made explicit: the source decides, as below
        assert draw(7) == 6
