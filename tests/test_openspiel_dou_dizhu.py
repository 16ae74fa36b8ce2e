"""Dou dizhu (games/dou_dizhu.yaml with openspiel=true: one deal) played move for move beside
OpenSpiel's C++ dou_dizhu (needs the [openspiel] extra).

OpenSpiel's chance is sampled (the position of the card turned up, then the 51 cards dealt one at
a time from P1) and forced on ours: the stock stacked in OpenSpiel's order of dealing, the three
cards left over under them, and the turned-up position as our ``face_up`` choice. Then, at every
decision, the same seat to act, the same hand (OpenSpiel's observation string), and the same legal
moves, compared as sets (OpenSpiel sorts its action ids; we list by kind of combination), with
OpenSpiel's actions written in our notation by ``our_text`` (its '333444-56' is our
``play 3 3 3 4 4 4 - 5 6``); at the end the same returns (our
score of the one deal is OpenSpiel's return). DOU_DIZHU_GAMES=2000 plays more games, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("DOU_DIZHU_GAMES", "60"))

# OpenSpiel's action ids (dou_dizhu_utils.h).
PASS = 0
TRIO_WITH_SOLO, AIRPLANE = 133, 471            # trios with a kicker: [133, 471)
ROCKET = 26056
RANK_CHARS = "3456789TJQKA2"                    # OpenSpiel's ranks 0..12; 13, 14 the jokers
OUR_RANK_NAMES = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
SUITS = "CDHS"


def card_label(card: int) -> str:
    """OpenSpiel's card (suit * 13 + rank; 52 the black joker, 53 the coloured one) as our label."""
    if card >= 52:
        return "Jk1" if card == 52 else "Jk2"
    return OUR_RANK_NAMES[card % 13] + SUITS[card // 13]


def plain(text: str) -> str:
    return text.replace("(BWJ)", "B").replace("(CJ)", "R")


def our_text(theirs, action: int) -> str:
    """One of OpenSpiel's actions as our move's text."""
    if action == PASS:
        return "pass"
    if action <= 3:
        return f"bid {action}"
    if action == ROCKET:
        return "play B R"
    text = plain(theirs.action_to_string(theirs.current_player(), action))
    if TRIO_WITH_SOLO <= action < AIRPLANE:           # "3555": the trio first, then its kicker
        trio = next(c for c in text if text.count(c) == 3)
        text = trio * 3 + "-" + text.replace(trio, "")
    return "play " + " ".join(text)                    # airplanes with wings are already "333444-56"


def deal_from_openspiel(theirs, chance: random.Random) -> tuple[int, list[str]]:
    """OpenSpiel's chance played: the position turned up and every card in the order dealt, then
    the three left over."""
    outcomes = []
    while theirs.is_chance_node():
        actions, weights = zip(*theirs.chance_outcomes())
        outcome = chance.choices(actions, weights)[0]
        outcomes.append(outcome)
        theirs.apply_action(outcome)
    position, dealt = outcomes[0], [a - 51 for a in outcomes[1:]]
    rest = [c for c in range(54) if c not in dealt]
    return position, [card_label(c) for c in dealt + rest]


def our_hand_text(ours, state, seat: int) -> str:
    table = ours.game.card_table(state.players)
    ranks = []
    for c in state.zones["hand"][seat]:
        label = table[c].label
        ranks.append(13 if label == "Jk1" else 14 if label == "Jk2" else OUR_RANK_NAMES.index(label[:-1]))
    return "".join(("3456789TJQKA2BR")[r] for r in sorted(ranks))


def play_side_by_side(ours, chance: random.Random, choose: random.Random, passing: float) -> list[float]:
    theirs = pyspiel.load_game("dou_dizhu").new_initial_state()
    position, stock = deal_from_openspiel(theirs, chance)
    state = ours.new_state(3, seed=0, stack={"stock": stock}, choices={"face_up": position})
    assert state.current == theirs.current_player() == position % 3
    decisions = 0
    while not theirs.is_terminal():
        assert not state.over, theirs.history()
        seat = theirs.current_player()
        assert state.current == seat, (decisions, theirs.history())
        observed = theirs.observation_string(seat).split("\n")[0]
        assert plain(observed) == "My hand " + our_hand_text(ours, state, seat)
        texts = {our_text(theirs, a): a for a in theirs.legal_actions()}
        legal = [m.text for m in ours.legal_moves(state, seat)]
        assert len(legal) == len(set(legal))
        assert set(legal) == set(texts), (decisions, theirs.history(),
                                          sorted(set(legal) - set(texts)), sorted(set(texts) - set(legal)))
        if "pass" in texts and choose.random() < passing:
            text = "pass"
        else:
            text = choose.choice(sorted(texts))
        theirs.apply_action(texts[text])
        ours.apply(state, text, seat)
        decisions += 1
    assert state.over
    returns = theirs.returns()
    assert ours.scores(state) == [int(r) for r in returns]
    return returns


def test_openspiels_deals_played_in_ours_give_the_same_moves_and_returns():
    ours = load("dou_dizhu", openspiel="true")
    chance, choose = random.Random(1), random.Random(2)
    for _ in range(GAMES_PER_TEST):
        play_side_by_side(ours, chance, choose, passing=0.3)


def test_every_kind_of_end_is_reached():
    """Games where players pass more often reach every ending OpenSpiel has: no landlord (all
    pass: nothing won), the landlord winning and the peasants winning, with stakes doubled."""
    ours = load("dou_dizhu", openspiel="true")
    chance, choose = random.Random(3), random.Random(4)
    seen = set()
    for _ in range(GAMES_PER_TEST):
        returns = play_side_by_side(ours, chance, choose, passing=0.6)
        if all(r == 0 for r in returns):
            seen.add("nobody")
        else:
            landlord = max(range(3), key=lambda s: abs(returns[s]))
            seen.add("landlord" if returns[landlord] > 0 else "peasants")
    assert seen == {"nobody", "landlord", "peasants"}
