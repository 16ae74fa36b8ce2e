"""Every game as an OpenSpiel game, checked by OpenSpiel's own tests (needs the [openspiel] extra)."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np                                                            # noqa: E402

from open_spiel.python import policy                                          # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts    # noqa: E402

from interpreter.adapters.openspiel import load_game                          # noqa: E402
from interpreter.adapters.openspiel import resampler                          # noqa: E402
from interpreter.adapters.action_session import Setup                                # noqa: E402
from interpreter.bots.agents import make_bot                                  # noqa: E402
from interpreter.engine import legal_moves                                     # noqa: E402
from tests.helpers import GAMES                                               # noqa: E402

# (game, players, options, simulations, moves before a game is stopped): small, so that each runs
# in seconds; Nerts is free play, played on the clock in seat order (see docs/research.md).
SIMULATED = [
    ("kuhn_poker", None, "", 3, 10),
    ("last_card", 2, "", 2, 40),
    ("crazy_eights", 2, "", 1, 30),
    ("dice_poker", 2, "", 1, 12),
    ("gnoming_a_round_two_players", None, "", 1, 15),
    ("gnoming_a_round", 3, "", 1, 12),
    ("schmier", None, "", 1, 12),
    ("euchre", None, "", 2, 40),
    ("nerts", 2, "target:1", 1, 12),
    ("liars_dice", 2, "", 2, 30),
]


@pytest.mark.parametrize("name, players, options, sims, max_moves", SIMULATED, ids=[s[0] for s in SIMULATED])
def test_random_simulation_with_serialisation(name, players, options, sims, max_moves):
    game = load_game(GAMES / f"{name}.yaml", players, options=options, max_moves=max_moves)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_a_game_with_a_flat_space_also_plays_its_moves_choice_by_choice():
    game = load_game(GAMES / "euchre.yaml", max_moves=40, actions="factored", options={"openspiel": "true"})
    assert game.num_distinct_actions() == 155
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_in_a_flat_space_each_move_is_one_decision():
    """Euchre as OpenSpiel's own: one action a card played; a whole deal plays as many decisions
    as the engine plays moves."""
    game = load_game(GAMES / "euchre.yaml", options={"openspiel": "true"})
    assert game.num_distinct_actions() == 56     # a card played, a card discarded, four suits named...
    state, rng = game.new_initial_state(), random.Random(4)
    decisions = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            decisions += 1
            texts = [state.action_to_string(a) for a in state.legal_actions()]
            assert all(" " not in t or t.split()[0] in ("play", "discard", "name_trump") for t in texts)
        state.apply_action(rng.choice(state.legal_actions()))
    assert decisions == state.session.moves
    plays = [a for a in range(56) if game.setup.actions.text(a).startswith("play ")]
    assert len(plays) == 24 and game.setup.actions.text(plays[0]) == "play AC"


def test_the_game_loads_from_its_string():
    game = load_game(GAMES / "kuhn_poker.yaml")
    again = pyspiel.load_game(str(game))
    assert (again.num_distinct_actions(), again.num_players(), again.max_chance_outcomes()) == (2, 2, 10_000)
    factored = pyspiel.load_game(str(load_game(GAMES / "kuhn_poker.yaml", actions="factored")))
    assert factored.num_distinct_actions() == 27
    state = again.new_initial_state()
    state.apply_action(5)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass", "bet"]
    assert pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(again, state))[1].history() == [5]


def kuhn_games():
    ours = load_game(GAMES / "kuhn_poker.yaml", returns="results", min_utility=-2, max_utility=2, zero_sum=True)
    return ours, pyspiel.load_game("kuhn_poker")


def test_cfr_on_kuhn_poker_matches_openspiels_own_kuhn_poker():
    ours, theirs = kuhn_games()
    found = []
    for game in (ours, theirs):
        solver = cfr.CFRSolver(game)
        for _ in range(8):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        found.append((len(average.state_lookup), exploitability.exploitability(game, average)))
    assert found[0][0] == found[1][0] == 12                     # information states
    assert found[0][1] == pytest.approx(found[1][1], abs=1e-12)
    uniform = [exploitability.exploitability(g, policy.UniformRandomPolicy(g)) for g in (ours, theirs)]
    assert uniform[0] == pytest.approx(uniform[1], abs=1e-12) == pytest.approx(0.4583333333)


def play_against_greedy(game, bot, seed=0):
    """OpenSpiel's ``bot`` at seat 0, our greedy bot at seat 1; chance drawn from ``seed``."""
    setup: Setup = game.setup
    ours = make_bot("greedy", setup.game, 1, seed=seed)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            session = state.session
            move = ours.choose(session.state, legal_moves(setup.game, session.state, 1))
            for action in setup.actions.encode(move)[len(session.prefix):]:
                state.apply_action(action)
    return state


def test_openspiels_mcts_plays_against_our_bot():
    game = load_game(GAMES / "dice_poker.yaml", 2, max_moves=6)         # no hidden cards: MCTS plays fair
    evaluator = mcts.RandomRolloutEvaluator(1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=4, evaluator=evaluator, random_state=np.random.RandomState(0))
    state = play_against_greedy(game, bot)
    assert state.session.moves == 6 and sum(state.returns()) == 0


def test_openspiels_ismcts_plays_against_our_bot_on_resampled_hands():
    game = load_game(GAMES / "last_card.yaml", 2, max_moves=10)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(0))
    bot.set_resampler(resampler(0))
    state = play_against_greedy(game, bot)
    assert state.session.moves == 10 and sum(state.returns()) == 0


def test_a_bundled_game_is_loaded_by_its_name():
    by_name, by_path = load_game("kuhn_poker"), load_game(str(GAMES / "kuhn_poker.yaml"))
    assert by_name.num_distinct_actions() == by_path.num_distinct_actions()
    assert by_name.new_initial_state().legal_actions() == by_path.new_initial_state().legal_actions()
