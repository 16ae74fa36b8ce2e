"""States sampled from what one seat has observed, for bots ("determinizations").

The cards a seat cannot see are dealt again at random among the places it cannot see, the dice
in the cups it cannot see are thrown again, and the random generator is replaced, so dice not yet
thrown and shuffles to come are guessed too. The deal keeps what the seat has observed: how many
cards lie where, which are face up, and the suits a seat is known to hold none of because it did
not follow them (``tricks.known_voids``). A sample therefore reveals nothing that the seat's view
does not.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..engine import rng, tricks
from ..engine.context import Ctx, active
from ..engine.loaded import compiled_game
from ..engine.state import State
from ..engine.values import ZoneRef, to_json
from ..engine.views import cup_visible, hidden_in_pile

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.loaded import LoadedGame

# Deals tried before the observations are given up: they can contradict each other only when a
# game puts new cards in a hand during a round of tricks.
REDEAL_TRIES = 20


def sample_state(game: Game | LoadedGame, state: State, seat: int, seed: int) -> State:
    """A state consistent with everything ``seat`` has observed, its hidden cards dealt again
    (``game``: what ``load_game`` returns, or its compiled game)."""
    game = compiled_game(game)
    sample = state.clone()
    places = hidden_places(game, sample, seat)
    face_up = [pile[k] in sample.face_up for pile, k in places]
    # Sorted, so that the deal depends on which cards are hidden, never on where they lie.
    cards = sorted(pile[k] for pile, k in places)
    generator = rng.seed_state(seed)
    dealt, generator = _deal(game, sample, cards, _forbidden_suits(game, sample, places), generator)
    for (pile, k), card, up in zip(places, dealt, face_up):
        pile[k] = card
        (sample.face_up.add if up else sample.face_up.discard)(card)
    sample.rng = _cups_thrown_again(game, sample, seat, generator)
    return sample


def _cups_thrown_again(game: Game, sample: State, seat: int, generator: int) -> int:
    """The cups ``seat`` cannot see thrown again, seat by seat, die by die (every face as likely:
    nothing a seat observes says more); the generator after them."""
    if game.dice_per != "seat":
        return generator
    cups = list(sample.dice)
    for owner, cup in enumerate(cups):
        if cup_visible(game, sample, owner, seat):
            continue
        thrown = []
        for _ in cup:
            face, generator = rng.below(generator, game.dice_faces)
            thrown.append(face + 1)
        cups[owner] = sorted(thrown) if game.dice_sorted else thrown
    sample.dice = cups
    return generator


def hidden_places(game: Game, state: State, seat: int) -> list[tuple[list[int], int]]:
    """Every (pile, position) holding a card ``seat`` cannot see."""
    places = []
    for name, piles in state.zones.items():
        for i, pile in enumerate(piles):
            places += [(pile, k) for k in hidden_in_pile(game, state, name, game.pile_owner(state, name, i), pile, seat)]
    return places


def _forbidden_suits(game: Any, state: State, places: list) -> list[list] | None:
    """For each hidden place, the suits its card may not have (None: no place is restricted)."""
    voids = tricks.known_voids(game, state)
    if not voids:
        return None
    hand = game.tricks.hand
    suits_of_pile = {id(game.pile(state, ZoneRef(hand, seat))): suits for seat, suits in voids.items()}
    forbidden = [suits_of_pile.get(id(pile), []) for pile, _ in places]
    return forbidden if any(forbidden) else None


def _deal(game: Game, state: State, cards: list[int], forbidden: list[list] | None, generator: int):
    """The hidden cards in a random order that respects ``forbidden``, place by place."""
    if forbidden is None:
        return rng.shuffled(generator, cards)
    return deal_respecting(cards, forbidden, _suits(game, state, cards), generator)


def deal_respecting(cards: list[int], forbidden: list[list], suit: dict[int, Any], generator: int):
    """The cards shuffled until a deal fits the places (each card's ``suit`` not forbidden at its
    place), at most ``REDEAL_TRIES`` times; then any shuffle. The deal and the generator after it."""
    for _ in range(REDEAL_TRIES):
        order, generator = rng.shuffled(generator, cards)
        dealt = _first_fit(order, forbidden, suit)
        if dealt is not None:
            return dealt, generator
    return rng.shuffled(generator, cards)


def _first_fit(order: list[int], forbidden: list[list], suit: dict[int, Any]) -> list[int] | None:
    """The most restricted places first, each taking the first card left in ``order`` it may
    hold; None when some place finds none."""
    left = list(order)
    dealt: list[int | None] = [None] * len(order)
    by_restriction = sorted(range(len(order)), key=lambda i: -len(forbidden[i]))
    for i in by_restriction:
        pick = next((k for k, card in enumerate(left) if suit[card] not in forbidden[i]), None)
        if pick is None:
            return None
        dealt[i] = left.pop(pick)
    return cast("list[int]", dealt)       # every place took a card


def _suits(game: Game, state: State, cards: list[int]) -> dict[int, Any]:
    """Each card's effective suit now, as stored in the record of suits not followed."""
    table = game.card_table(state.players)
    with active(game, state):
        ctx = Ctx(game, state)
        return {card: to_json(tricks.suit_of(ctx, table[card])) for card in cards}
