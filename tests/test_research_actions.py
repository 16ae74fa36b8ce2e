"""Integer actions, explicit chance and observations for researchers (no extra needed)."""
from __future__ import annotations

import json
import pickle
import random
import sys

import pytest

from interpreter.adapters.action_session import CHANCE, TERMINAL, ActionSession, Setup
from interpreter.engine import rng
from interpreter.engine.actions import ActionSpace
from interpreter.engine.chance import ChanceStep
from interpreter.engine.moves import Move
from interpreter.engine.observe import observation_text
from interpreter.engine.views import view
from interpreter.errors import OptionError, RulesError
from interpreter.api import load_game
from tests.helpers import load


def kuhn(**settings) -> Setup:
    """Kuhn poker's setup, its moves entered choice by choice (the factored space) unless asked."""
    return Setup(load("kuhn_poker"), **{"actions": "factored", **settings})


def test_the_action_space_is_moves_end_values_cards_seats_and_piles():
    assert kuhn().actions.texts == [
        "pass", "bet", "end", "none", "no", "yes", "0", "1", "2", "3",
        "J", "K", "Q", "acts", "folded", "game", "high", "put", "seat",        # texts the file writes
        "J", "Q", "K", "P1", "P2", "stock", "hand[P1]", "hand[P2]"]


def test_every_legal_move_goes_to_actions_and_back():
    game = load("last_card")
    state = game.new_state(players=2, seed=3)
    space = ActionSpace(game.game, state)
    for _ in range(30):
        if state.over:
            break
        moves = game.legal_moves(state)
        tree = space.tree(moves)
        for move in moves:
            assert tree.complete(space.encode(move)) == move
        assert tree.next_actions(()) == sorted({space.encode(m)[0] for m in moves})
        game.apply(state, moves[-1])
    assert state.moves >= 10


def test_a_list_value_is_its_elements_then_end():
    game = load("dice_poker")
    state = game.new_state(players=2, seed=1)
    game.apply(state, "throw")
    space = ActionSpace(game.game, state)
    move = next(m for m in game.legal_moves(state) if m.name == "rethrow" and len(m.args[0]) == 2)
    actions = space.encode(move)
    assert [space.text(a) for a in actions] == ["rethrow"] + [str(v) for v in move.args[0]] + ["end"]


def test_a_flat_space_holds_each_move_with_the_values_of_its_parameters_types():
    game = load("liars_dice")
    space = ActionSpace(game, game.new_state(2, 0), "flat")
    assert space.flat and space.size == 11 * 11 + 1 and space.end is None      # 0 to 10: the dice of both cups
    assert space.texts[:3] == ["bid 0 0", "bid 0 1", "bid 0 2"] and space.texts[-1] == "call"
    state = game.new_state(2, 0)
    for _ in range(6):
        moves = game.legal_moves(state)
        tree = space.tree(moves)
        assert all(len(space.encode(m)) == 1 and tree.complete(space.encode(m)) == m for m in moves)
        game.apply(state, moves[0])
    assert ActionSpace(game, state, "auto").flat


def test_a_text_parameter_drawn_from_a_list_written_out_takes_only_its_items():
    """Euchre's name_trump draws from '[s for s in suits if s != turned.suit]', suits a list written
    in the file: four actions, not one for each text the file quotes."""
    game = load("euchre", openspiel="true")
    space = ActionSpace(game, game.new_state(4, 0), "flat")
    assert [t for t in space.texts if t.startswith("name_trump")] == [
        "name_trump clubs", "name_trump diamonds", "name_trump hearts", "name_trump spades"]
    assert space.size == 56


def test_a_card_parameter_drawn_through_definitions_takes_only_the_cards():
    """Bridge's play draws from 'follow(cards_of(position))', definitions whose every branch gives
    a zone's cards or a filter of them: one action a card, 90 in all, as OpenSpiel's bridge."""
    bridge = load("bridge")
    space = ActionSpace(bridge, bridge.new_state(4, 0), "auto")
    assert space.flat and space.size == 90
    assert space.texts[:4] == ["pass", "double", "redouble", "bid 1C"] and space.texts[37] == "bid 7NT"
    assert space.texts[38:40] == ["play AC", "play 2C"] and space.texts[-1] == "play KS"


