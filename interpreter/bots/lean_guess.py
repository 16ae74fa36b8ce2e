"""``determinize.sample_state`` on the lean engine's states: the same guess, card for card.

The places a seat cannot see are found pile by pile from each zone's rules (in the order the
reference keeps its zones: those of the game and the seats, then those of the teams), the hidden
cards are dealt again among them with the same generator, keeping the suits a seat showed it
lacks, the cups it cannot see are thrown again with the generator after that, and the guess
gets the generator then for its chance to come.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import rng
from .determinize import deal_respecting, sample_state

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..lean.engine import LeanGame


def guess(lean: LeanGame, world: Any, seat: int, seed: int) -> Any:
    sample = lean.program.clone(world)
    places = _hidden_places(lean, sample, seat)
    up = sample.up
    face = [up[pile[k]] for pile, k in places]
    cards = sorted(pile[k] for pile, k in places)
    generator = rng.seed_state(seed)
    dealt, generator = _deal(lean, sample, cards, _forbidden(lean, sample, places), generator)
    for (pile, k), card, face_up in zip(places, dealt, face):
        pile[k] = card
        up[card] = face_up
    sample.rng = _cups_thrown_again(lean.game, sample, seat, generator)
    # Where it came from: the reference's own guess of the state it guesses (for an exact error)
    sample.origin = ("guess", world.origin, world.hist, seat, seed, sample_state)
    sample.hist = None
    return sample


def _cups_thrown_again(game: Game, sample: Any, seat: int, generator: int) -> int:
    """``determinize._cups_thrown_again``: the cups ``seat`` cannot see thrown again, seat by
    seat, die by die (each cup replaced: the guess shares the others with the state it copies);
    the generator after them."""
    if game.dice_per != "seat":
        return generator
    faces, keep_sorted, visible_to = game.dice_faces, game.dice_sorted, game.dice_visible_to
    cups = sample.dice
    for owner, cup in enumerate(cups):
        if visible_to == "all" or owner in sample.dice_shown or not _unseen(visible_to, seat, owner):
            continue        # ``views.cup_visible``
        thrown = []
        for _ in cup:
            face, generator = rng.below(generator, faces)
            thrown.append(face + 1)
        cups[owner] = sorted(thrown) if keep_sorted else thrown
    return generator


def _zones_in_order(lean: Any) -> list[tuple]:
    """Each zone's index in the state, owner kind and visibility, in the reference's order of
    zones (made once for a lean engine)."""
    kept = getattr(lean, "guess_zones", None)
    if kept is None:
        shape = lean.program.module.shape
        zones = [z for z in shape.zones.values() if z.per != "team"] + [z for z in shape.zones.values() if z.per == "team"]
        kept = lean.guess_zones = [(z.index, z.per, lean.game.zones[z.name].visible_to, lean.game.zones[z.name].top_only,
                                    z.grid is not None) for z in zones]
    return kept


def _hidden_places(lean: LeanGame, state: Any, seat: int) -> list[tuple[list[int], int]]:
    """``determinize.hidden_places``: every (pile, position) whose card ``seat`` cannot see."""
    places = []
    up = state.up
    for index, per, visible_to, top_only, grid in _zones_in_order(lean):
        piles = state.zones[index]
        if per == "game":
            owners, mine = 1, None
        elif per == "seat":
            owners, mine = state.players, seat
        else:
            owners, mine = state.nteams, seat if state.teams is None else state.teams[seat]
        per_owner = len(piles) // owners
        for i, pile in enumerate(piles):
            if not pile:
                continue
            hidden = _unseen(visible_to, mine, i // per_owner)
            if grid:        # an empty slot holds no card to guess
                last = len(pile) - 1
                places += [(pile, k) for k, card in enumerate(pile) if card is not None and (
                    hidden or not up[card] or top_only and k != last)]
            elif hidden:
                places += [(pile, k) for k in range(len(pile))]
            elif top_only:
                last = len(pile) - 1
                places += [(pile, k) for k, card in enumerate(pile) if k != last or not up[card]]
            else:
                places += [(pile, k) for k, card in enumerate(pile) if not up[card]]
    return places


def _forbidden(lean: LeanGame, state: Any, places: list) -> list[list] | None:
    """``determinize._forbidden_suits``: each place's suits its card may not have, or None."""
    tricks = lean.game.tricks
    if tricks is None or not tricks.must_follow or state.played_round != state.round or not state.voids:
        return None
    hands = getattr(state, lean.program.module.shape.zones[tricks.hand].slot)
    suits_of_pile = {id(hands[seat]): suits for seat, suits in state.voids.items()}
    forbidden = [suits_of_pile.get(id(pile), []) for pile, _ in places]
    return forbidden if any(forbidden) else None


def _deal(lean: LeanGame, state: Any, cards: list[int], forbidden: list[list] | None, generator: int):
    """``determinize._deal``: the hidden cards in a random order that respects ``forbidden``."""
    if forbidden is None:
        return rng.shuffled(generator, cards)
    suit_of = lean.program.t_suit
    return deal_respecting(cards, forbidden, {card: suit_of(state, None, card) for card in cards}, generator)


def _unseen(visible_to: str, mine: int | None, owner: int) -> bool:
    """``views.seat_sees`` for lean piles: are all the pile's cards hidden from the seat whose own
    piles are ``mine`` (None: it owns none of this zone)?"""
    if visible_to == "none":
        return True
    if visible_to == "owner":
        return mine is None or owner != mine
    if visible_to == "others":
        return mine is None or owner == mine
    return False
