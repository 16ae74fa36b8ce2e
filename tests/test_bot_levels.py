"""Levels a player chooses (easy, medium, hard), careless moves, and the search's budget: what each
level is made of, in a game with turns and in free play; how many rollouts a search makes."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli import main
from interpreter.bots.agents import FREE_PLAY_LEVELS, LEVELS, GreedyBot, PriorityBot, RandomBot, make_bot, parse_kind
from interpreter.bots.search import SearchBot
from interpreter.errors import OptionError
from interpreter.play.session import Session
from interpreter.tools.simulate import bot_kinds
from tests.helpers import GAMES, load


@pytest.mark.parametrize("level, iterations, seconds, mistakes",
                         [("easy", 10, None, 0.2), ("medium", 30, None, 0.05), ("hard", 100, 1.2, 0.0)])
def test_a_level_in_a_game_with_turns_is_a_search_with_a_budget_and_mistakes(level, iterations, seconds, mistakes):
    bot = make_bot(level, load("dice_poker").game, 1, 3)
    assert type(bot) is SearchBot and bot.kind == level
    assert (bot.iterations, bot.seconds, bot.mistakes, bot.speed) == (iterations, seconds, mistakes, None)


@pytest.mark.parametrize("level, speed, mistakes", [("easy", 2.0, 0.3), ("medium", 1.2, 0.1), ("hard", 0.6, 0.0)])
def test_a_level_in_free_play_is_a_priority_bot_with_a_speed_and_mistakes(level, speed, mistakes):
    bot = make_bot(level, load("nerts").game, 0, 3)
    assert type(bot) is PriorityBot and bot.kind == level
    assert (bot.speed, bot.mistakes) == (speed, mistakes)


def test_the_levels_are_ordered_by_budget_speed_and_care():
    budgets = [LEVELS[name]["iterations"] for name in ("easy", "medium", "hard")]
    speeds = [FREE_PLAY_LEVELS[name]["speed"] for name in ("easy", "medium", "hard")]
    assert budgets == sorted(budgets) and speeds == sorted(speeds, reverse=True)


def test_levels_are_parsed_per_seat_and_a_budget_after_one_is_refused():
    assert parse_kind("hard") == ("hard", {})
    assert bot_kinds(["hard", "greedy", "easy"], 3) == ["hard", "greedy", "easy"]
    with pytest.raises(OptionError) as caught:
        parse_kind("hard:500")
    assert caught.value.message == "the level hard sets its own budget: write 'hard', not 'hard:500'"
    with pytest.raises(OptionError) as caught:
        parse_kind("hrd")
    assert (caught.value.message, caught.value.hint) == ("there is no bot kind 'hrd'", "did you mean 'hard'?")


def test_the_command_line_takes_a_level_and_refuses_a_bad_one():
    bad = CliRunner().invoke(main, ["play", str(GAMES / "dice_poker.yaml"), "--bot", "medium:5"])
    assert bad.exit_code == 2
    assert bad.output.splitlines()[-1] == (
        "Error: Invalid value for '--bot': the level medium sets its own budget: write 'medium', not 'medium:5'")


def test_a_level_plays_free_play_at_its_own_speed_and_other_bots_at_the_tables():
    hard = Session(load("nerts"), 2, 5, "hard", humans={0}, bot_speed=2.0)
    assert hard.table.clock.speeds == {1: 0.6}
    priority = Session(load("nerts"), 2, 5, "priority", humans={0}, bot_speed=2.0)
    assert priority.table.clock.speeds == {1: 2.0}


def test_a_bot_that_always_errs_plays_at_random_and_one_that_never_does_draws_nothing_for_it():
    loaded = load("last_card")
    state = loaded.new_state(3, 4)
    moves = loaded.legal_moves(state)
    careless = GreedyBot(loaded.game, state.current, 9, mistakes=1.0)
    random = RandomBot(loaded.game, state.current, 9)
    random.draw(1000)                    # the careless bot's first draw decides that it errs
    assert [careless.choose(state, moves) for _ in range(5)] == [random.choose(state, moves) for _ in range(5)]
    careful, draws = RandomBot(loaded.game, state.current, 9), RandomBot(loaded.game, state.current, 9)
    assert [careful.choose(state, moves) for _ in range(5)] == [moves[draws.draw(len(moves))] for _ in range(5)]


def test_the_search_counts_its_rollouts_and_repeats_itself_with_the_same_seed():
    loaded = load("dice_poker")
    state = loaded.new_state(2, 6)
    loaded.apply(state, loaded.legal_moves(state)[0])        # the first throw
    moves = loaded.legal_moves(state)
    assert len(moves) > 20                                    # every subset of the dice to throw again
    first = SearchBot(loaded.game, state.current, seed=4, iterations=30)
    second = SearchBot(loaded.game, state.current, seed=4, iterations=30)
    choice = first.choose(state, moves)
    assert choice == second.choose(state, moves)
    # 8 candidates (8 * 3 <= 30 < 9 * 4), halved in 3 rounds of at most 10 rollouts: 8, 2 * 4, 5 * 2.
    assert (first.done, first.given_up) == (26, 0)
    alone = SearchBot(loaded.game, state.current, seed=4, iterations=30)
    assert alone.choose(state, moves[:1]) == moves[0] and alone.done == 0     # nothing to decide
    capped = SearchBot(loaded.game, state.current, seed=4, iterations=30, seconds=3600.0)
    assert capped.choose(state, moves) == choice and capped.done == 26    # the first bound met
    timed = SearchBot(loaded.game, state.current, seed=4, seconds=1e-9)
    assert timed.iterations == 1_000_000 and timed.choose(state, moves) in moves and timed.done == 1
