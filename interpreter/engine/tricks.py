"""Tricks: a card's effective suit and rank under a trump, the led suit, following suit, the
winner of a trick, and which seat played each card.

A game with a ``tricks:`` section names the shared zone a trick is played to and the per-seat
zone cards are played from, and gives, as expressions of ``card``, a card's effective suit and its
rank within that suit, and the trump suit (an expression, or none). A trick is won by its highest
trump, else by the highest card of the suit led; of two equal cards the first played wins.

The ``play_to_trick`` effect moves a card face up to the trick and remembers the seat that played
it, for the rest of the round (kept in the state's variables under ``$played``). It also remembers,
in public, each suit led that a seat did not follow: where following is compulsory (``must_follow``,
the default), that seat holds no card of that suit for the rest of the round, which bots use when
they guess the cards they cannot see.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..errors import EvalError
from ..expr import ANY, BUILTINS, Binding, ListOf, Param, Registry
from ..expr.ops import show
from ..expr.runtime import MEMO
from .context import Ctx, active
from .trick_values import Values, card_env, guarded
from .values import Card, Seat, ZoneRef, to_json, zone_ref
from .values import seat as seat_value

if TYPE_CHECKING:
    from ..expr import ObjectType
    from .state import State

PLAYED = "$played"       # state.vars key: {"round": n, "by": {str(card id): seat index},
                         #                  "off": {str(seat index): [suits led it did not follow]}}


@dataclass(frozen=True)
class TrickRules:
    zone: str                # the shared zone a trick is played to
    hand: str                # the per-seat zone cards are played from
    suit: Callable           # (ctx, {"card": card}) -> the card's effective suit
    rank: Callable           # (ctx, {"card": card}) -> its rank within that suit
    trump: Callable | None   # (ctx, {}) -> the trump suit now, or none
    must_follow: bool = True  # a seat must follow the suit led when it can
    if TYPE_CHECKING:       # set by __post_init__ (at run time, not fields)
        trick_ref: ZoneRef = field(init=False)
        _hands: dict[int, ZoneRef] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "trick_ref", zone_ref(self.zone))
        object.__setattr__(self, "_hands", {})

    def hand_of(self, seat: int) -> ZoneRef:
        """The seat's hand (the zone references, made once: read at every listing)."""
        hands = self._hands
        ref = hands.get(seat)
        if ref is None:
            ref = hands[seat] = zone_ref(self.hand, seat)
        return ref


def compile_rules(compiler: Any, section: dict) -> TrickRules:
    """The ``tricks:`` section, its expressions compiled in the game's scope."""
    path = ("tricks",)
    compiler.check_zone_name(section["zone"], path + ("zone",), per="game")
    compiler.check_zone_name(section["hand"], path + ("hand",), per="seat")
    card = {"card": compiler.game.types.card}
    suit, rank = compiler.expr(path + ("suit",), card), compiler.expr(path + ("rank",), card)
    return TrickRules(
        zone=section["zone"], hand=section["hand"], suit=suit, rank=rank,
        trump=compiler.expr(path + ("trump",)) if "trump" in section else None,
        must_follow=section.get("must_follow", True),
    )


# -- what the rules say about cards and tricks ------------------------------------------------------

def _rules(ctx: Ctx) -> TrickRules:
    return ctx.game.tricks


# A function below that looks at several cards hands one ``memo`` to all its evaluations of the
# section's expressions: nothing changes in between, so a defined function they share (whether a
# card is a trump, asked by its suit and by its rank) is worked out once per card.

def suit_of(ctx: Ctx, card: Any, memo: dict | None = None) -> Any:
    rules = ctx.game.tricks
    card = _card(card, "suit_of")
    return guarded(ctx, rules.suit, card_env(card, memo))


def rank_of(ctx: Ctx, card: Any, memo: dict | None = None) -> Any:
    rules = ctx.game.tricks
    card = _card(card, "rank_of")
    return guarded(ctx, rules.rank, card_env(card, memo))


def trump_of(ctx: Ctx, memo: dict | None = None) -> Any:
    trump = _rules(ctx).trump
    return None if trump is None else guarded(ctx, trump, {} if memo is None else {MEMO: memo})


