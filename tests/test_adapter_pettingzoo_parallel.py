"""Every game as a PettingZoo Parallel API environment: PettingZoo's own tests, the wait action,
illegal actions, races for a card in free play, and seeding (needs the [pettingzoo] extra)."""
from __future__ import annotations

import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import parallel_api_test, parallel_seed_test

from interpreter.adapters.pettingzoo import parallel_env
from interpreter.engine import legal_moves
from interpreter.errors import OptionError
from tests.helpers import GAMES

NERTS = {"target": "1"}
# (game, players, options, moves before a game is truncated, cycles of the tests)
GAMES_TESTED = [
    ("kuhn_poker", None, None, 10, 50),
    ("dice_poker", 2, None, 12, 60),
    ("nerts", 2, NERTS, 40, 80),
    ("nerts", 3, NERTS, 40, 80),
]
PER_SEAT_ZONES = ("nerts", "work", "stock", "waste")


def make(name, players=None, options=None, max_moves=10):
    return parallel_env(str(GAMES / f"{name}.yaml"), players, options=options, max_moves=max_moves)


def random_actions(env, observations, rng, *, waits=True):
    """A legal action for each agent, at random; with ``waits`` false, waiting only when it must."""
    actions = {}
    for agent in env.agents:
        legal = observations[agent]["action_mask"].nonzero()[0]
        moving = legal[legal != env.wait]
        pool = legal if waits or not len(moving) else moving
        actions[agent] = int(rng.choice(pool))
    return actions


def legal_ids(observation):
    return observation["action_mask"].nonzero()[0].tolist()


@pytest.mark.parametrize("name, players, options, max_moves, cycles", GAMES_TESTED,
                         ids=[f"{g[0]}-{g[1] or 'default'}" for g in GAMES_TESTED])
def test_parallel_api_and_seed_tests(name, players, options, max_moves, cycles):
    with warnings.catch_warnings():
        # PettingZoo warns of every observation that is a dict with an action mask, its own convention.
        warnings.simplefilter("ignore", UserWarning)
        parallel_api_test(make(name, players, options, max_moves), num_cycles=cycles)
        parallel_seed_test(lambda: make(name, players, options, max_moves), num_cycles=cycles)


def test_the_spaces_are_those_of_the_aec_environment_with_wait_at_the_end():
    from interpreter.adapters.pettingzoo import env
    parallel, aec = make("kuhn_poker"), env(str(GAMES / "kuhn_poker.yaml"), max_moves=10)
    assert parallel.possible_agents == aec.possible_agents == ["player_0", "player_1"]
    assert parallel.wait == aec.action_space("player_0").n == 2        # pass, bet: one action a move
    assert parallel.action_space("player_0").n == 3
    observations, infos = parallel.reset(seed=3)
    aec.reset(seed=3)
    for agent in parallel.agents:
        assert np.array_equal(observations[agent]["observation"], aec.observe(agent)["observation"])
        assert observations[agent]["observation"].dtype == np.float32
        assert observations[agent]["action_mask"].dtype == np.int8
        assert infos[agent] == {"illegal": False, "played": False, "lost_race": False, "cleared": False}


def test_in_a_turn_only_the_seat_to_act_has_moves_and_wait_is_always_legal():
    e = make("kuhn_poker")
    observations, _ = e.reset(seed=1)
    texts = e.setup.actions.texts
    assert (texts[0], texts[1]) == ("pass", "bet")
    assert {a: legal_ids(observations[a]) for a in e.agents} == {"player_0": [0, 1, 2], "player_1": [2]}


def test_an_illegal_action_is_a_wait_told_in_the_info():
    e = make("kuhn_poker")
    before, _ = e.reset(seed=1)
    observations, rewards, terminations, truncations, infos = e.step({"player_0": 5, "player_1": 1})
    assert infos["player_0"]["illegal"] and infos["player_1"]["illegal"]        # 5: no action; 1: not its turn
    assert not infos["player_0"]["played"]
    for agent in e.agents:
        assert np.array_equal(observations[agent]["observation"], before[agent]["observation"])
        assert legal_ids(observations[agent]) == legal_ids(before[agent])
    assert rewards == {"player_0": 0.0, "player_1": 0.0}
    assert not any(terminations.values()) and not any(truncations.values())

    observations, _, _, _, infos = e.step({"player_0": 1, "player_1": 0})      # P1 bets; P2 tried to pass
    assert infos["player_0"]["played"] and not infos["player_0"]["illegal"]
    assert infos["player_1"]["illegal"]
    assert legal_ids(observations["player_0"]) == [2] and legal_ids(observations["player_1"]) == [0, 1, 2]


