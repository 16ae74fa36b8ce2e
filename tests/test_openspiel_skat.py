"""Skat (games/skat.yaml with `openspiel=true`) played move for move beside OpenSpiel's C++ skat
(needs the [openspiel] extra).

OpenSpiel's 32 chance outcomes (the cards in the order it deals them: 3 to P1, 3 to P2, 3 to P3,
2 to the skat, then 4 each and 3 each) are drawn first and forced on our game as a stacked deck
(`new_state(stack={"stock": [...]})`, first = top), which our deal hands out in the same packets.
At every decision both games must have the same seat to act and the same legal moves (OpenSpiel's
actions written in our notation: 32 `unknown/pass` is `pass`, 33..38 `diamonds` ... `null` are
`declare diamonds` ... `declare null`, a card `HT` is `discard 10H` while the declarer lays away and
`play 10H` in the tricks) and the same cards seen (its own hand and the cards it laid away, as
OpenSpiel's observation shows them, and nothing of the others' hands or the skat), and at the end
the same returns (our openspiel face scores OpenSpiel's return). SKAT_GAMES=3000 plays more games
per test, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("SKAT_GAMES", "100"))
SUITS = "DHSC"                                      # OpenSpiel's order: diamonds, hearts, spades, clubs
RANKS = ["7", "8", "9", "Q", "K", "10", "A", "J"]   # OpenSpiel's order within a suit
GAME_TYPES = ["pass", "diamonds", "hearts", "spades", "clubs", "grand", "null"]
BIDDING_BASE = 32


# OpenSpiel's card symbols (kCardSymbols in skat.cc), card by card: its observations draw the cards so.
SYMBOLS = ["🃇", "🃈", "🃉", "🃍", "🃎", "🃊", "🃁", "🃋",
           "🂷", "🂸", "🂹", "🂽", "🂾", "🂺", "🂱", "🂻",
           "🂧", "🂨", "🂩", "🂭", "🂮", "🂪", "🂡", "🂫",
           "🃗", "🃘", "🃙", "🃝", "🃞", "🃚", "🃑", "🃛"]


def card_label(card: int) -> str:
    """OpenSpiel's card (suit * 8 + rank) as our label: 7D, 10H, JC."""
    return RANKS[card % 8] + SUITS[card // 8]


def our_text(theirs, action: int) -> str:
    """One of OpenSpiel's actions, in the state it is legal in, as our move's text."""
    if action >= BIDDING_BASE:
        kind = GAME_TYPES[action - BIDDING_BASE]
        return "pass" if kind == "pass" else f"declare {kind}"
    verb = "discard" if "Phase: discarding cards" in str(theirs) else "play"
    return f"{verb} {card_label(action)}"


def hand_labels(ours, state, seat: int) -> set[str]:
    table = ours.game.card_table(state.players)
    return {table[c].label for c in state.zones["hand"][seat]}


def observed(theirs, seat: int, part: str) -> set[str]:
    """The cards OpenSpiel's observation shows ``seat`` in a part (``Hand``, or ``Skat``: the
    cards laid away, shown to the declarer only), as our labels."""
    text = theirs.observation_string(seat).split(f"|{part}:")[1].split("|")[0]
    return {card_label(SYMBOLS.index(symbol)) for symbol in text.split()}


def assert_same_view(ours, state, theirs, seat: int) -> None:
    """The seat to act sees its own hand (and, declaring, the cards it laid away) as OpenSpiel
    shows them, and no card of the others' hands, the skat or their cards laid away."""
    view = ours.view(state, seat)
    zones = view["zones"]
    assert {label for label in zones["hand"][seat]} == observed(theirs, seat, "Hand")
    assert {label for label in zones["laid_away"][seat]} == observed(theirs, seat, "Skat")
    for other in range(3):
        if other != seat:
            assert all(card is None for card in zones["hand"][other] + zones["laid_away"][other])
    assert all(card is None for card in zones["skat"][0])


def deal(theirs, chance: random.Random) -> list[str]:
    """OpenSpiel's 32 chance nodes played at random; the cards in the order they were dealt."""
    order = []
    while theirs.is_chance_node():
        card = chance.choice([a for a, _ in theirs.chance_outcomes()])
        theirs.apply_action(card)
        order.append(card_label(card))
    return order


def play_side_by_side(ours, chance: random.Random, choose: random.Random, passing: float) -> tuple:
    """One game in both, a random legal action each decision (a pass with the probability
    ``passing`` when one is legal); the game type declared and the returns."""
    theirs = pyspiel.load_game("skat").new_initial_state()
    order = deal(theirs, chance)
    state = ours.new_state(3, seed=chance.randrange(10 ** 6), stack={"stock": order})
    # The same hands: P1 the 1st-3rd, 12th-15th and 24th-26th cards dealt, and so on.
    packets = {0: [0, 1, 2, 11, 12, 13, 14, 23, 24, 25], 1: [3, 4, 5, 15, 16, 17, 18, 26, 27, 28],
               2: [6, 7, 8, 19, 20, 21, 22, 29, 30, 31]}
    for seat, places in packets.items():
        assert hand_labels(ours, state, seat) == {order[i] for i in places}
    decisions = 0
    while not theirs.is_terminal():
        assert not state.over, (decisions, theirs.history())
        seat = theirs.current_player()
        assert state.current == seat, (decisions, theirs.history())
        assert_same_view(ours, state, theirs, seat)
        texts = {our_text(theirs, a): a for a in theirs.legal_actions()}
        legal = [m.text for m in ours.legal_moves(state, seat)]
        assert len(legal) == len(set(legal))
        assert set(legal) == set(texts), (decisions, theirs.history(), sorted(legal), sorted(texts))
        text = "pass" if "pass" in texts and choose.random() < passing else choose.choice(sorted(texts))
        theirs.apply_action(texts[text])
        ours.apply(state, text, seat)
        decisions += 1
    assert state.over, theirs.history()
    returns = list(theirs.returns())
    assert ours.scores(state) == returns, (theirs.history(), ours.scores(state), returns)
    return state.vars["game_type"], tuple(returns)


@pytest.mark.parametrize("passing", [0.0, 0.5, 0.8])
def test_openspiels_deal_set_in_ours_gives_the_same_moves_and_returns(passing):
    ours = load("skat", openspiel="true")
    chance, choose = random.Random(int(passing * 10)), random.Random(100 + int(passing * 10))
    for _ in range(GAMES_PER_TEST):
        play_side_by_side(ours, chance, choose, passing)


def test_the_games_reach_every_kind_of_end_openspiel_has():
    """Every game type is played, a null game is both won and lost (ended early by the declarer's
    first trick), and everyone passing ends the game with nothing to anyone."""
    ours = load("skat", openspiel="true")
    chance, choose = random.Random(7), random.Random(8)
    seen = set()
    for _ in range(400):
        kind, returns = play_side_by_side(ours, chance, choose, passing=0.6)
        if kind == "null":
            seen.add(("null", max(returns)))      # 0.25: the declarer won; 0.125: the defenders
        else:
            seen.add(kind)
    assert {"diamonds", "hearts", "spades", "clubs", "grand", None} <= seen
    assert ("null", 0.25) in seen and ("null", 0.125) in seen