def _trick_ids(ctx: Ctx) -> list:
    """The ids of the trick's cards, first played first."""
    return ctx.game.pile(ctx.state, ctx.game.tricks.trick_ref)


def trick_cards(ctx: Ctx) -> list[Card]:
    table = ctx.game.card_table(ctx.state.players)
    return [table[c] for c in _trick_ids(ctx)]


def led_suit(ctx: Ctx, memo: dict | None = None) -> Any:
    ids = _trick_ids(ctx)
    if not ids:
        return None
    return _suit_of(ctx, ctx.game.card_table(ctx.state.players)[ids[0]], memo)


def _suit_of(ctx: Ctx, card: Card, memo: dict | None) -> Any:
    """``suit_of`` of a card taken from a zone (a card: not checked again)."""
    rules = ctx.game.tricks
    return guarded(ctx, rules.suit, card_env(card, memo))


def winning_card(ctx: Ctx) -> Card | None:
    """The card winning the trick so far: the highest trump, else the highest of the suit led."""
    cards = trick_cards(ctx)
    if not cards:
        return None
    memo: dict = {}
    trump = trump_of(ctx, memo)
    suits, ranks = Values(ctx, "suit", memo), Values(ctx, "rank", memo)
    suit_of_card, rank_of_card = suits.of, ranks.of
    best = cards[0]
    best_suit, best_rank = suit_of_card(best), rank_of_card(best)
    for card in cards[1:]:
        suit = suit_of_card(card)
        if suit == best_suit:
            rank = rank_of_card(card)
            if _higher(rank, best_rank):
                best, best_rank = card, rank
        elif trump is not None and suit == trump:
            best, best_suit, best_rank = card, suit, rank_of_card(card)
    return best


def _higher(rank: Any, best: Any) -> bool:
    if not _is_number(rank) or not _is_number(best):
        raise EvalError(f"tricks: a card's rank must be a number, not {show(rank)}")
    return rank > best


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def trick_winner(ctx: Ctx) -> Seat | None:
    card = winning_card(ctx)
    return None if card is None else played_by(ctx, card)


def trick_leader(ctx: Ctx) -> Seat | None:
    cards = trick_cards(ctx)
    return played_by(ctx, cards[0]) if cards else None


def playable(ctx: Ctx) -> list[Card]:
    """The cards of the acting seat's hand it may play to the trick: those of the suit led, or
    any card when it holds none of that suit (or leads, or following is not compulsory)."""
    game, state, rules = ctx.game, ctx.state, ctx.game.tricks
    table = game.card_table(state.players)
    hand = [table[c] for c in game.pile(state, rules.hand_of(ctx.seat()))]
    trick = game.pile(state, rules.trick_ref)
    if not trick:
        return hand
    memo: dict = {}
    suits = Values(ctx, "suit", memo)
    led = suits.of(table[trick[0]])
    if not rules.must_follow:
        return hand
    following = [card for card in hand if suits.of(card) == led]
    return following or hand


def played_by(ctx: Ctx, card: Any) -> Seat | None:
    """The seat that played ``card`` to a trick in this round, or none."""
    record = ctx.state.vars.get(PLAYED)
    if record is None or record["round"] != ctx.state.round:
        return None
    seat = record["by"].get(str(_card(card, "played_by").id))
    return None if seat is None else seat_value(seat)


def play_to_trick(ctx: Ctx, card: Any) -> None:
    """Move ``card`` face up onto the trick and remember that the acting seat played it."""
    _play(ctx, _card(card, "play_to_trick"), ctx.seat())


def play_to_trick_for(ctx: Ctx, card: Any, by: Any) -> None:
    """``play_to_trick`` for the seat ``by``, as a declarer plays the dummy's cards."""
    _play(ctx, _card(card, "play_to_trick"), _seat(by, "play_to_trick's by"))


