"""The information-state tensor of the OpenSpiel adapter: for each of the seat's last ``history``
events its observation tensor after it and its own actions in it, then its choices in progress
(needs the [openspiel] extra)."""
from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np                                                            # noqa: E402

from open_spiel.python import policy, rl_environment                          # noqa: E402
from open_spiel.python.algorithms import get_all_states, tabular_qlearner     # noqa: E402
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation   # noqa: E402

from interpreter.adapters.openspiel import load_game                          # noqa: E402
from interpreter.adapters.action_session import DEFAULT_HISTORY, Setup               # noqa: E402
from interpreter.errors import OptionError                                    # noqa: E402
from tests.helpers import GAMES                                               # noqa: E402

KUHN_LAYOUT, KUHN_ACTIONS = 46, 2          # the observation tensor's layout part, the (flat) action space
KUHN_ROW = KUHN_LAYOUT + KUHN_ACTIONS       # an event: the view after it, the seat's actions in it


def kuhn(history=4, **params):
    return load_game(GAMES / "kuhn_poker.yaml", history=history, **params)


def played(game, actions):
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def every_state(state):
    yield state
    if not state.is_terminal():
        for action in state.legal_actions():
            yield from every_state(state.child(action))


def test_the_tensor_size_is_history_times_the_layout_and_actions_plus_the_actions():
    assert kuhn().information_state_tensor_shape() == [4 * KUHN_ROW] == [192]     # flat: no choices in progress
    assert kuhn().information_state_tensor_size() == 192
    assert kuhn(history=1).information_state_tensor_size() == 48
    assert kuhn(actions="factored").information_state_tensor_size() == 4 * (46 + 27) + 27 == 319
    assert DEFAULT_HISTORY == 32
    assert load_game(GAMES / "kuhn_poker.yaml").information_state_tensor_size() == 32 * 48 == 1536
    assert kuhn().get_type().provides_information_state_tensor


def test_the_parameter_is_read_by_pyspiel_and_checked():
    game = pyspiel.load_game("rules", {"path": str(GAMES / "kuhn_poker.yaml"), "history": 4})
    assert game.information_state_tensor_size() == 192
    assert pyspiel.load_game(str(game)).information_state_tensor_size() == 192
    with pytest.raises(OptionError, match="history must be at least 1, not 0"):
        Setup.from_file(GAMES / "kuhn_poker.yaml", None, None, history=0)


def test_over_every_kuhn_state_tensors_are_equal_exactly_where_information_states_are():
    by_string, by_tensor = {}, {}
    for state in every_state(kuhn().new_initial_state()):
        if state.is_chance_node():
            continue
        for seat in (0, 1):
            text, tensor = state.information_state_string(seat), tuple(state.information_state_tensor(seat))
            by_string.setdefault(text, set()).add(tensor)
            by_tensor.setdefault(tensor, set()).add(text)
    assert len(by_string) == len(by_tensor) == 72           # each seat's, where it acts and where it waits
    assert all(len(tensors) == 1 for tensors in by_string.values())
    assert all(len(texts) == 1 for texts in by_tensor.values())


def test_a_kuhn_game_is_at_most_four_events_the_deal_and_three_moves():
    longest = max(sum(event[0] == "seen" for event in state.session.trail)
                  for state in every_state(kuhn().new_initial_state()))
    assert longest == 4


def test_the_tensor_of_a_known_position():
    state = played(kuhn(), [5, 0])            # P1 holds K, P2 holds Q; P1 passes
    tensor = np.array(state.information_state_tensor(1))
    events, choosing = tensor[:4 * 48].reshape(4, 48), tensor[4 * 48:]
    # Per event: seat 0-1, current 2-4, phase 5, round 6, over 7, zone:stock 8-16,
    # zone:hand 17-34 (per pile: counts of J, Q, K, hidden, then the top over [empty, hidden, J, Q, K]),
    # vars 35-45 (high, acts, then each seat's put and folded, ...).
    assert list(np.flatnonzero(events[0])) == [1, 2, 5, 6, 11, 13, 20, 22, 27, 33, 35, 37, 39]    # the deal: P1 to act
    assert list(np.flatnonzero(events[1])) == [1, 3, 5, 6, 11, 13, 20, 22, 27, 33, 35, 36, 37, 39]  # P1 passed
    assert list(events[0][17:35]) == [0, 0, 0, 1, 0, 1, 0, 0, 0,     # P1's card, hidden
                                      0, 1, 0, 0, 0, 0, 0, 1, 0]     # P2's own Q
    assert not events[2:].any() and not choosing.any()              # two events to come, no choice in progress
    assert set(tensor) == {0.0, 1.0}
    mine = np.array(state.information_state_tensor(0)).reshape(4, 48)
    assert list(np.flatnonzero(mine[0][46:])) == [] and list(np.flatnonzero(mine[1][46:])) == [0]   # P1's pass


def test_the_rows_are_the_seats_observation_tensors_and_the_choices_in_progress_end_it():
    game = kuhn()
    state = played(game, [5, 0])
    after_deal = played(game, [5]).observation_tensor(1)[:46]
    assert state.information_state_tensor(1)[:46] == after_deal
    assert state.information_state_tensor(1)[48:94] == state.observation_tensor(1)[:46]
    assert len(state.information_state_tensor(1)) == 192 and len(state.observation_tensor(1)) == 46
    factored = played(kuhn(actions="factored"), [5, 0])
    assert factored.information_state_tensor(1)[292:] == factored.observation_tensor(1)[46:]


