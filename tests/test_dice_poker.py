"""Dice poker: what the worked examples (tests/scenarios/dice_poker.yaml) do not show."""
from __future__ import annotations

import pytest

from interpreter.errors import IllegalMove
from tests.helpers import load

PART1 = ["ones", "twos", "threes", "fours", "fives", "sixes"]


@pytest.fixture(scope="module")
def game():
    return load("dice_poker")


def position(game, dice, throws, round_=7):
    """A turn in progress: the seat to play has thrown `throws` times and shows `dice`."""
    state = game.new_state(players=3, seed=11)
    state.round = round_
    state.dice = sorted(dice)
    state.vars["throws"] = throws
    sheet = state.seat_vars[state.current]["sheet"]
    for row in PART1 if round_ > 6 else []:
        sheet[row] = 0
    return state


def moves(game, state):
    return [m.text for m in game.legal_moves(state)]


def test_four_of_a_kind_is_not_two_pairs_and_five_is_not_a_full_house(game):
    four = moves(game, position(game, [4, 4, 4, 4, 1], 2))
    assert "score two_pairs" not in four and "score four" in four
    five = moves(game, position(game, [6, 6, 6, 6, 6], 2))
    assert "score full_house" not in five and "score two_pairs" not in five
    assert "score pair 6" in five and "score three" in five and "score four" in five


def test_the_player_picks_which_pair(game):
    listed = moves(game, position(game, [3, 3, 5, 5, 1], 3))
    assert "score pair 3" in listed and "score pair 5" in listed


def test_a_dash_is_worth_zero_and_closes_the_row(game):
    state = position(game, [6, 6, 6, 6, 6], throws=1)
    seat = state.current
    game.apply(state, "cross poker")
    assert state.seat_vars[seat]["sheet"]["poker"] == 0
    assert state.seat_vars[seat]["crossed"] == ["poker"]


def test_doubling_only_when_stopped_after_the_first_throw(game):
    state = position(game, [6, 6, 6, 6, 6], throws=1)
    game.apply(state, "rethrow 6")
    assert state.vars["throws"] == 2


def test_the_first_throw_throws_all_dice_and_a_turn_has_at_most_three(game):
    state = game.new_state(players=2, seed=3)
    assert moves(game, state) == ["throw"]
    game.apply(state, "throw")
    game.apply(state, game.legal_moves(state)[0])
    game.apply(state, [m for m in game.legal_moves(state) if m.name == "rethrow"][0])
    assert state.vars["throws"] == 3
    assert not [m for m in game.legal_moves(state) if m.name == "rethrow"]


def test_rethrow_offers_each_distinct_subset_once(game):
    state = position(game, [2, 2, 3, 3, 3], throws=1)
    rethrows = [m for m in moves(game, state) if m.startswith("rethrow")]
    assert len(rethrows) == 3 * 4 - 1
    assert rethrows[:3] == ["rethrow 2", "rethrow 3", "rethrow 2 2"]


def test_an_illegal_score_is_refused_and_changes_nothing(game):
    state = position(game, [1, 2, 4, 5, 6], throws=2)
    before = state.to_json()
    with pytest.raises(IllegalMove) as error:
        game.apply(state, "score poker")
    assert error.value.message == "'score poker' is not a legal move now"
    assert state.to_json() == before


def _fill(game, state, seat, rows):
    state.seat_vars[seat]["sheet"].update(rows)


def test_equal_totals_share_a_place(game):
    state = game.new_state(players=3, seed=1)
    for seat, total in enumerate([100, 100, 90]):
        _fill(game, state, seat, {**{r: 0 for r in PART1}, "chance": total - 50})
    assert game.ranking(state) == [1, 1, 3]


def test_a_whole_game_has_fifteen_rounds_and_fills_every_row(game):
    state = game.new_state(players=2, seed=5)
    turns = 0
    while not state.over:
        move = game.legal_moves(state)[-1]
        game.apply(state, move)
        turns += move.name in ("score", "cross")
    assert turns == 30 and state.round == 15
    for seat_vars in state.seat_vars:
        assert None not in seat_vars["sheet"].values()
