"""What a game's lean state is made of: its cards as tables indexed by id, its zones in order,
its variables; worked out once from the compiled game.

The lean state keeps each zone as a list of piles laid out as the reference keeps them (the
piles of each owner in turn), each card's place as one int (``zone index << 14 | pile``), the
face of every card in a bytearray, and each variable in a slot of its own (a seat's or a team's
as a list by seat or team).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.game import Game
from .ltypes import Unsupported

PILE_BITS = 14              # a card's place: zone index << PILE_BITS | pile number
PILE_MASK = (1 << PILE_BITS) - 1


@dataclass
class ZoneShape:
    index: int
    name: str
    per: str                # game, seat or team
    face_up: bool           # how cards lie when they arrive
    piles: Any              # None (one per owner), or the compiled expression of the count
    slot: str = ""          # the state's attribute

    def __post_init__(self) -> None:
        self.slot = ident("z", self.name, self.index)


@dataclass
class Shape:
    game: Game
    zones: dict[str, ZoneShape] = field(default_factory=dict)
    cards: int = 0                          # cards in play (the same for every number of players)
    attrs: dict[str, tuple] = field(default_factory=dict)    # a printed attribute -> value by card id
    labels: tuple = ()
    unique_labels: bool = True
    game_vars: dict[str, Any] = field(default_factory=dict)   # name -> start value
    seat_vars: dict[str, Any] = field(default_factory=dict)
    team_vars: dict[str, Any] = field(default_factory=dict)

    @property
    def teams(self) -> bool:
        return self.game.teams is not None


def shape_of(game: Game) -> Shape:
    """The shape of ``game``'s lean state; Unsupported for what it does not keep yet."""
    shape = Shape(game)
    _zones(game, shape)
    _cards(game, shape)
    variables = game.variables
    shape.game_vars = dict(variables.get("game", {}))
    shape.seat_vars = dict(variables.get("seat", {}))
    shape.team_vars = dict(variables.get("team", {}))
    return shape


def _zones(game: Game, shape: Shape) -> None:
    for i, (name, zone) in enumerate(game.zones.items()):
        if zone.grid is not None:
            raise Unsupported(f"zone '{name}' is a grid")
        shape.zones[name] = ZoneShape(i, name, zone.per, zone.face == "up",
                                      game.pile_counts.get(name))


def _cards(game: Game, shape: Shape) -> None:
    decks = game.spec.data.get("decks", {})
    if any(deck.get("per_seat") for deck in decks.values()):
        raise Unsupported("a deck is dealt per seat (its cards depend on the number of players)")
    table = game.card_table(game.min_players)
    if len(table) > PILE_MASK:
        raise Unsupported(f"{len(table)} cards are more than the lean engine places")
    shape.cards = len(table)
    names: dict[str, None] = {}
    for card in table:
        for key in card.attrs:
            if key not in ("owner",):
                names.setdefault(key, None)
    shape.attrs = {name: tuple(card.attrs.get(name) for card in table) for name in names}
    shape.labels = tuple(card.label for card in table)
    shape.unique_labels = len(set(shape.labels)) == len(shape.labels)


def ident(prefix: str, name: str, index: int) -> str:
    """An identifier of generated code for a name of the game: the name when it is one of
    letters, digits and '_' (as the game file's names are), else its index."""
    if name and name.replace("_", "a").isalnum() and name.isascii() and not name[0].isdigit():
        return f"{prefix}_{name}"
    return f"{prefix}{index}"
