"""Cribbage (games/cribbage.yaml with `openspiel=true`) played move for move beside OpenSpiel's C++
cribbage (needs the [openspiel] extra), with two, three and four players.

OpenSpiel's chance outcomes (each card dealt, the crib card with three players, the starter) are
drawn in advance hand by hand and forced on our game with `new_state(choices={"drawn": [...]})`:
our game draws every card with a `choose_random` of `drawn`, in OpenSpiel's order (P1's cards,
then P2's..., the crib's, then the starter after the laying away). At every decision both games
must have the same seat to act, the same legal moves (OpenSpiel's actions written in our notation:
`Choose 3C 5D` in the card phase is `discard 3C 5D` (a set of cards), `Choose TH` is `play 10H` or,
with three or four players, `discard 10H`, `Pass` is `go`) and the same points; at the end the
same returns (our openspiel face scores OpenSpiel's return: the points plus the winner's bonus).
CRIBBAGE_GAMES=1000 plays more games per test, by hand."""
from __future__ import annotations

import os
import random
import re

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("CRIBBAGE_GAMES", "12"))
PASS = 2756
SUITS, RANKS = "CDHS", "A23456789TJQK"
CHANCES_PER_HAND = {2: 13, 3: 17, 4: 21}      # the cards dealt (and the crib's), then the starter


def label(card: int) -> str:
    """OpenSpiel's card (suit * 13 + rank) as our label: AC, 10D, QS."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUITS[card // 13]


def our_key(text: str):
    """A move's text reduced to what identifies it: discards are sets of cards."""
    verb, *cards = text.split()
    return (verb, frozenset(cards)) if verb == "discard" else (verb, *cards)


def their_key(theirs, action: int):
    if action == PASS:
        return ("go",)
    if action >= 52:
        first, second = divmod(action - 52, 52)
        return ("discard", frozenset({label(first), label(second)}))
    card_phase = "Phase: Card" in str(theirs)
    return ("discard", frozenset({label(action)})) if card_phase else ("play", label(action))


def their_scores(theirs) -> list[int]:
    return [int(float(x)) for x in re.search(r"Scores:([^\n]*)", str(theirs)).group(1).split()]


def chance_plan(players: int, rng: random.Random, hands: int = 100) -> list[int]:
    """Every hand's chance outcomes, drawn in advance: distinct cards within a hand."""
    plan = []
    for _ in range(hands):
        plan += rng.sample(range(52), CHANCES_PER_HAND[players])
    return plan


def play_side_by_side(ours, players: int, rng: random.Random, params: dict) -> int:
    """One game in both, a random legal action at each decision; the decisions made."""
    plan = chance_plan(players, rng)
    theirs = pyspiel.load_game("cribbage", {"players": players, **params}).new_initial_state()
    state = ours.new_state(players, seed=rng.randrange(10 ** 6), choices={"drawn": [label(c) for c in plan]})
    drawn, decisions = iter(plan), 0
    while not theirs.is_terminal():
        if theirs.is_chance_node():
            card = next(drawn)
            assert card in [a for a, _ in theirs.chance_outcomes()]
            theirs.apply_action(card)
            continue
        assert not state.over, (decisions, theirs.history())
        seat = theirs.current_player()
        assert state.current == seat, (decisions, str(theirs))
        assert [v["points"] for v in state.seat_vars] == their_scores(theirs), (decisions, str(theirs))
        texts = {their_key(theirs, a): a for a in theirs.legal_actions()}
        legal = {our_key(m.text): m.text for m in ours.legal_moves(state, seat)}
        assert set(legal) == set(texts), (decisions, str(theirs))
        key = rng.choice(sorted(texts, key=str))
        theirs.apply_action(texts[key])
        ours.apply(state, legal[key], seat)
        decisions += 1
    assert state.over
    assert [v["points"] for v in state.seat_vars] == their_scores(theirs)
    assert ours.scores(state) == [r for r in theirs.returns()]
    return decisions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_points_and_returns_match_openspiel(players):
    ours = load("cribbage", openspiel="true")
    rng = random.Random(players)
    for _ in range(GAMES_PER_TEST):
        play_side_by_side(ours, players, rng, {})


def test_the_winner_bonus_is_openspiels():
    ours = load("cribbage", openspiel="true", winner_bonus_reward="30")
    rng = random.Random(7)
    for players in (2, 3, 4):
        for _ in range(max(1, GAMES_PER_TEST // 4)):
            play_side_by_side(ours, players, rng, {"winner_bonus_reward": 30.0})
