"""Gin rummy (games/gin_rummy.yaml with `openspiel=true`) played move for move beside OpenSpiel's
C++ gin_rummy (needs the [openspiel] extra), with its default parameters and with others (knock
card, bonuses, Oklahoma, smaller hands).

OpenSpiel's chance outcomes are chosen in advance as one order of the 52 cards: its player 0's
hand, then player 1's, then the upcard, then each card drawn from the stock in turn. Our game
deals from a shuffled stock, one card at a time from the non-dealer (P1, OpenSpiel's player 0),
turns the upcard and draws from the top: the same order is forced on it with
`new_state(stack={"stock": [...]})`. At every decision both games must have the same seat to act
and the same legal moves in the same order (OpenSpiel's actions written in our notation, by phase: `Draw upcard` is
`take`, `Draw stock` is `draw`, `Pass` is `pass` on the first upcard and at the wall
and `done` when laying out, a card is `discard <card>` or, when laying off, `lay_off <card>`,
`Knock` is `knock`, a meld action `meld <its cards>`); at the end the same returns (our
openspiel face scores OpenSpiel's return).

The players are random, but prefer the discard that leaves the least deadwood and knock when they
may, so that many games reach the knock, the layoffs and the wall. GIN_RUMMY_GAMES=1000 plays more
games per test, by hand."""
from __future__ import annotations

import os
import random

import pytest

from tests.helpers import load

pyspiel = pytest.importorskip("pyspiel")

GAMES_PER_TEST = int(os.environ.get("GIN_RUMMY_GAMES", "20"))
SUITS, RANKS = "scdh", "A23456789TJQK"
TAKE, DRAW, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56


def label(card: int) -> str:
    """OpenSpiel's card (suit * 13 + rank, suits s c d h) as our label: AS, 10C, QH."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUITS[card // 13].upper()


def from_label(text: str) -> int:
    rank, suit = text[:-1], text[-1].lower()
    return SUITS.index(suit) * 13 + RANKS.index("T" if rank == "10" else rank)


def value(card: int) -> int:
    return min(10, card % 13 + 1)


def their_key(theirs, action: int):
    """OpenSpiel's action as our move, reduced to what identifies it (a meld: its set of cards)."""
    phase = theirs.current_phase().name
    if action < 52:
        return ("lay_off" if phase == "LAYOFF" else "discard", label(action))
    if action == TAKE:
        return ("take",)
    if action == DRAW:
        return ("draw",)
    if action == PASS:
        return ("pass",) if phase in ("FIRST_UPCARD", "WALL") else ("done",)
    if action == KNOCK:
        return ("knock",)
    text = theirs.action_to_string(theirs.current_player(), action).split("Action: ")[1]
    cards = [text[i:i + 2] for i in range(0, len(text), 2)]
    return ("meld", frozenset(label(RANKS.index(c[0]) + 13 * SUITS.index(c[1])) for c in cards))


def our_key(text: str):
    verb, *args = text.split()
    return (verb, frozenset(args)) if verb == "meld" else (verb, *args)


# -- the players' policy: random, with a taste for low deadwood -----------------------------------

def melds(cards: list[int]) -> list[list[int]]:
    out = []
    for r in range(13):
        same = sorted(c for c in cards if c % 13 == r)
        if len(same) >= 3:
            out.append(same)
            if len(same) == 4:
                out += [[c for c in same if c != x] for x in same]
    for c in sorted(cards):
        for n in (3, 4, 5):
            if c % 13 + n <= 13 and all(c + k in cards for k in range(1, n)):
                out.append([c + k for k in range(n)])
    return out


def deadwood(cards: list[int]) -> int:
    ms = melds(cards)
    best = 0

    def search(start, used, melded, depth):
        nonlocal best
        best = max(best, melded)
        if depth == 3:
            return
        for i in range(start, len(ms)):
            if not used & set(ms[i]):
                search(i + 1, used | set(ms[i]), melded + sum(map(value, ms[i])), depth + 1)
    search(0, set(), 0, 0)
    return sum(map(value, cards)) - best


