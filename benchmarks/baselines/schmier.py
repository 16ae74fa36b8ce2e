"""Schmier by hand, in plain Python: random playouts with the rules of the rules reference
(six players, three teams of two partners opposite, 52 cards and a joker, target 21).

The yardstick for the interpreter's speed, and an oracle for games/schmier.yaml: given the same
seed it deals, offers the legal moves and draws exactly as the interpreter does, so both reach
the same scores. What that takes, beyond the rules:

- cards are numbered as the interpreter numbers a standard deck: clubs, diamonds, hearts,
  spades, ace (1) to king (13) each, then the joker (52); the top of a pile is its last card;
- each deal gathers every hand, exchanged card and won trick onto the stock (seat by seat:
  hand, discards, its team's tricks), shuffles the stock with the game's generator and deals six
  cards one at a time from the dealer's left; the first dealer is drawn from the generator;
- legal moves are listed in the spec's order: bids 3 to 6 above the highest, then pass; the four
  suits; discards of 1 to 3 non-trumps (by size, then by card number), then keep; the dealer's
  discards and the cards to play in hand order;
- a random bot for seat s has its own generator, seeded with ``seed * 1_000_003 + s``, and picks
  move number ``below(its generator, number of legal moves)``.
"""
from __future__ import annotations

import itertools

from interpreter.engine import rng

PLAYERS = range(6, 7)
DEFAULT_PLAYERS = 6
TEAMS = 3
TARGET = 21
MAX_DEALS = 1000        # the spec's default: no max_deals, so the engine's stop after 1000 rounds
SUITS = ("clubs", "diamonds", "hearts", "spades")
JOKER = 52
HAND = 6


