"""A Euchre position by hand: the state a hand-written Euchre keeps, its copy, and a guess of the
cards a seat cannot see. The yardstick for the lean engine's copy and guess of games/euchre.yaml
(``benchmarks/lookahead.py games/euchre.yaml --baseline euchre_guess``).

The state is what a person writing Euchre keeps: each pile a list of card numbers, the seats and
suits as numbers, the suits each seat showed it lacks in this deal. The guess deals the hidden
cards (the stock, the discard, the other hands) again the way the engine's guess does, so both give
the same deal from the same seed (``matches`` checks it): in the hidden places' order, the sorted
cards shuffled with the engine's generator until a deal gives no seat a suit it showed it lacks
(at most ``REDEAL_TRIES`` shuffles, then any), the most restricted places served first.
"""
from __future__ import annotations

from interpreter.engine import rng

SUITS = ("clubs", "diamonds", "hearts", "spades")
RED = ("diamonds", "hearts")
JACK = 11
REDEAL_TRIES = 20            # as the engine's guess, so that both deal the same


class Position:
    __slots__ = ("rng", "hands", "stock", "upcard", "discard", "trick", "won", "dealer", "turned", "passes",
                 "trump", "maker", "alone", "lone_defender", "sitting_out", "leader", "tricks_played", "taken",
                 "points", "phase", "current", "voids", "suit", "rank", "color")


def from_lean(lean, state) -> Position:
    """The position of a lean state of games/euchre.yaml (not timed: made once per position)."""
    p = Position()
    p.rng, p.phase, p.current = state.rng, state.phase, state.current
    p.hands = [list(h) for h in state.z_hand]
    p.stock, p.upcard, p.discard = list(state.z_stock[0]), list(state.z_upcard[0]), list(state.z_discard[0])
    p.trick, p.won = list(state.z_trick[0]), [list(w) for w in state.z_won]
    p.dealer, p.turned, p.passes, p.maker = state.v_dealer, state.v_turned, state.v_passes, state.v_maker
    p.trump = None if state.v_trump is None else SUITS.index(state.v_trump)
    p.alone, p.lone_defender, p.sitting_out = state.v_maker_alone, state.v_lone_defender, list(state.v_sitting_out)
    p.leader, p.tricks_played = state.v_leader, state.v_tricks_played
    p.taken, p.points = list(state.tv_taken), list(state.tv_points)
    this_deal = state.played_round == state.round
    p.voids = {seat: [SUITS.index(s) for s in suits] for seat, suits in state.voids.items()} if this_deal else {}
    cards = lean.cards
    p.suit = [SUITS.index(c.attrs["suit"]) for c in cards]          # tables of the deck, shared by every copy
    p.rank = [c.attrs["rank"] for c in cards]
    p.color = [c.attrs["color"] == "red" for c in cards]
    return p


def clone(p: Position) -> Position:
    q = Position()
    q.rng, q.phase, q.current, q.dealer, q.turned, q.passes = p.rng, p.phase, p.current, p.dealer, p.turned, p.passes
    q.trump, q.maker, q.alone, q.lone_defender, q.leader = p.trump, p.maker, p.alone, p.lone_defender, p.leader
    q.tricks_played, q.suit, q.rank, q.color = p.tricks_played, p.suit, p.rank, p.color
    q.hands = [h[:] for h in p.hands]
    q.stock, q.upcard, q.discard, q.trick = p.stock[:], p.upcard[:], p.discard[:], p.trick[:]
    q.won = [p.won[0][:], p.won[1][:]]
    q.sitting_out, q.taken, q.points = p.sitting_out[:], p.taken[:], p.points[:]
    q.voids = {seat: suits[:] for seat, suits in p.voids.items()}
    return q


def guess(p: Position, seat: int, seed: int) -> Position:
    q = clone(p)
    voids = q.voids
    piles = [(q.stock, ())] + [(hand, voids.get(other, ())) for other, hand in enumerate(q.hands) if other != seat] \
        + [(q.discard, ())]
    places = [(pile, k) for pile, _ in piles for k in range(len(pile))]
    cards = sorted(pile[k] for pile, k in places)
    generator = rng.seed_state(seed)
    lacking = [suits for pile, suits in piles for _ in pile]
    if not any(lacking):
        dealt, generator = rng.shuffled(generator, cards)
    else:
        dealt, generator = _deal_lacking(q, cards, lacking, generator)
    for (pile, k), card in zip(places, dealt):
        pile[k] = card
    q.rng = generator
    return q


def _deal_lacking(p: Position, cards: list[int], lacking: list, generator: int) -> tuple[list[int], int]:
    suit = {card: _suit(p, card) for card in cards}
    served = sorted(range(len(cards)), key=lambda i: -len(lacking[i]))
    for _ in range(REDEAL_TRIES):
        left, generator = rng.shuffled(generator, cards)
        dealt = [0] * len(cards)
        for i in served:
            k = next((k for k, card in enumerate(left) if suit[card] not in lacking[i]), None)
            if k is None:
                break
            dealt[i] = left.pop(k)
        else:
            return dealt, generator
    return rng.shuffled(generator, cards)


def _suit(p: Position, card: int) -> int:
    """A bower (the jack of trump's colour) is a trump."""
    if p.rank[card] == JACK and p.trump is not None and p.color[card] == (SUITS[p.trump] in RED):
        return p.trump
    return p.suit[card]


def matches(lean_state, p: Position) -> bool:
    """Does the lean state hold the same cards in the same places, and the same generator?"""
    return (lean_state.rng == p.rng and [list(h) for h in lean_state.z_hand] == p.hands
            and lean_state.z_stock[0] == p.stock and lean_state.z_discard[0] == p.discard
            and lean_state.z_upcard[0] == p.upcard and lean_state.z_trick[0] == p.trick)