def choose(theirs, rng: random.Random, keen: float) -> int:
    """A random action, or with probability ``keen`` a knock, a discard keeping the least
    deadwood, an upcard that lowers it."""
    actions = theirs.legal_actions()
    phase = theirs.current_phase().name
    if rng.random() >= keen:
        return rng.choice(actions)
    if KNOCK in actions and rng.random() < 0.9:
        return KNOCK
    if phase == "DISCARD":
        hand = theirs.hands()[theirs.current_player()]
        cards = [a for a in actions if a < 52]
        return min(cards, key=lambda c: (deadwood([x for x in hand if x != c]), rng.random()))
    if phase in ("DRAW", "FIRST_UPCARD") and TAKE in actions:
        hand = theirs.hands()[theirs.current_player()]
        with_upcard = hand + [theirs.upcard()]
        best = min(deadwood([x for x in with_upcard if x != c]) for c in with_upcard)
        return TAKE if best < deadwood(hand) else [a for a in actions if a != TAKE][0]
    if phase in ("KNOCK", "LAYOFF") and rng.random() < 0.7:
        # Lay out melds and lay off cards more often than stopping.
        busy = [a for a in actions if a != PASS]
        if busy:
            return rng.choice(busy)
    return rng.choice(actions)


# -- one game in both ------------------------------------------------------------------------------

def play_side_by_side(ours, rng: random.Random, params: dict) -> tuple[int, str]:
    """One game in both; the decisions made and how OpenSpiel's hand ended."""
    hand_size = params.get("hand_size", 10)
    order = rng.sample(range(52), 52)
    theirs = pyspiel.load_game("gin_rummy", params).new_initial_state()
    first, second = order[:hand_size], order[hand_size:2 * hand_size]
    dealt = [c for pair in zip(first, second) for c in pair] + order[2 * hand_size:]
    state = ours.new_state(2, seed=rng.randrange(10 ** 6), stack={"stock": [label(c) for c in dealt]})
    chance, decisions = iter(order), 0
    # Some players knock as soon as they may, some play at random (to the wall, or a repeat).
    keen = rng.choice([0.0, 0.5, 0.8, 0.95])
    while not theirs.is_terminal():
        if theirs.is_chance_node():
            card = next(chance)
            assert card in [a for a, _ in theirs.chance_outcomes()]
            theirs.apply_action(card)
            continue
        assert not state.over, (decisions, str(theirs))
        seat = theirs.current_player()
        assert state.current == seat, (decisions, str(theirs))
        texts = {their_key(theirs, a): a for a in theirs.legal_actions()}
        moves = ours.legal_moves(state, seat)
        legal = {our_key(m.text): m.text for m in moves}
        assert len(legal) == len(moves), [m.text for m in moves]
        # The same moves in the same order (OpenSpiel's: by action number).
        assert list(legal) == list(texts), (decisions, list(legal), list(texts), str(theirs))
        action = choose(theirs, rng, keen)
        key = their_key(theirs, action)
        theirs.apply_action(action)
        ours.apply(state, legal[key], seat)
        decisions += 1
    assert state.over, str(theirs)
    assert ours.scores(state) == list(theirs.returns()), str(theirs)
    knocker = theirs.knocked().index(True) if any(theirs.knocked()) else None
    ending = ("wall" if knocker is None and theirs.stock_size() == 2 else "void" if knocker is None
              else "gin" if theirs.deadwood()[knocker] == 0 else "knock")
    return decisions, ending


PARAMS = [
    {},
    {"knock_card": 6, "gin_bonus": 20, "undercut_bonus": 10},
    {"oklahoma": True},
    {"hand_size": 7},
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_every_decision_and_returns_match_openspiel(params):
    ours = load("gin_rummy", openspiel="true", **{k: str(v).lower() for k, v in params.items()})
    rng = random.Random(str(params))
    endings = []
    for _ in range(GAMES_PER_TEST):
        endings.append(play_side_by_side(ours, rng, params)[1])
    # The policy reaches the knock (in most games: they are the ones worth checking).
    assert endings.count("knock") + endings.count("gin") > 0