def suit(card: int) -> str:
    return "joker" if card == JOKER else SUITS[card // 13]


def rank(card: int) -> int:
    return 0 if card == JOKER else card % 13 + 1


def color(s: str) -> str:
    return "red" if s in ("diamonds", "hearts") else "black"


class Hand:
    """One deal: its trump, and what makes a card a trump, rank in a trick and count for game."""

    def __init__(self, trump: str):
        self.trump = trump

    def is_trump(self, card: int) -> bool:
        return card == JOKER or suit(card) == self.trump or (rank(card) == 11 and color(suit(card)) == color(self.trump))

    def suit_of(self, card: int) -> str:
        return self.trump if self.is_trump(card) else suit(card)

    def power(self, card: int) -> int:
        r = rank(card)
        if not self.is_trump(card):
            return 14 if r == 1 else r
        if card == JOKER:
            return 1
        if r == 1:
            return 15
        if r >= 12:
            return r + 1
        if r == 11:
            return 12 if suit(card) == self.trump else 11
        return r

    def protected(self, card: int) -> bool:
        return self.is_trump(card) and (rank(card) in (1, 2, 11) or card == JOKER)

    def winner(self, trick: list[int]) -> int:
        """The position in the trick of the winning card: the highest trump, else the highest of the suit led."""
        best = 0
        for i in range(1, len(trick)):
            card_suit, best_suit = self.suit_of(trick[i]), self.suit_of(trick[best])
            if card_suit == best_suit and self.power(trick[i]) > self.power(trick[best]) or \
                    card_suit == self.trump and best_suit != self.trump:
                best = i
        return best


def card_value(card: int) -> int:
    if card == JOKER:
        return 1
    return {1: 4, 13: 3, 12: 2, 11: 1, 10: 10}.get(rank(card), 0)


class Table:
    """The whole match: piles of card numbers, the generators, the scores."""

    def __init__(self, seed: int):
        self.rng = rng.seed_state(seed)
        self.bots = [rng.seed_state(seed * 1_000_003 + seat) for seat in range(6)]
        self.stock = list(range(53))
        self.hands: list[list[int]] = [[] for _ in range(6)]
        self.discards: list[list[int]] = [[] for _ in range(6)]
        self.won: list[list[int]] = [[] for _ in range(TEAMS)]
        self.scores = [0] * TEAMS
        self.moves = 0
        self.dealer, self.rng = rng.below(self.rng, 6)

    def choose(self, seat: int, options: list) -> object:
        index, self.bots[seat] = rng.below(self.bots[seat], len(options))
        self.moves += 1
        return options[index]

    def play_match(self) -> None:
        for _ in range(MAX_DEALS):
            bidder = self.play_deal()
            if self.finished(bidder):
                return

    def finished(self, bidder: int | None) -> bool:
        top = max(self.scores)
        leaders = [t for t in range(TEAMS) if self.scores[t] == top]
        return top >= TARGET and (len(leaders) == 1 or (bidder is not None and bidder % TEAMS in leaders))

    def play_deal(self) -> int | None:
        """One deal; the bidder, or None when everyone passed (the same dealer deals again)."""
        self.gather_and_deal()
        left = (self.dealer + 1) % 6
        bidder, bid = self.auction(left)
        if bidder is None:
            return None
        hand = Hand(self.choose(bidder, list(SUITS)))
        self.exchange(hand, left)
        played_by = self.tricks(hand, bidder)
        self.score(hand, bidder, bid, played_by)
        self.dealer = left
        return bidder

    def gather_and_deal(self) -> None:
        for seat in range(6):
            for pile in (self.hands[seat], self.discards[seat], self.won[seat % TEAMS]):
                self.stock += pile
                pile.clear()
        self.stock, self.rng = rng.shuffled(self.rng, self.stock)
        for _ in range(HAND):
            for k in range(6):
                self.hands[(self.dealer + 1 + k) % 6].append(self.stock.pop())

    def auction(self, left: int) -> tuple[int | None, int]:
        bidder, high = None, 0
        for k in range(6):
            seat = (left + k) % 6
            call = self.choose(seat, [amount for amount in range(3, 7) if amount > high] + ["pass"])
            if call != "pass":
                bidder, high = seat, call
                if call == 6:
                    break
        return bidder, high

    def exchange(self, hand: Hand, left: int) -> None:
        for k in range(5):
            seat = (left + k) % 6
            own = self.hands[seat]
            non_trumps = sorted(c for c in own if not hand.is_trump(c))
            options = [list(pick) for size in range(1, min(3, len(non_trumps)) + 1)
                       for pick in itertools.combinations(non_trumps, size)]
            chosen = self.choose(seat, options + ["keep"])
            if chosen == "keep":
                continue
            for card in chosen:
                own.remove(card)
                self.discards[seat].append(card)
            for _ in chosen:
                own.append(self.stock.pop())
        own = self.hands[self.dealer]
        own += self.stock
        self.stock = []
        while len(own) > HAND:
            trumps = sum(1 for c in own if hand.is_trump(c))
            options = [c for c in own if not hand.protected(c)] if trumps > HAND else \
                [c for c in own if not hand.is_trump(c)]
            card = self.choose(self.dealer, options)
            own.remove(card)
            self.discards[self.dealer].append(card)

    def tricks(self, hand: Hand, bidder: int) -> dict[int, int]:
        """Six tricks led first by the bidder; which seat played each card."""
        played_by: dict[int, int] = {}
        leader = bidder
        for _ in range(HAND):
            trick: list[int] = []
            for k in range(6):
                seat = (leader + k) % 6
                own = self.hands[seat]
                led = hand.suit_of(trick[0]) if trick else None
                following = [c for c in own if hand.suit_of(c) == led]
                card = self.choose(seat, following or list(own))
                own.remove(card)
                trick.append(card)
                played_by[card] = seat
            leader = played_by[trick[hand.winner(trick)]]
            self.won[leader % TEAMS] += trick
        return played_by

    def score(self, hand: Hand, bidder: int, bid: int, played_by: dict[int, int]) -> None:
        def holder(test) -> int:
            return next(t for t in range(TEAMS) for c in self.won[t] if hand.is_trump(c) and test(c))

        ace = next(c for c in played_by if hand.is_trump(c) and rank(c) == 1)
        two = next(c for c in played_by if hand.is_trump(c) and rank(c) == 2)
        game = [sum(card_value(c) for c in self.won[t]) for t in range(TEAMS)]
        most = game.index(max(game)) if game.count(max(game)) == 1 else None
        winners = [played_by[ace] % TEAMS, played_by[two] % TEAMS,
                   holder(lambda c: rank(c) == 11 and suit(c) == hand.trump),
                   holder(lambda c: rank(c) == 11 and suit(c) != hand.trump),
                   holder(lambda c: c == JOKER), most]
        taken = [winners.count(t) for t in range(TEAMS)]
        made = taken[bidder % TEAMS] >= bid
        for t in range(TEAMS):
            self.scores[t] += -bid if t == bidder % TEAMS and not made else taken[t]


def play_game(players: int, seed: int) -> tuple[list[int], int]:
    """One match between random bots: each seat's team score and the number of moves made."""
    if players not in PLAYERS:
        raise ValueError(f"Schmier is for 6 players, not {players}")
    table = Table(seed)
    table.play_match()
    return [table.scores[seat % TEAMS] for seat in range(6)], table.moves
