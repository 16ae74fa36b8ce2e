"""Heads-up limit hold'em (games/limit_holdem.yaml) played move for move beside OpenSpiel's C++
universal_poker with its limit hold'em game definition (needs the [openspiel] extra).

OpenSpiel's chance nodes deal one card each: P1's two hole cards, P2's two, then the flop's three,
the turn and the river. The cards it will deal are drawn first (seeded) and stacked on our deck
with ``new_state(stack=...)``; then, at every decision, the same seat acts with the same legal
moves (OpenSpiel's actions written in our notation: Fold is `fold`; Call is `check` when nothing
is owed, else `call`; Bet is `bet` on an unopened round after the flop, else `raise`), the board
is the same, and at the end the scores are OpenSpiel's returns (both are the chips won or lost).

Two faces of our file are checked: `openspiel=true` (one hand, dealt as OpenSpiel deals), and the
match as people play it, with OpenSpiel's bet sizes and stacks too deep to matter, whose first
hand is the same hand with the seats swapped (our P1 has the button there, OpenSpiel's player 1
always has it), dealt one card at a time from the big blind.
LIMIT_HOLDEM_GAMES=5000 plays more games per test, by hand."""
from __future__ import annotations

import os
import random
import re

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("LIMIT_HOLDEM_GAMES", "300"))
PARAMS = {"betting": "limit", "numPlayers": 2, "numRounds": 4, "blind": "10 5",
          "firstPlayer": "2 1 1 1", "numSuits": 4, "numRanks": 13, "numHoleCards": 2,
          "numBoardCards": "0 3 1 1", "raiseSize": "10 10 20 20", "maxRaises": "3 4 4 4"}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "CDHS"                     # ACPC's card = rank * 4 + suit, suits c d h s
FOLD, CALL, BET = 0, 1, 2
OUR_ORDER = ["check", "call", "bet", "raise", "fold"]     # the order of the phases' moves


def card_label(card: int) -> str:
    """OpenSpiel's card (rank * 4 + suit, 2c = 0) as our label: 2C, 10D, AS."""
    return RANKS[card // 4] + SUITS[card % 4]


def acpc(theirs) -> tuple[list[str], list[int]]:
    """The betting of each round so far, up to the one being played (ACPC's letters: c call,
    r raise, f fold) and each seat's chips spent, read from OpenSpiel's state."""
    lines = str(theirs).splitlines()
    state = next(line for line in lines if line.startswith("ACPC State:")).split(":")
    betting_round = int(next(line for line in lines if line.startswith("Round:")).split(":")[1])
    spent = next(line for line in lines if line.startswith("Spent:"))
    chips = [int(n) for n in re.findall(r"P\d+: (\d+)", spent)]          # Spent: [P0: 30  P1: 20  ]
    rounds = (state[3].split("/") + [""] * 4)[:betting_round + 1]      # the round just begun too
    return rounds, chips


def our_text(theirs, action: int) -> str:
    """One of OpenSpiel's actions, in the state it is legal in, as our move's text."""
    if action == FOLD:
        return "fold"
    rounds, spent = acpc(theirs)
    if action == CALL:
        seat = theirs.current_player()
        return "check" if spent[seat] == max(spent) else "call"
    assert action == BET
    opened = len(rounds) == 1 or "r" in rounds[-1]          # the big blind opens the pre-flop
    return "raise" if opened else "bet"


def choose(chooser: random.Random, actions: list[int]) -> int:
    """A random action, folding seldom so that many hands reach the river and the showdown."""
    if FOLD in actions and chooser.random() < 0.85:
        actions = [a for a in actions if a != FOLD]
    return chooser.choice(actions)


def play_side_by_side(ours, state, theirs, cards: list[int], chooser: random.Random, seats: list[int]) -> dict:
    """One hand in both; OpenSpiel's chance nodes take the cards drawn, in order. ``seats[p]`` is
    our seat for OpenSpiel's player p."""
    labels = [card_label(c) for c in cards]
    dealt = 0
    decisions = 0
    while not theirs.is_terminal():
        if theirs.is_chance_node():
            assert cards[dealt] in [a for a, _ in theirs.chance_outcomes()]
            theirs.apply_action(cards[dealt])
            dealt += 1
            continue
        assert not state.over, theirs.history()
        player = theirs.current_player()
        seat = seats[player]
        assert state.current == seat, theirs.history()
        view = ours.view(state, seat)                 # my cards, not the other's; the board dealt
        assert sorted(view["zones"]["hand"][seat]) == sorted(labels[2 * player:2 * player + 2])
        assert view["zones"]["hand"][1 - seat] == [None, None]
        assert sorted(view["zones"]["board"][0]) == sorted(labels[4:dealt])
        # The same moves; ours list fold last (OpenSpiel's first), so that no slip of a key folds.
        expected = sorted((our_text(theirs, a) for a in theirs.legal_actions()), key=OUR_ORDER.index)
        assert [m.text for m in ours.legal_moves(state, seat)] == expected, str(theirs.history())
        action = choose(chooser, theirs.legal_actions())
        ours.apply(state, our_text(theirs, action), seat)
        theirs.apply_action(action)
        decisions += 1
    assert state.over, theirs.history()
    returns = theirs.returns()
    assert ours.scores(state) == [int(returns[seats.index(s)]) for s in range(2)], theirs.history()
    return {"decisions": decisions, "showdown": "f" not in acpc(theirs)[0][-1]}


def board_labels(ours, state) -> list[str]:
    table = ours.game.card_table(state.players)
    return [table[c].label for c in state.zones["board"][0]]


def hand_labels(ours, state, seat: int) -> list[str]:
    table = ours.game.card_table(state.players)
    return [table[c].label for c in state.zones["hand"][seat]]


@pytest.mark.parametrize("face", ["openspiel", "match"])
def test_every_decision_and_return_match_openspiels_limit_holdem(face):
    game = pyspiel.load_game("universal_poker", PARAMS)
    if face == "openspiel":
        ours = load("limit_holdem", openspiel="true")
    else:
        ours = load("limit_holdem", small_bet="10", stack="100000", hands="1")
    # The match's first hand has P1 on the button: OpenSpiel's player 1 is our P1, its player 0 our P2.
    seats = [0, 1] if face == "openspiel" else [1, 0]
    chooser = random.Random(7 if face == "openspiel" else 8)
    showdowns = 0
    for number in range(GAMES_PER_TEST):
        cards = chooser.sample(range(52), 9)          # P1's two, P2's two, the flop, turn, river
        labels = [card_label(c) for c in cards]
        if face == "openspiel":
            stack = labels                            # P1 takes the top two, then P2
        else:
            stack = [labels[0], labels[2], labels[1], labels[3]] + labels[4:]   # one at a time from the big blind
        state = ours.new_state(2, number, stack={"stock": stack})
        assert sorted(hand_labels(ours, state, seats[0])) == sorted(labels[0:2])
        assert sorted(hand_labels(ours, state, seats[1])) == sorted(labels[2:4])
        theirs = game.new_initial_state()
        outcome = play_side_by_side(ours, state, theirs, cards, chooser, seats)
        if outcome["showdown"]:
            showdowns += 1
            assert sorted(board_labels(ours, state)) == sorted(labels[4:9])
    assert showdowns > GAMES_PER_TEST // 10