def test_a_parameter_whose_list_may_hold_other_things_than_cards_takes_every_value():
    """A definition with a branch that is not surely cards (here a list written out) leaves the
    parameter's type unknown: every value of the space is one of its actions."""
    text = """\
name: Branches
players: {min: 2, max: 2}
decks:
  main: {standard: true, zone: stock}
zones:
  stock: {face: down}
  hand: {per: seat, visible_to: owner}
define:
  own(cs): 'if len(cs) > 0 then sorted(cs) else []'
  mixed(cs): 'if len(cs) > 0 then cs else [len(cs)]'
setup:
  - deal: 2
    from: stock
    to: hand
flow:
  rounds: 1
  phases:
    - name: play
      turns: {from: 0, each: once}
      moves: [show, peek]
moves:
  show:
    params: {card: {from: 'own(hand.cards)'}}
    do: [end_turn]
  peek:
    params: {card: {from: 'mixed(hand.cards)'}}
    do: [end_turn]
scoring:
  score: 0
"""
    game = load_game("branches.yaml", text=text)
    space = ActionSpace(game, game.new_state(2, 0), "flat")
    shows = [t for t in space.texts if t.startswith("show ")]
    peeks = [t for t in space.texts if t.startswith("peek ")]
    assert len(shows) == 52 and shows[0] == "show AC"
    assert len(peeks) == len(space.texts) - 52 > 52 and "peek 0" in peeks and "peek AC" in peeks


def test_a_game_whose_moves_take_lists_has_no_flat_space():
    game = load("dice_poker")
    with pytest.raises(RulesError) as error:
        ActionSpace(game, game.new_state(2, 0), "flat")
    assert (error.value.message, error.value.hint) == \
        ("the action space cannot be flat: the move 'rethrow' takes a list", "use the factored space")
    assert not ActionSpace(game, game.new_state(2, 0), "auto").flat
    with pytest.raises(OptionError, match="actions must be one of factored, flat, auto, not 'flatter'"):
        Setup(game, actions="flatter")


def test_an_action_outside_the_space_is_refused_with_its_range():
    session = Setup(load("kuhn_poker")).new_session()
    session.apply(5)                # the deal
    with pytest.raises(ValueError, match=r"action 7 is not an action of this game \(0 to 1\)"):
        session.apply(7)


def test_a_value_outside_the_space_is_a_clear_error():
    game = load("kuhn_poker")
    space = ActionSpace(game.game, game.new_state())
    with pytest.raises(RulesError) as error:
        space.encode(Move(0, "bet", (3.5,), "bet 3.5"))
    assert error.value.message == ("action space: the value 3.5 of move 'bet 3.5' is not among the game's actions "
                                   "(numbers and texts come from those written in the game file)")


def test_the_setup_and_each_roll_are_explicit_chance_steps():
    setup = Setup(load("dice_poker"), 2)
    session = setup.new_session()
    assert (session.current_player(), session.step.bounds) == (CHANCE, [2])      # choose_random: first player
    session.apply(1)
    assert session.current_player() == 1
    session.apply(session.legal_actions()[0])                                    # throw
    assert (session.current_player(), session.step.bounds, session.step.count) == (CHANCE, [6] * 5, 7776)
    assert session.chance_outcomes()[0] == (0, 1 / 7776)
    session.apply(1234)                                                          # draws 0 5 4 1 4: faces 1 6 5 2 5
    assert session.state.dice == [1, 2, 5, 5, 6]


def test_a_shuffle_is_one_sampled_chance_step():
    session = Setup(load("last_card"), 2).new_session()
    assert (session.step.explicit, session.step.count, len(session.step.bounds)) == (False, 1024, 51)
    again = Setup(load("last_card"), 2).new_session()
    session.apply(7)
    again.apply(7)
    assert session.state == again.state


def test_draws_that_depend_on_earlier_draws_cannot_be_outcomes():
    step = ChanceStep([3, 2])
    with pytest.raises(RulesError, match="depend on its earlier draws"):
        step.run(lambda seed: rng.below(0, 5), 0, 1)        # a draw of 5 where the step drew 3


def test_kuhn_poker_played_as_actions():
    setup = kuhn(returns="results")
    session = setup.new_session()
    assert session.chance_outcomes() == [(o, 1 / 6) for o in range(6)]
    session.apply(5)
    assert session.state.zones["hand"] == [[2], [1]]        # P1 holds K, P2 holds Q
    ids = {text: i for i, text in enumerate(setup.actions.texts[:2])}
    session.apply(ids["pass"])
    session.apply(ids["bet"])
    assert session.current_player() == 0
    session.apply(ids["bet"])
    assert (session.current_player(), session.returns()) == (TERMINAL, [2.0, -2.0])


