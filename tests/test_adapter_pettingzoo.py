"""Every game as a PettingZoo AEC environment, checked by PettingZoo's own tests (needs the
[pettingzoo] extra)."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np                                              # noqa: E402

from pettingzoo.test import api_test, seed_test                 # noqa: E402

from interpreter.adapters.pettingzoo import env                 # noqa: E402
from tests.helpers import GAMES                                 # noqa: E402

# (game, players, options, moves before a game is truncated, cycles of the tests): small, so
# that each runs in seconds.
TURN_BASED = [
    ("kuhn_poker", None, None, 10, 20),
    ("last_card", 2, None, 40, 40),
    ("crazy_eights", 2, None, 30, 30),
    ("dice_poker", 2, None, 12, 20),
    ("gnoming_a_round_two_players", None, None, 15, 20),
    ("gnoming_a_round", 3, None, 12, 12),
    ("schmier", None, None, 12, 10),
    ("euchre", None, None, 30, 20),
    ("liars_dice", 2, None, 30, 20),
]


def make(name, players, options, max_moves):
    return env(str(GAMES / f"{name}.yaml"), players, options=options, max_moves=max_moves)


@pytest.mark.parametrize("name, players, options, max_moves, cycles", TURN_BASED, ids=[t[0] for t in TURN_BASED])
def test_api_and_seed_tests(name, players, options, max_moves, cycles):
    with warnings.catch_warnings():
        # PettingZoo warns of every observation that is a dict with an action mask, its own convention.
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(name, players, options, max_moves), num_cycles=cycles)
        seed_test(lambda: make(name, players, options, max_moves), num_cycles=cycles)


def test_free_play_runs_on_the_clock_as_an_aec_environment():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(make("nerts", 2, {"target": "1"}, 12), num_cycles=12)
        seed_test(lambda: make("nerts", 2, {"target": "1"}, 12), num_cycles=12)


def test_a_game_played_to_its_end_gives_the_rewards_once():
    e = make("kuhn_poker", None, None, 10)
    e.reset(seed=3)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        assert obs["action_mask"].tolist()[:2] == [1, 1] and obs["action_mask"].sum() == 2     # pass, bet
        e.step(1)                                                                              # always bet
    assert sorted(totals.values()) == [-1.0, 1.0]
    assert e.agents == []


def test_only_the_agent_to_act_has_a_mask():
    e = make("last_card", 2, None, 40)
    e.reset(seed=0)
    acting = e.agent_selection
    other = next(a for a in e.possible_agents if a != acting)
    assert e.observe(acting)["action_mask"].sum() >= 1
    assert not e.observe(other)["action_mask"].any()
    assert e.observe(acting)["observation"].shape == e.observation_space(acting)["observation"].shape
    assert e.observe(acting)["observation"].dtype == np.float32


def test_a_bundled_game_is_an_environment_by_its_name():
    by_name, by_path = env("kuhn_poker"), env(str(GAMES / "kuhn_poker.yaml"))
    by_name.reset(seed=3)
    by_path.reset(seed=3)
    assert by_name.possible_agents == by_path.possible_agents
    seen = [e.observe(e.agent_selection) for e in (by_name, by_path)]
    assert seen[0].keys() == seen[1].keys()
    assert all(np.array_equal(seen[0][key], seen[1][key]) for key in seen[0])
