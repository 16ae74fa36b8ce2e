"""Euchre (games/euchre.yaml with openspiel=true: one deal) played move for move beside OpenSpiel's
C++ euchre (needs the [openspiel] extra): the same deal in both, then at every decision the same seat to act and the same
legal moves (OpenSpiel's actions written in our notation), and at the end the same returns.

Both directions of the deal are checked: OpenSpiel's chance outcomes picked from our seeded
deal, and our deal fixed (``new_state(stack=..., choices=...)``) from OpenSpiel's sampled chance.
EUCHRE_GAMES=500 plays more games per test, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("EUCHRE_GAMES", "60"))
SUITS = ["clubs", "diamonds", "hearts", "spades"]          # OpenSpiel's order: C D H S
RANKS = ["9", "10", "J", "Q", "K", "A"]                    # OpenSpiel's order: 9 T J Q K A
PASS, GO_ALONE, WITH_PARTNER = 24, 29, 30
OPTIONS = [{}, {"allow_lone_defender": True}, {"stick_the_dealer": False},
           {"allow_lone_defender": True, "stick_the_dealer": False}]


def card_label(card: int) -> str:
    """OpenSpiel's card (rank * 4 + suit) as our label: 9C, 10D, JH, AS."""
    return RANKS[card // 4] + SUITS[card % 4][0].upper()


CARD_OF = {card_label(card): card for card in range(24)}


def our_text(theirs, action: int) -> str:
    """One of OpenSpiel's actions, in the state it is legal in, as our move's text."""
    phase = theirs.current_phase()
    if action == PASS:
        return "pass"
    if 25 <= action <= 28:
        return "order_up" if theirs.num_passes() < 4 else f"name_trump {SUITS[action - 25]}"
    if action == GO_ALONE:
        return "go_alone"
    if action == WITH_PARTNER:
        return "with_partner"
    verb = "discard" if phase == pyspiel.euchre.Phase.DISCARD else "play"
    return f"{verb} {card_label(action)}"


def hand_labels(ours, state, seat: int) -> list[str]:
    table = ours.game.card_table(state.players)
    return [table[c].label for c in state.zones["hand"][seat]]


def theirs_from_ours(ours, state, params: dict):
    """OpenSpiel's state dealt as ours was: our dealer, each seat's five cards in the order
    OpenSpiel deals them (the i-th card to the dealer's i-th seat on), then our turned card."""
    theirs = pyspiel.load_game("euchre", params).new_initial_state()
    dealer = state.vars["dealer"].index
    theirs.apply_action(dealer)
    hands = {seat: list(hand_labels(ours, state, seat)) for seat in range(4)}
    for i in range(20):
        theirs.apply_action(CARD_OF[hands[(dealer + i) % 4].pop()])
    theirs.apply_action(CARD_OF[str(state.vars["turned"])])
    return theirs


def ours_from_theirs(ours, params: dict, chance: random.Random):
    """OpenSpiel's chance sampled, and our deal fixed to match it: the dealer drawn, the stock
    stacked so that our deal (one card at a time from the dealer's left) gives the same hands,
    then the same turned card."""
    theirs = pyspiel.load_game("euchre", params).new_initial_state()
    while theirs.is_chance_node():
        actions, weights = zip(*theirs.chance_outcomes())
        theirs.apply_action(chance.choices(actions, weights)[0])
    dealer = theirs.dealer()
    holders = theirs.card_holder()
    hands = {seat: [card_label(c) for c in range(24) if holders[c] == seat] for seat in range(4)}
    order = [hands[(dealer + k) % 4][r] for r in range(5) for k in range(1, 5)]
    order.append(card_label(theirs.upcard()))
    state = ours.new_state(4, seed=0, stack={"stock": order}, choices={"dealer": f"P{dealer + 1}"})
    assert all(sorted(hand_labels(ours, state, s)) == sorted(hands[s]) for s in range(4))
    return state, theirs


def play_side_by_side(ours, state, theirs, choose: random.Random, passing: float = 0.0) -> int:
    """Play one game in both, a random legal action each decision (a pass with the probability
    ``passing`` when one is legal); the decisions made."""
    decisions = 0
    while not theirs.is_terminal():
        assert not state.over
        seat = theirs.current_player()
        assert state.current == seat, (decisions, theirs.history())
        texts = {our_text(theirs, a): a for a in theirs.legal_actions()}
        legal = {m.text for m in ours.legal_moves(state, seat)}
        assert legal == set(texts), (decisions, theirs.history())
        text = "pass" if "pass" in texts and choose.random() < passing else choose.choice(sorted(texts))
        theirs.apply_action(texts[text])
        ours.apply(state, text, seat)
        decisions += 1
    assert state.over
    assert ours.scores(state) == [int(r) for r in theirs.returns()]
    return decisions


@pytest.mark.parametrize("params", OPTIONS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_our_deal_played_beside_openspiels_euchre_gives_the_same_moves_and_returns(params):
    ours = load("euchre", openspiel="true", **{k: str(v).lower() for k, v in params.items()})
    choose = random.Random(1)
    for seed in range(GAMES_PER_TEST):
        state = ours.new_state(4, seed=seed)
        play_side_by_side(ours, state, theirs_from_ours(ours, state, params), choose)


def test_openspiels_deal_set_in_ours_gives_the_same_moves_and_returns():
    ours = load("euchre", openspiel="true", allow_lone_defender="true")
    chance, choose = random.Random(2), random.Random(3)
    for _ in range(GAMES_PER_TEST):
        state, theirs = ours_from_theirs(ours, {"allow_lone_defender": True}, chance)
        play_side_by_side(ours, state, theirs, choose)


def test_the_games_reach_every_score_openspiel_gives():
    """Every score of the makers OpenSpiel gives appears, in games where players often pass:
    euchred (-2, and -4 against a lone defender), 1, a march (2), a lone march (4), and no score
    after eight passes."""
    params = {"allow_lone_defender": True, "stick_the_dealer": False}
    ours = load("euchre", openspiel="true", allow_lone_defender="true", stick_the_dealer="false")
    choose, seen = random.Random(4), set()
    for seed in range(100):
        state = ours.new_state(4, seed=seed)
        theirs = theirs_from_ours(ours, state, params)
        play_side_by_side(ours, state, theirs, choose, passing=0.6)
        seen.add(0 if theirs.declarer() < 0 else ours.scores(state)[theirs.declarer()])
        if len(seen) == 6:
            break
    assert seen == {-4, -2, 0, 1, 2, 4}