def test_an_illegal_action_is_refused():
    session = kuhn().new_session()
    session.apply(0)
    with pytest.raises(ValueError, match=r"action 2 \(end\) is not legal now"):
        session.apply(2)


def test_the_observation_is_the_seats_view_and_hides_the_other_hand():
    setup = Setup(load("last_card"), 2)
    session = setup.new_session()
    session.apply(11)
    state = session.state
    for seat in (0, 1):
        seen = {k: v for k, v in view(setup.game, state, seat).items() if k != "moves"}
        assert json.loads(session.observation_string(seat)) == seen
    swapped = session.clone()
    changed = session.state.clone()             # a session never changes its state in place: a new one
    hand, stock = changed.zones["hand"][1], changed.zones["stock"][0]
    hand[0], stock[0] = stock[0], hand[0]                    # another card in P2's hand, faces kept
    changed.face_up ^= {hand[0], stock[0]}
    swapped.state = changed
    assert swapped.observation_string(0) == session.observation_string(0)
    assert swapped.observation_tensor(0) == session.observation_tensor(0)
    assert swapped.observation_string(1) != session.observation_string(1)
    assert swapped.observation_tensor(1) != session.observation_tensor(1)


def test_the_tensor_layout_is_fixed_and_documented():
    setup = kuhn()
    assert setup.layout.sections == [("seat", 2), ("current", 3), ("phase", 1), ("round", 1), ("over", 1),
                                     ("dice", 0), ("zone:stock", 9), ("zone:hand", 18), ("vars", 11)]
    session = setup.new_session()
    session.apply(5)
    tensor = session.observation_tensor(0)
    assert len(tensor) == setup.layout.size + setup.actions.size == 46 + 27
    hand = tensor[17:35]                 # zone:hand: per pile 3 label counts, 1 hidden, 5 top one-hot
    # zone:hand, per pile: the counts of J, Q, K and of hidden cards, then the top over [empty, hidden, J, Q, K]
    assert hand == [0, 0, 1, 0, 0, 0, 0, 0, 1,    # P1 sees its K
                    0, 0, 0, 1, 0, 1, 0, 0, 0]    # and one hidden card in P2's hand


def test_the_information_state_holds_what_the_seat_saw_and_chose_only():
    setup = kuhn()
    a, b = setup.new_session(), setup.new_session()
    a.apply(5)
    b.apply(4)                      # P1 holds K in both; P2 holds Q in one, J in the other
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    k_q, j_q = setup.new_session(), setup.new_session()
    k_q.apply(5)
    j_q.apply(1)                    # P2 holds Q in both
    for session in (k_q, j_q):
        session.apply(0)            # P1 passes
    assert k_q.information_state_string(1) == j_q.information_state_string(1)
    passed_then_bet, bet = setup.new_session(), setup.new_session()
    for session, actions in ((passed_then_bet, [5, 0, 1]), (bet, [5, 1])):
        for action in actions:
            session.apply(action)
    assert passed_then_bet.information_state_string(0) != bet.information_state_string(0)


def test_copies_that_share_their_past_give_the_information_state_a_fresh_session_gives():
    """Copies share the events of their common past and the digests made up to them: whichever
    copy folds first, each gives what a session playing the same actions alone gives."""
    setup = Setup(load("last_card"), 2)
    r = random.Random(4)
    trunk = setup.new_session()
    branches = []
    for _ in range(30):
        if trunk.is_terminal():
            break
        branches.append(trunk.clone())
        trunk.information_state_string(r.randrange(2))        # some digests made, some not
        trunk.apply(r.choice(trunk.legal_actions()) if not trunk.is_chance() else 0)
    for branch in reversed(branches):
        if not branch.is_terminal():
            branch.apply(branch.legal_actions()[-1] if not branch.is_chance() else 0)
    for session in [trunk] + branches:
        alone = setup.new_session()
        for _, action in session.history:
            alone.apply(action)
        for seat in (1, 0):
            assert session.information_state_string(seat) == alone.information_state_string(seat)


def test_free_play_follows_the_clock_in_seat_order():
    setup = Setup(load("nerts", target=1), 3, information_state=False)
    session = setup.new_session()
    session.apply(0)
    r = random.Random(1)
    movers = []
    while len(movers) < 8 and not session.is_terminal():
        if session.is_chance():
            session.apply(0)
            continue
        if not session.prefix:
            movers.append(session.current_player())
        session.apply(r.choice(session.legal_actions()))
    assert session.state.current is None
    assert movers == [0, 1, 2, 0, 1, 2, 0, 1]


