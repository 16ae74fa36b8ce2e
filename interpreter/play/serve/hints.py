"""Where a legal move's cards and piles lie on the table, so that a page can play it by a click
or a drag: for each move, its spots in order, ``[zone, pile]`` for a pile and
``[zone, pile, position]`` for a card (indices into the view's ``zones``), ``["#die", k]`` for
the die ``k`` of a move that chooses some of the dice (which to throw again): of the table's
dice, or where each seat has its own cup, of the seat's own cup (never another's); a move without
choices lies on the seat's pile its rules name first (``pile_moves.py``).

Only a card the seat can see is placed (a hidden one is left out), and a die only in dice the
seat can see: a hint says nothing the view does not.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.values import Card, ZoneRef
from ...engine.views import card_visible, cup_visible
from ..pile_moves import first_zones, own_pile

if TYPE_CHECKING:
    from ...engine.game import Game
    from ...engine.state import State


def move_spots(game: Game, state: State, seat: int, moves: list) -> dict[str, list[list]]:
    where = _card_places(state)
    first = first_zones(game.spec.data)
    dice = _own_dice(game, state, seat)
    spots = {}
    for move in moves:
        found: list[list] = []
        for arg in move.args:
            if _dice_chosen(arg, dice):
                found += _die_spots(arg, dice)
            else:
                _add(game, state, seat, arg, where, found)
        if not move.args and move.name in first:       # the pile its rules name: the stock to turn
            pile = own_pile(game, state, first[move.name], seat)
            found = [] if pile is None else [[first[move.name], pile]]
        spots[move.text] = found
    return spots


def _own_dice(game: Game, state: State, seat: int) -> list[int]:
    """The dice a move of ``seat`` chooses among: the table's, or with a cup per seat the seat's
    own cup, when the seat may see it (else none: its dice are not placed)."""
    if game.dice_per != "seat":
        return state.dice
    return state.dice[seat] if cup_visible(game, state, seat, seat) else []


def _dice_chosen(value: Any, dice: list[int]) -> bool:
    """Is ``value`` some of the dice: a list of their values (a die counted once)?"""
    if not dice or not isinstance(value, (list, tuple)) or not value:
        return False
    left = list(dice)
    for item in value:
        if type(item) is not int or item not in left:
            return False
        left.remove(item)
    return True


def _die_spots(values: Any, dice: list[int]) -> list[list]:
    """The dice that show ``values``, the first free die of each value."""
    free = list(enumerate(dice))
    spots = []
    for value in values:
        k = next(n for n, (_, die) in enumerate(free) if die == value)
        spots.append(["#die", free.pop(k)[0]])
    return spots


def _card_places(state: State) -> dict[int, tuple[str, int, int]]:
    return {card: (zone, i, k) for zone, piles in state.zones.items()
            for i, pile in enumerate(piles) for k, card in enumerate(pile) if card is not None}


def _add(game: Game, state: State, seat: int, value: Any, where: dict, found: list) -> None:
    if isinstance(value, (list, tuple)):
        for item in value:
            _add(game, state, seat, item, where, found)
    elif isinstance(value, Card) and value.id in where:
        zone, i, k = where[value.id]
        pile = state.zones[zone][i]
        if card_visible(game, state, zone, game.pile_owner(state, zone, i), pile, k, seat):
            found.append([zone, i, k])
    elif isinstance(value, ZoneRef) and value.name in state.zones:
        per_owner = len(state.zones[value.name]) // game.owners(state, value.name)
        found.append([value.name, (value.owner or 0) * per_owner + value.index])