def _play(ctx: Ctx, card: Card, seat: int) -> None:
    state, game = ctx.state, ctx.game
    trick = game.pile(state, game.tricks.trick_ref)
    if trick:
        suits = Values(ctx, "suit", None)
        led = suits.of(game.card_table(state.players)[trick[0]])
    else:
        led = None
    game.place(state, card.id, game.tricks.trick_ref, "up", False)
    record = state.vars.get(PLAYED)
    if record is None or record["round"] != state.round:
        record = state.vars[PLAYED] = {"round": state.round, "by": {}, "off": {}}
    record["by"][str(card.id)] = seat
    if led is not None and suits.of(card) != led:
        off = record.setdefault("off", {}).setdefault(str(seat), [])
        if to_json(led) not in off:
            off.append(to_json(led))


def known_voids(game: Any, state: State) -> dict[int, list]:
    """The suits each seat is known to hold none of: those led in this round that it did not
    follow, where following is compulsory. Public facts: every seat saw those tricks."""
    record = state.vars.get(PLAYED)
    if game.tricks is None or not game.tricks.must_follow or record is None or record["round"] != state.round:
        return {}
    return {int(seat): suits for seat, suits in record.get("off", {}).items()}


def _seat(value: Any, where: str) -> int:
    if not isinstance(value, Seat):
        raise EvalError(f"{where}: {show(value)} is not a seat")
    return value.index


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, Card):
        raise EvalError(f"{where}: {show(value)} is not a card")
    return value


# -- names and functions for the game's expressions -----------------------------------------------

def bindings(seat_type: ObjectType, card_type: ObjectType) -> dict[str, Binding]:
    return {
        "led_suit": Binding(ANY, led_suit, "the effective suit of the trick's first card, or none", costly=True),
        "trick_winner": Binding(seat_type, trick_winner, "the seat whose card wins the trick so far, or none",
                                costly=True),
        "trick_leader": Binding(seat_type, trick_leader, "the seat that led to the trick, or none"),
        "playable": Binding(ListOf(card_type), playable, "the cards of the acting seat's hand it may play "
                            "(following suit when it can)", costly=True),
    }


def registry() -> Registry:
    """The built-ins with the functions of tricks added."""
    r = BUILTINS.extended()
    card = [Param("card", ANY)]
    r.register("suit_of", card, ANY, "The card's effective suit (the tricks: section's suit).", suit_of, needs_ctx=True)
    r.register("rank_of", card, ANY, "The card's rank within its effective suit.", rank_of, needs_ctx=True)
    r.register("played_by", card, ANY, "The seat that played the card to a trick in this round, or none.",
               played_by, needs_ctx=True)
    return r


# -- what a seat sees ------------------------------------------------------------------------------

def view_of(game: Any, state: State, seat: int | None, visible: Callable[[str, int | None, int], bool]) -> dict:
    """The trick's public facts, and the effective suit and rank of the cards ``seat`` sees in its
    own hand and in the trick (``visible(zone, owner, position)`` says which)."""
    with active(game, state):
        return _view_of(Ctx(game, state, seat), seat, visible)


def _view_of(ctx: Ctx, seat: int | None, visible: Callable[[str, int | None, int], bool]) -> dict:
    game, state, rules = ctx.game, ctx.state, ctx.game.tricks
    table = game.card_table(state.players)
    trick = game.pile(state, ZoneRef(rules.zone))
    shown = [visible(rules.zone, None, k) for k in range(len(trick))]
    plays = [[_seat_index(played_by(ctx, table[c])), table[c].label if seen else None]
             for c, seen in zip(trick, shown)]
    cards = [table[c] for c, seen in zip(trick, shown) if seen]
    if seat is not None:
        hand = game.pile(state, ZoneRef(rules.hand, seat))
        cards += [table[c] for k, c in enumerate(hand) if visible(rules.hand, seat, k)]
    memo: dict = {}
    return {
        "zone": rules.zone, "hand": rules.hand, "trump": to_json(trump_of(ctx, memo)),
        "led": to_json(led_suit(ctx, memo)), "plays": plays, "leader": _seat_index(trick_leader(ctx)),
        "cards": {c.label: [to_json(suit_of(ctx, c, memo)), to_json(rank_of(ctx, c, memo))] for c in cards},
    }


def _seat_index(seat: Seat | None) -> int | None:
    return None if seat is None else seat.index