def test_a_game_past_its_cap_on_moves_is_stopped():
    setup = Setup(load("last_card"), 2, max_moves=3, information_state=False)
    session = setup.new_session()
    session.apply(0)
    while not session.is_terminal():
        session.apply(session.legal_actions()[0])
    assert (session.moves, session.stopped, sum(session.returns())) == (3, True, 0)


def test_a_session_pickles_as_its_state():
    setup = Setup.from_file("games/dice_poker.yaml", None, 2)
    session = setup.new_session()
    session.apply(0)
    session.apply(session.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(session))
    assert str(copy) == str(session) and copy.legal_actions() == session.legal_actions()
    assert copy.information_state_string(0) == session.information_state_string(0)
    copy.apply(42)
    session.apply(42)
    assert copy.state == session.state


def test_bad_settings_are_clear_errors():
    with pytest.raises(OptionError, match="returns must be one of ranking, results, not 'money'"):
        kuhn(returns="money")
    with pytest.raises(OptionError, match="max_moves must be at least 1, not 0"):
        kuhn(max_moves=0)


def test_observation_text_is_canonical_json():
    game = load("kuhn_poker")
    state = game.new_state(seed=2)
    text = observation_text(game.game, state, 0)
    assert text.startswith('{"card_labels":{},"current":0,"dice":[],"game":"Kuhn poker"')


@pytest.mark.parametrize("door, implementation, missing, message", [
    ("openspiel", "openspiel_game", "pyspiel", "the OpenSpiel adapter needs OpenSpiel: pip install 'tablerules[openspiel]'"),
    ("pettingzoo", "pettingzoo_env", "pettingzoo",
     "the PettingZoo adapter needs PettingZoo: pip install 'tablerules[pettingzoo]'"),
])
def test_an_adapter_without_its_extra_says_which_to_install(monkeypatch, door, implementation, missing, message):
    import importlib

    module = importlib.import_module(f"interpreter.adapters.{door}")
    monkeypatch.setitem(sys.modules, missing, None)                 # as if it were not installed
    monkeypatch.delitem(sys.modules, f"interpreter.adapters.{implementation}", raising=False)
    monkeypatch.delattr(importlib.import_module("interpreter.adapters"), implementation, raising=False)
    make = module.load_game if door == "openspiel" else module.env
    with pytest.raises(OptionError) as error:
        make("games/kuhn_poker.yaml")
    assert error.value.message == message


def test_a_resampled_game_keeps_what_the_seat_knows_and_deals_the_rest_again():
    setup = Setup(load("last_card"), 2)
    session = setup.new_session()
    session.apply(11)
    seat = session.current_player()
    other = session.resampled(seat, seed=4)
    assert other.observation_string(seat) == session.observation_string(seat)
    assert other.information_state_string(seat) == session.information_state_string(seat)
    assert other.legal_actions() == session.legal_actions()
    assert other.state.zones["hand"][1 - seat] != session.state.zones["hand"][1 - seat]
    with pytest.raises(ValueError, match="a game is resampled for the seat to act, not P2"):
        session.resampled(1, seed=4)


def test_a_seat_whose_cards_were_dealt_again_gets_its_own_information_state_after():
    setup = Setup(load("last_card"), 2)
    session = setup.new_session()
    session.apply(11)
    seat = session.current_player()
    other = session.resampled(seat, seed=4)
    while session.moves == 0:                   # one whole move, the same in both
        action = session.legal_actions()[0]
        for game in (session, other):
            game.apply(action)
    assert other.history == session.history
    assert session.information_state_string(1 - seat) != other.information_state_string(1 - seat)
    restored = ActionSession.from_json(setup, json.loads(json.dumps(other.to_json())))
    assert restored.information_state_string(1 - seat) == other.information_state_string(1 - seat)


def test_the_information_state_of_a_history_is_made_once():
    setup = kuhn()
    first, second = setup.new_session(), setup.new_session()
    for game in (first, second):
        game.apply(3)
        game.apply(0)
    made = first.information_state_string(1)
    assert set(setup.known_digests) == {(1, (CHANCE, 3), (0, 0))}
    second.chains[1] = "not folded again"
    assert second.information_state_string(1) == made