def test_a_game_played_to_its_end_gives_the_rewards_once_and_removes_the_agents():
    e = make("kuhn_poker")
    e.reset(seed=3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        # Every agent always bets: the seat to act bets or calls, the other's bet is illegal.
        _, rewards, terminations, _, _ = e.step(dict.fromkeys(e.agents, 1))
        for agent, reward in rewards.items():
            totals[agent] += reward
    assert sorted(totals.values()) == [-1.0, 1.0]
    assert terminations == {"player_0": True, "player_1": True}
    assert e.agents == []
    assert e.step({}) == ({}, {}, {}, {}, {})


def shared_build(env):
    """Two seats with no move in progress and the same build among their legal moves: the seats
    and the build's move for each."""
    if any(env.prefixes):
        return None
    state, space = env.session.state, env.setup.actions
    legal = [{space.encode(m): m for m in legal_moves(env.setup.game, state, s) if m.name == "build"}
             for s in range(env.setup.players)]
    for first in range(env.setup.players):
        for second in range(first + 1, env.setup.players):
            for actions in sorted(set(legal[first]) & set(legal[second])):
                return first, second, actions, legal[first][actions], legal[second][actions]
    return None


def race_position(players, seed):
    """A game of Nerts played by seeded random moves up to two seats able to make the same build."""
    e = make("nerts", players, NERTS, 400)
    observations, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while e.agents:
        race = shared_build(e)
        if race is not None:
            return e, race
        observations = e.step(random_actions(e, observations, rng, waits=False))[0]
    raise AssertionError("no race found: try another seed")


def pile_of(state, card_id):
    return next((name, i) for name, piles in state.zones.items() for i, pile in enumerate(piles) if card_id in pile)


def own_piles(state, seat):
    owned = {}
    for name in PER_SEAT_ZONES:
        piles = state.zones[name]
        per = len(piles) // state.players
        owned[name] = piles[seat * per:(seat + 1) * per]
    return owned


# (seats, seed, the racing seats, the last seat to move before the race, the first on the clock)
RACES = [(2, 0, (0, 1), 1, 0), (2, 2, (0, 1), 0, 1), (3, 1, (0, 2), 0, 2)]


@pytest.mark.parametrize("players, seed, racing, last_mover, winner", RACES)
def test_two_seats_racing_for_one_foundation_the_first_on_the_clock_plays(players, seed, racing, last_mover, winner):
    e, (a, b, actions, move_a, move_b) = race_position(players, seed)
    assert ((a, b), e.session.last_mover) == (racing, last_mover)
    loser = b if winner == a else a
    losing_card = (move_a, move_b)[(a, b).index(loser)].args[0]
    winning_card = (move_a, move_b)[(a, b).index(winner)].args[0]
    target = move_a.args[-1]
    before = e.session.state
    agents = e.possible_agents
    for k, action in enumerate(actions):
        observations, _, _, _, infos = e.step({agents[a]: action, agents[b]: action})
        if k < len(actions) - 1:                                     # both still choosing
            assert not any(i["played"] or i["lost_race"] for i in infos.values())
    after = e.session.state
    assert infos[agents[winner]] == {"illegal": False, "played": True, "lost_race": False, "cleared": False}
    assert infos[agents[loser]] == {"illegal": False, "played": False, "lost_race": True, "cleared": False}
    assert after.zones[target.name][target.index][-1] == winning_card.id
    assert pile_of(after, losing_card.id) == pile_of(before, losing_card.id)
    assert own_piles(after, loser) == own_piles(before, loser)
    assert e.prefixes[loser] == ()
    loser_view = observations[agents[loser]]["observation"]
    assert not loser_view[e.setup.layout.size:].any()                # no move in progress
    assert e.session.last_mover == winner


def test_a_move_in_progress_that_no_legal_move_begins_any_more_is_cleared():
    e, (a, b, actions, _, _) = race_position(2, seed=0)
    agents = e.possible_agents
    for action in actions[:-1]:
        e.step({agents[a]: action, agents[b]: action})
    _, _, _, _, infos = e.step({agents[a]: actions[-1], agents[b]: e.wait})     # only a finishes
    prefix = actions[:-1]
    assert not any(e.setup.actions.encode(m)[:len(prefix)] == prefix
                   for m in legal_moves(e.setup.game, e.session.state, b))
    assert infos[agents[a]]["played"]
    assert infos[agents[b]] == {"illegal": False, "played": False, "lost_race": False, "cleared": True}
    assert e.prefixes[b] == ()


def test_a_move_in_progress_that_a_legal_move_still_begins_is_kept():
    e, (a, b, actions, _, _) = race_position(2, seed=0)
    agents = e.possible_agents
    e.step({agents[a]: actions[0], agents[b]: e.wait})
    _, _, _, _, infos = e.step({agents[a]: e.wait, agents[b]: actions[0]})
    assert not any(i["cleared"] for i in infos.values())
    assert e.prefixes[a] == e.prefixes[b] == actions[:1]


def test_a_seat_sees_its_own_move_in_progress_and_not_another_seats():
    waiting, choosing = make("nerts", 2, NERTS, 40), make("nerts", 2, NERTS, 40)
    seen, _ = waiting.reset(seed=5)
    choosing.reset(seed=5)
    first = legal_ids(seen["player_1"])[0]
    assert first != waiting.wait
    quiet, *_ = waiting.step({"player_0": waiting.wait, "player_1": waiting.wait})
    busy, *_ = choosing.step({"player_0": choosing.wait, "player_1": first})
    assert np.array_equal(quiet["player_0"]["observation"], busy["player_0"]["observation"])
    assert np.array_equal(quiet["player_0"]["action_mask"], busy["player_0"]["action_mask"])
    mine = busy["player_1"]["observation"][choosing.setup.layout.size:]
    assert mine.nonzero()[0].tolist() == [first]


@pytest.mark.parametrize("name, players, options, max_moves", [
    ("dice_poker", 2, None, 30), ("nerts", 3, NERTS, 60)])
def test_the_same_seed_and_actions_give_the_same_game(name, players, options, max_moves):
    one, two = make(name, players, options, max_moves), make(name, players, options, max_moves)
    seen_one, _ = one.reset(seed=11)
    seen_two, _ = two.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(200):
        for agent in one.agents:
            assert np.array_equal(seen_one[agent]["observation"], seen_two[agent]["observation"])
            assert np.array_equal(seen_one[agent]["action_mask"], seen_two[agent]["action_mask"])
        if not one.agents:
            break
        actions = random_actions(one, seen_one, rng)
        seen_one, *rest_one = one.step(actions)
        seen_two, *rest_two = two.step(actions)
        assert rest_one == rest_two
    assert one.agents == two.agents


@pytest.mark.parametrize("name, players, options, max_moves", [
    ("kuhn_poker", None, None, 10), ("dice_poker", 2, None, 40), ("nerts", 2, NERTS, 60)])
def test_a_random_game_ends_for_every_agent(name, players, options, max_moves):
    e = make(name, players, options, max_moves)
    observations, _ = e.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = set()
    for _ in range(20 * max_moves):
        if not e.agents:
            break
        observations, _, terminations, truncations, _ = e.step(random_actions(e, observations, rng))
        ended |= {a for a in terminations if terminations[a] or truncations[a]}
    assert e.agents == []
    assert ended == set(e.possible_agents)


def test_without_pettingzoo_the_parallel_environment_says_which_extra_to_install(monkeypatch):
    import importlib

    monkeypatch.setitem(sys.modules, "pettingzoo", None)                 # as if it were not installed
    monkeypatch.delitem(sys.modules, "interpreter.adapters.pettingzoo_parallel", raising=False)
    monkeypatch.delattr(importlib.import_module("interpreter.adapters"), "pettingzoo_parallel", raising=False)
    with pytest.raises(OptionError) as error:
        make("kuhn_poker")
    assert error.value.message == "the PettingZoo adapter needs PettingZoo: pip install 'tablerules[pettingzoo]'"
