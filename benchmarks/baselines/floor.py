"""benchmarks/floor.yaml by hand, in plain Python: the least a move of a card game can cost in
Python, the yardstick for the engine's own cost per move.

Six seats are dealt six cards each and, in turn from seat 0, play any card of their hand to a
pile until every hand is empty; 30 deals. Given the same seed it deals, offers the legal moves and
draws exactly as the interpreter does, so both make the same moves:

- the 52 cards are numbered as the interpreter numbers a standard deck, and all start in the
  stock; the top of a pile is its last card;
- each deal puts the pile back on the stock (in its order), shuffles the stock with the game's
  generator and deals six cards one at a time, seat 0 first, from the top of the stock;
- the legal moves are the cards of the hand in the order they came in;
- a random bot for seat s has its own generator, seeded with ``seed * 1_000_003 + s``, and picks
  move number ``below(its generator, number of legal moves)``.
"""
from __future__ import annotations

from interpreter.engine import rng

PLAYERS = range(6, 7)
DEFAULT_PLAYERS = 6
DEALS = 30
HAND = 6


def play_game(players: int, seed: int) -> tuple[list[int], int]:
    """One game between random bots: each seat's score (always 0) and the number of moves made."""
    return [0] * players, len(cards_played(players, seed))


def cards_played(players: int, seed: int) -> list[int]:
    """The card each move of one game played, in order."""
    if players not in PLAYERS:
        raise ValueError(f"the floor is for 6 players, not {players}")
    state = rng.seed_state(seed)
    bots = [rng.seed_state(seed * 1_000_003 + seat) for seat in range(players)]
    stock, pile, played = list(range(52)), [], []
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(DEALS):
        stock += pile
        pile = []
        stock, state = rng.shuffled(state, stock)
        for _ in range(HAND):
            for hand in hands:
                hand.append(stock.pop())
        seat = 0
        while any(hands):
            hand = hands[seat]
            choice, bots[seat] = rng.below(bots[seat], len(hand))
            pile.append(hand.pop(choice))
            seat = (seat + 1) % players
        played += pile
    return played
