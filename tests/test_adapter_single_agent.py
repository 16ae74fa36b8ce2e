"""Any game as a single-agent Gymnasium environment (interpreter.adapters.single_agent): it passes
Gymnasium's check_env, plays the same game for the same seed, refuses an illegal action without
changing the game, pays the seat's return at the end, shows the agent only its own seat's view,
and runs many games side by side as a vector environment."""
from __future__ import annotations

import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env

from interpreter.adapters.single_agent import env, vector_env
from interpreter.engine.observe import observation_view


def first_legal(info) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def play_out(e, seed: int, pick=first_legal):
    observation, info = e.reset(seed=seed)
    trail = [observation.tolist()]
    while True:
        observation, reward, terminated, truncated, info = e.step(pick(info))
        trail.append(observation.tolist())
        if terminated or truncated:
            return trail, reward, terminated


def test_it_passes_gymnasiums_check_env():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)      # an unbounded Box is what the tensor is
        check_env(env("kuhn_poker"), skip_render_check=True)
        check_env(env("dice_poker", players=2, opponents="random"), skip_render_check=True)


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    e = env("last_card", players=3, seat=1, opponents="greedy,random")
    assert play_out(e, 4) == play_out(e, 4)
    assert any(play_out(e, 4)[0] != play_out(e, seed)[0] for seed in range(5, 9))


def test_an_illegal_action_changes_nothing_and_costs_the_illegal_reward():
    e = env("kuhn_poker", actions="factored", illegal_reward=-0.5)    # with actions that are never legal
    observation, info = e.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, truncated, after = e.step(illegal)
    assert (reward, terminated, truncated, after["illegal"]) == (-0.5, False, False, True)
    assert again.tolist() == observation.tolist() and after["action_mask"].tolist() == info["action_mask"].tolist()


def test_the_last_reward_is_the_seats_return_and_the_agent_sees_only_its_view():
    e = env("kuhn_poker", seat=1, opponents="random")
    for seed in range(20):
        observation, info = e.reset(seed=seed)
        session = e.session
        seen = e.setup.layout.encode(observation_view(e.setup.game, session.state, 1), 1)
        assert observation.tolist()[:len(seen)] == seen
        while True:
            observation, reward, terminated, truncated, info = e.step(first_legal(info))
            if terminated or truncated:
                break
            assert reward == 0.0
        assert terminated and reward == e.session.returns()[1]


def test_a_game_cut_at_max_steps_is_truncated():
    e = env("kuhn_poker", actions="factored", max_steps=3)
    _, info = e.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    results = [e.step(illegal)[2:4] for _ in range(3)]
    assert results == [(False, False), (False, False), (False, True)]


def test_a_vector_environment_plays_many_games_side_by_side():
    many = vector_env("kuhn_poker", 6, opponents="random")
    observations, info = many.reset(seed=0)
    assert observations.shape == (6, many.single_observation_space.shape[0])
    ended = 0
    for _ in range(40):
        actions = [int(np.flatnonzero(mask)[0]) if mask.any() else 0 for mask in info["action_mask"]]
        observations, _, terminated, _, info = many.step(actions)
        ended += int(terminated.sum())
    assert ended >= 6         # every game ended at least once, and started again by itself
    many.close()


def test_a_seat_beyond_the_table_is_refused():
    from interpreter.errors import OptionError
    with pytest.raises(OptionError, match="seat must be 0 to 1, not 2"):
        env("kuhn_poker", seat=2)
