"""Contract bridge (games/bridge.yaml with `openspiel=true`) played move for move beside OpenSpiel's
C++ bridge with `use_double_dummy_result=false` (needs the [openspiel] extra): the same deal in
both, then at every decision the same seat to act (the declarer at the dummy's turns too) and the
same legal moves (OpenSpiel's actions written in our notation: `Pass` is `pass`, `Dbl` `double`,
`RDbl` `redouble`, `1♣` `bid 1C`, a card `♥Q` `play QH`), and at the end the same returns (each
side's score, the declarer side's duplicate score or its opposite; 0 for a passed-out deal).

Both directions of the deal are checked: OpenSpiel's chance outcomes (the k-th card to seat k % 4)
stacked on our deck with ``new_state(stack=...)``, and our seeded deal fed to OpenSpiel as its
chance outcomes. Each game passes with a probability drawn per game, so that auctions are short and
long, doubled and redoubled, and some deals are passed out. BRIDGE_GAMES=2000 plays more games per
test, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("BRIDGE_GAMES", "30"))
SUITS = "CDHS"                                             # OpenSpiel's order: C D H S
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
STRAINS = ["C", "D", "H", "S", "NT"]
BIDDING_BASE = 52                                          # 52 Pass, 53 Dbl, 54 RDbl, 55 1C ... 89 7NT
PARAMS = [{}, {"dealer_vul": True}, {"non_dealer_vul": True},
          {"dealer": 1, "dealer_vul": True, "non_dealer_vul": True}, {"dealer": 2, "non_dealer_vul": True},
          {"dealer": 3, "dealer_vul": True}]


def card_label(card: int) -> str:
    """OpenSpiel's card (rank * 4 + suit, rank 0 the two) as our label: 2C, 10D, QH, AS."""
    return RANKS[card // 4] + SUITS[card % 4]


CARD_OF = {card_label(card): card for card in range(52)}


def our_text(action: int) -> str:
    """One of OpenSpiel's actions as our move's text."""
    if action < BIDDING_BASE:
        return "play " + card_label(action)
    call = action - BIDDING_BASE
    if call < 3:
        return ["pass", "double", "redouble"][call]
    return f"bid {(call - 3) // 5 + 1}{STRAINS[(call - 3) % 5]}"


def openspiel_game(params: dict):
    return pyspiel.load_game("bridge", {"use_double_dummy_result": False, **params})


def ours_for(params: dict):
    return load("bridge", openspiel="true", **{k: str(v).lower() for k, v in params.items()})


def hand_labels(ours, state, seat: int) -> list[str]:
    table = ours.game.card_table(state.players)
    return [table[c].label for c in state.zones["hand"][seat]]


def ours_from_theirs(ours, params: dict, chance: random.Random):
    """OpenSpiel's deal sampled, and our deck stacked so that our deal (one card at a time from
    P1, North) gives each seat the same cards."""
    theirs = openspiel_game(params).new_initial_state()
    dealt = []
    while theirs.is_chance_node():
        actions, weights = zip(*theirs.chance_outcomes())
        dealt.append(chance.choices(actions, weights)[0])
        theirs.apply_action(dealt[-1])
    state = ours.new_state(4, seed=0, stack={"stock": [card_label(c) for c in dealt]})
    for seat in range(4):
        assert sorted(hand_labels(ours, state, seat)) == sorted(card_label(c) for c in dealt[seat::4])
    return state, theirs


def theirs_from_ours(ours, state, params: dict):
    """OpenSpiel's state dealt as ours was: its k-th chance outcome a card of seat k % 4."""
    theirs = openspiel_game(params).new_initial_state()
    hands = {seat: hand_labels(ours, state, seat) for seat in range(4)}
    for k in range(52):
        theirs.apply_action(CARD_OF[hands[k % 4].pop()])
    return theirs


def play_side_by_side(ours, state, theirs, choose: random.Random, passing: float) -> str:
    """Play one deal in both, a random legal action each decision (a pass with the probability
    ``passing`` when one is legal); the contract as OpenSpiel writes it."""
    decisions = 0
    while not theirs.is_terminal():
        assert not state.over
        seat = theirs.current_player()
        assert state.current == seat, (decisions, theirs.history())
        texts = {our_text(a): a for a in theirs.legal_actions()}
        legal = [m.text for m in ours.legal_moves(state, seat)]
        assert sorted(legal) == sorted(texts), (decisions, theirs.history())
        assert len(legal) == len(texts)
        text = "pass" if "pass" in texts and choose.random() < passing else choose.choice(sorted(texts))
        theirs.apply_action(texts[text])
        ours.apply(state, text, seat)
        decisions += 1
    assert state.over
    assert ours.scores(state) == [int(r) for r in theirs.returns()], (theirs.history(), str(theirs))
    return str(theirs).splitlines()[-1]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_openspiels_deal_set_in_ours_gives_the_same_moves_and_returns(params):
    ours = ours_for(params)
    chance, choose = random.Random(11), random.Random(12)
    for _ in range(GAMES_PER_TEST):
        state, theirs = ours_from_theirs(ours, params, chance)
        play_side_by_side(ours, state, theirs, choose, passing=choose.choice([0.3, 0.6, 0.8, 0.95]))


def test_our_deal_played_beside_openspiels_bridge_gives_the_same_moves_and_returns():
    params = {"dealer_vul": True}
    ours = ours_for(params)
    choose = random.Random(5)
    for seed in range(GAMES_PER_TEST):
        state = ours.new_state(4, seed=seed)
        play_side_by_side(ours, state, theirs_from_ours(ours, state, params), choose,
                          passing=choose.choice([0.5, 0.8, 0.9]))


def test_the_dummy_is_seen_by_all_after_the_opening_lead_and_the_declarer_plays_it():
    ours = ours_for({})
    chance, choose = random.Random(21), random.Random(22)
    checked = 0
    while checked < 5:
        state, theirs = ours_from_theirs(ours, {}, chance)
        texts = {our_text(a): a for a in theirs.legal_actions()}
        text = choose.choice([t for t in texts if t.startswith("bid")])
        for t in [text, "pass", "pass", "pass"]:
            theirs.apply_action({our_text(a): a for a in theirs.legal_actions()}[t])
            ours.apply(state, t)
        declarer = state.vars["declarer_seat"].index
        dummy = (declarer + 2) % 4
        leader = (declarer + 1) % 4
        assert state.current == leader == theirs.current_player()
        view = ours.view(state, leader)
        assert all(card is None for card in view["zones"]["hand"][dummy])      # not yet laid down
        opening = theirs.legal_actions()[0]
        theirs.apply_action(opening)
        ours.apply(state, our_text(opening))
        # The dummy's turn: OpenSpiel's current player is the declarer, who plays the dummy's cards.
        assert state.current == declarer == theirs.current_player()
        for seat in range(4):
            shown = ours.view(state, seat)["zones"]["dummy"][0]      # the one shared pile
            assert None not in shown and len(shown) == 13
        assert sorted(m.text for m in ours.legal_moves(state, declarer)) == sorted(
            our_text(a) for a in theirs.legal_actions())
        checked += 1


def test_the_games_reach_the_scores_openspiel_gives():
    """Passed-out deals, contracts made and set, undoubled, doubled and redoubled, all appear: the
    auctions open at the one level and double and redouble often, then the cards are played at
    random."""
    params = {"dealer_vul": True}
    ours = ours_for(params)
    chance, choose = random.Random(31), random.Random(32)
    seen = set()
    for _ in range(300):
        state, theirs = ours_from_theirs(ours, params, chance)
        opening, odds = choose.random() < 0.9, choose.choice([0.0, 0.5, 0.9])
        while not theirs.is_terminal():
            seat = theirs.current_player()
            texts = {our_text(a): a for a in theirs.legal_actions()}
            assert sorted(m.text for m in ours.legal_moves(state, seat)) == sorted(texts)
            if "bid 1C" in texts:            # nobody has bid: open, or pass
                text = choose.choice([t for t in texts if t.startswith("bid 1")]) if opening else "pass"
            elif "redouble" in texts and choose.random() < odds:
                text = "redouble"
            elif "double" in texts and choose.random() < odds:
                text = "double"
            elif "pass" in texts:
                text = "pass"
            else:
                text = choose.choice(sorted(texts))
            theirs.apply_action(texts[text])
            ours.apply(state, text, seat)
        assert ours.scores(state) == [int(r) for r in theirs.returns()]
        level, doubling, declarer = state.vars["level"], state.vars["doubling"], state.vars["declarer_seat"]
        made = level > 0 and ours.scores(state)[declarer.index] > 0
        seen.add("passed out" if level == 0 else f"{'made' if made else 'set'} x{doubling}")
        if len(seen) == 7:
            break
    assert seen == {"passed out", "made x1", "set x1", "made x2", "set x2", "made x4", "set x4"}