def test_another_seats_hidden_card_leaves_the_tensor_as_it_is():
    game = kuhn()
    for line in ([], [0], [0, 1], [1, 0]):
        holds_q, holds_j = played(game, [5] + line), played(game, [4] + line)    # P2: Q or J, P1: K
        assert holds_q.information_state_tensor(0) == holds_j.information_state_tensor(0)
        assert holds_q.information_state_tensor(1) != holds_j.information_state_tensor(1)


def test_a_resampled_game_keeps_the_seats_tensor():
    state = played(kuhn(), [5])
    session = state.session
    dealt_again = []
    for seed in range(6):
        other, mine = session.resampled(0, seed), session.clone()
        assert other.information_state_tensor(0) == mine.information_state_tensor(0)
        for game in (mine, other):
            game.apply(0)                   # P1 passes
        assert other.information_state_tensor(0) == mine.information_state_tensor(0)
        changed = other.state.zones["hand"][1] != mine.state.zones["hand"][1]
        assert changed == (other.information_state_tensor(1) != mine.information_state_tensor(1))
        dealt_again.append(changed)
    assert True in dealt_again


def test_the_perfect_recall_observer_gives_the_tensor_in_two_pieces():
    game = kuhn()
    state = played(game, [5, 0])
    observation = make_observation(game, INFO_STATE_OBS_TYPE)
    observation.set_from(state, 1)
    assert list(observation.tensor) == state.information_state_tensor(1)
    assert observation.dict["events"].shape == (4, 48) and observation.dict["choosing"].shape == (0,)
    assert observation.string_from(state, 1) == state.information_state_string(1)


def test_openspiels_tabular_policy_reads_one_tensor_per_information_state():
    game = kuhn()
    tabular = policy.TabularPolicy(game)
    assert tabular.state_in.shape == (12, 192)
    assert len({tuple(row) for row in tabular.state_in}) == 12
    states = get_all_states.get_all_states(game, include_terminals=True, include_chance_states=True)
    assert len(states) == 55                # one chance node deals both cards


def test_openspiels_q_learner_keyed_by_the_tensor_meets_six_states_per_seat():
    game = kuhn(returns="results", min_utility=-2, max_utility=2, zero_sum=True)
    np.random.seed(0)
    # The deals seeded too: given a game object, the environment takes no seed of its own.
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=0))
    assert env.observation_spec()["info_state"] == (192,)
    agents = [tabular_qlearner.QLearner(seat, game.num_distinct_actions()) for seat in (0, 1)]
    for _ in range(300):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([agents[seat].step(step).action])
        for agent in agents:
            agent.step(step)
    assert [len(agent._q_values) for agent in agents] == [6, 6]       # a card, and the bets so far


def test_past_its_history_the_tensor_holds_the_last_events_in_the_reported_shape():
    game = load_game(GAMES / "dice_poker.yaml", 2, history=3, max_moves=12)
    layout, actions_size = game.setup.layout.size, game.setup.actions.size
    row, size = layout + actions_size, game.information_state_tensor_size()
    assert game.information_state_tensor_shape() == [size] == [3 * (81 + 183) + 183]
    state, rng = game.new_initial_state(), random.Random(3)
    seen: list[list[list[float]]] = [[], []]        # each seat's row of each event
    chosen: list[tuple[int, int]] = []              # the actions of the event in progress, by seat
    while not state.is_terminal():
        actions, player = state.legal_actions(), state.current_player()
        action = rng.choice(actions) if not state.is_chance_node() else rng.randrange(len(actions))
        state.apply_action(action)
        chosen.append((player, action))
        if state.is_chance_node() or state.session.prefix:
            continue                                     # the event is not over yet
        for seat in (0, 1):
            mine = [0.0] * actions_size
            for a in (a for p, a in chosen if p == seat):
                mine[a] = 1.0
            seen[seat].append(state.observation_tensor(seat)[:layout] + mine)
            tensor = state.information_state_tensor(seat)
            assert len(tensor) == size
            last = [x for r in seen[seat][-3:] for x in r]
            assert tensor[:len(last)] == last and not any(tensor[len(last):3 * row])
        chosen.clear()
    assert len(seen[0]) > 3 and state.session.moves == 12
    assert any(any(r[layout:]) for r in seen[0]) and any(any(r[layout:]) for r in seen[1])


def test_a_state_read_back_keeps_its_tensor_and_goes_on_as_the_original():
    game = load_game(GAMES / "dice_poker.yaml", 2, history=3, max_moves=12)
    state, rng = game.new_initial_state(), random.Random(5)
    while state.session.moves < 6:
        state.apply_action(rng.choice(state.legal_actions()))
    copies = [pickle.loads(pickle.dumps(state)),
              pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]]
    for copy in copies:
        assert [copy.information_state_tensor(s) for s in (0, 1)] == [state.information_state_tensor(s) for s in (0, 1)]
    for _ in range(8):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        for game_state in [state] + copies:
            game_state.apply_action(action)
        for copy in copies:
            assert copy.information_state_tensor(0) == state.information_state_tensor(0)
            assert copy.information_state_tensor(1) == state.information_state_tensor(1)


def test_copies_share_the_tensors_of_their_past_events():
    """Each seat's view of an event is encoded once for all the copies holding it."""
    game = kuhn()
    encoded = []
    layout = game.setup.layout
    encode = layout.encode
    layout.encode = lambda seen, seat: encoded.append(seat) or encode(seen, seat)
    try:
        events = {}                     # by identity, each kept alive while counted
        for state in every_state(game.new_initial_state()):
            for seat in (0, 1):
                state.information_state_tensor(seat)
            events.update((id(event), event) for event in state.session.trail if event[0] == "seen")
    finally:
        del layout.encode
    assert len(encoded) == 2 * len(events)


def test_openspiels_random_simulation_checks_the_tensor_past_its_history():
    game = load_game(GAMES / "last_card.yaml", 2, history=5, max_moves=20)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
