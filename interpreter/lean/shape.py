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

from ..engine.context import active
from ..engine.core import place_zones, started
from ..engine.game_parts import deck_cards
from ..engine.game import Game
from ..engine.rng import seed_state
from ..engine.state import State
from ..engine.values import Seat
from ..limits import MAX_PILES
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
    grid: tuple[int, int] | None = None     # (rows, cols) of a grid zone's piles
    slot: str = ""          # the state's attribute

    def __post_init__(self) -> None:
        self.slot = ident("z", self.name, self.index)


@dataclass
class Shape:
    game: Game
    zones: dict[str, ZoneShape] = field(default_factory=dict)
    cards: int = 0                          # cards of the largest table (fewer seats play a prefix of it)
    table: list = field(default_factory=list)    # the reference's cards, by id
    deck_sizes: dict[str, int] = field(default_factory=dict)  # a deck's cards (one seat's copy of a deck per seat)
    cards_for: dict[int, int] = field(default_factory=dict)   # number of players -> cards in play
    most_piles: dict[int, dict] = field(default_factory=dict)  # players -> zone of several piles -> piles an owner has
    attrs: dict[str, tuple] = field(default_factory=dict)    # a printed attribute -> value by card id
    labels: tuple = ()
    unique_labels: bool = True
    game_vars: dict[str, Any] = field(default_factory=dict)   # name -> start value
    seat_vars: dict[str, Any] = field(default_factory=dict)
    team_vars: dict[str, Any] = field(default_factory=dict)

    @property
    def grids(self) -> tuple[int, ...]:
        """The indexes of the grid zones."""
        return tuple(zone.index for zone in self.zones.values() if zone.grid is not None)

    def piles_each(self, name: str) -> int:
        """The piles each owner has of a zone of several piles kept per seat or team (the same
        for every number of players)."""
        return next(iter(self.most_piles.values()))[name]

    @property
    def teams(self) -> bool:
        return self.game.teams is not None


def shape_of(game: Game) -> Shape:
    """The shape of ``game``'s lean state; Unsupported for what it does not keep yet."""
    shape = Shape(game)
    _zones(game, shape)
    _cards(game, shape)
    _most_piles(game, shape)
    variables = game.variables
    shape.game_vars = dict(variables.get("game", {}))
    shape.seat_vars = dict(variables.get("seat", {}))
    shape.team_vars = dict(variables.get("team", {}))
    return shape


def _zones(game: Game, shape: Shape) -> None:
    for i, (name, zone) in enumerate(game.zones.items()):
        grid = None if zone.grid is None else (zone.grid["rows"], zone.grid["cols"])
        shape.zones[name] = ZoneShape(i, name, zone.per, zone.face == "up", game.pile_counts.get(name), grid)


def _cards(game: Game, shape: Shape) -> None:
    table = game.card_table(game.max_players)
    for players in range(game.min_players, game.max_players):
        fewer = game.card_table(players)
        if [(c.label, c.attrs) for c in fewer] != [(c.label, c.attrs) for c in table[:len(fewer)]]:
            raise Unsupported("the cards' ids depend on the number of players (a deck per seat before another deck)")
    if len(table) > PILE_MASK:
        raise Unsupported(f"{len(table)} cards are more than the lean engine places")
    shape.cards, shape.table = len(table), table
    shape.cards_for = {p: len(game.card_table(p)) for p in range(game.min_players, game.max_players + 1)}
    for name, deck in game.spec.data.get("decks", {}).items():
        shape.deck_sizes[name] = len(deck_cards(deck))
    names: dict[str, None] = {}
    for card in table:
        for key in card.attrs:
            names.setdefault(key, None)
    shape.attrs = {name: tuple(_attr(card.attrs.get(name)) for card in table) for name in names}
    shape.labels = tuple(card.label for card in table)
    shape.unique_labels = len(set(shape.labels)) == len(shape.labels)


def _attr(value: Any) -> Any:
    """A card's attribute as the lean state keeps it: a seat (a card's owner) as its index."""
    return value.index if isinstance(value, Seat) else value


def _most_piles(game: Game, shape: Shape) -> None:
    """The piles one owner has of each zone of several piles, for each number of players
    (``piles:`` is worked out at set-up from the options, the players and the start values, as
    ``engine.core.check_piles`` does at load); the limit on piles where that fails."""
    for players in range(game.min_players, game.max_players + 1):
        state = started(game, State(players=players, rng=seed_state(0)))
        with active(game, state):
            try:
                place_zones(game, state)
                piles = {name: len(state.zones[name]) // game.owners(state, name) for name in game.pile_counts}
            except Exception:   # noqa: BLE001  (new_state reports it)
                piles = {name: MAX_PILES for name in game.pile_counts}
        shape.most_piles[players] = piles
    for name in game.pile_counts:
        counts = {piles[name] for piles in shape.most_piles.values()}
        if shape.zones[name].per != "game" and len(counts) > 1:
            raise Unsupported(f"zone '{name}' has a number of piles for each owner that depends on the number of players")


def ident(prefix: str, name: str, index: int) -> str:
    """An identifier of generated code for a name of the game: the name when it is one of
    letters, digits and '_' (as the game file's names are), else its index."""
    if name and name.replace("_", "a").isalnum() and name.isascii() and not name[0].isdigit():
        return f"{prefix}_{name}"
    return f"{prefix}{index}"
