"""Dice poker: every worked example of the rules reference, with exact scores."""
from __future__ import annotations

import pytest

from interpreter.errors import IllegalMove
from tests.helpers import load

PART1 = ["ones", "twos", "threes", "fours", "fives", "sixes"]
PART2 = ["pair", "two_pairs", "three", "small_straight", "large_straight", "full_house", "four", "poker", "chance"]


@pytest.fixture(scope="module")
def game():
    return load("dice_poker")


def position(game, dice, throws, round_=7, filled=()):
    """A turn in progress: the seat to play has thrown `throws` times and shows `dice`."""
    state = game.new_state(players=3, seed=11)
    state.round = round_
    state.dice = sorted(dice)
    state.vars["throws"] = throws
    sheet = state.seat_vars[state.current]["sheet"]
    for row in PART1 if round_ > 6 else []:
        sheet[row] = 0
    for row in filled:
        sheet[row] = 0
    return state


def score(game, state, text):
    seat = state.current
    game.apply(state, text)
    row = text.split()[1]
    return state.seat_vars[seat]["sheet"][row]


def moves(game, state):
    return [m.text for m in game.legal_moves(state)]


@pytest.mark.parametrize("dice, throws, move, points", [
    ([3, 3, 5, 6, 1], 3, "score pair 3", 6),
    ([6, 6, 2, 4, 1], 1, "score pair 6", 24),
    ([5, 5, 5, 2, 2], 2, "score full_house", 19),
    ([5, 5, 5, 2, 2], 1, "score full_house", 38),
    ([1, 2, 3, 4, 5], 1, "score small_straight", 30),
    ([2, 3, 4, 5, 6], 3, "score large_straight", 20),
    ([4, 4, 4, 4, 1], 2, "score four", 16),
    ([4, 4, 4, 4, 1], 2, "score three", 12),
    ([4, 4, 4, 4, 1], 2, "score pair 4", 8),
    ([6, 6, 6, 6, 6], 1, "score poker", 110),
    ([6, 6, 6, 6, 6], 2, "score poker", 80),
    ([1, 3, 5, 4, 6], 3, "score chance", 19),
    ([1, 3, 5, 4, 6], 1, "score chance", 19),
    ([5, 5, 5, 2, 2], 3, "score two_pairs", 14),
])
def test_part_two_worked_examples(game, dice, throws, move, points):
    assert score(game, position(game, dice, throws), move) == points


@pytest.mark.parametrize("dice, row, points", [
    ([4, 4, 4, 4, 1], "fours", 4),
    ([6, 6, 2, 3, 1], "sixes", -6),
    ([2, 3, 4, 5, 6], "ones", -3),
    ([5, 5, 5, 5, 5], "fives", 10),
    ([6, 6, 6, 6, 6], "sixes", 12),
])
def test_part_one_is_count_minus_three_times_face_never_doubled(game, dice, row, points):
    state = position(game, dice, throws=1, round_=1)
    assert score(game, state, f"score {row}") == points


def test_part_one_offers_only_part_one_rows(game):
    state = position(game, [1, 1, 2, 3, 4], throws=1, round_=1)
    assert [m for m in moves(game, state) if not m.startswith("rethrow")] == [
        "score ones", "score twos", "score threes", "score fours", "score fives", "score sixes"]


def test_four_of_a_kind_is_not_two_pairs_and_five_is_not_a_full_house(game):
    four = moves(game, position(game, [4, 4, 4, 4, 1], 2))
    assert "score two_pairs" not in four and "score four" in four
    five = moves(game, position(game, [6, 6, 6, 6, 6], 2))
    assert "score full_house" not in five and "score two_pairs" not in five
    assert "score pair 6" in five and "score three" in five and "score four" in five


def test_the_player_picks_which_pair(game):
    listed = moves(game, position(game, [3, 3, 5, 5, 1], 3))
    assert "score pair 3" in listed and "score pair 5" in listed


def test_nothing_made_and_chance_filled_leaves_only_dashes(game):
    filled = [r for r in PART2 if r not in ("pair", "three")]
    state = position(game, [1, 2, 4, 5, 6], throws=3, filled=filled)
    assert moves(game, state) == ["cross pair", "cross three"]
    seat = state.current
    game.apply(state, "cross three")
    assert state.seat_vars[seat]["sheet"]["three"] == 0


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


def test_chance_is_free_by_default_and_strict_as_an_option(game):
    assert "score chance" in moves(game, position(game, [6, 6, 2, 4, 1], 1))
    strict = load("dice_poker", strict_chance="true")
    assert "score chance" not in moves(strict, position(strict, [6, 6, 2, 4, 1], 1))
    assert "score chance" in moves(strict, position(strict, [1, 2, 4, 5, 6], 1))


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


def test_bonus_for_a_part_one_sum_of_zero_or_more(game):
    state = game.new_state(players=2, seed=1)
    _fill(game, state, 0, {r: 0 for r in PART1})
    _fill(game, state, 1, {"ones": -1, **{r: 0 for r in PART1[1:]}})
    state.seat_vars[0]["sheet"]["chance"] = 20
    assert game.scores(state) == [70, -1]


def test_results_are_relative_to_the_average(game):
    state = game.new_state(players=3, seed=1)
    for seat, total in enumerate([212, 187, 150]):
        _fill(game, state, seat, {**{r: 0 for r in PART1}, "chance": total - 50})
    assert game.scores(state) == [212, 187, 150]
    assert game.results(state) == [29, 4, -33]
    assert game.ranking(state) == [1, 2, 3]


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
