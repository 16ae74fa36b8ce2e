"""The game a scenario is checked and run with, and the changes a scenario's start makes to a
state: variables merged, zones filled with named cards, cards laid face up or down."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import engine
from ..engine import grids
from ..engine.loaded import LoadedGame, load_game
from ..engine.state import State
from ..engine.values import Card, Seat, ZoneRef, copy_value
from ..errors import Position, SpecError
from .scenario_model import PILE, counted

if TYPE_CHECKING:
    from ..engine.game import Game


class GameLoader:
    """The game of a test run, compiled once per set of options its scenarios use."""

    def __init__(self, path: str | Path, options: dict[str, str] | None = None):
        self.path = str(path)
        self.options = dict(options or {})
        self._loaded: dict[tuple, LoadedGame] = {}
        self.base = self.get({})

    def get(self, extra: dict[str, str]) -> LoadedGame:
        merged = {**self.options, **extra}
        key = tuple(sorted(merged.items()))
        if key not in self._loaded:
            self._loaded[key] = load_game(self.path, merged)
        return self._loaded[key]


class ScenarioContext:
    """The game and player count one scenario is checked and run with."""

    def __init__(self, loaded: LoadedGame, players: int):
        self.loaded = loaded
        self.game = loaded.game
        self.players = players
        self.table = self.game.card_table(players)
        self.by_label: dict[str, list[int]] = {}
        for card in self.table:
            self.by_label.setdefault(card.label, []).append(card.id)

    def labels_in(self, ref: ZoneRef) -> Callable:
        return lambda state: [self.table[c].label for c in grids.cards_in(pile_of(self.game, state, ref))]

    def count_in(self, ref: ZoneRef) -> Callable:
        return lambda state: len(grids.cards_in(pile_of(self.game, state, ref)))

    def moves_of(self, seat: int | None) -> Callable:
        def legal(state: State) -> list[str]:
            return [m.text for m in self.loaded.legal_moves(state, seat_to_act(self.loaded, state, seat))]
        return legal

    def winners(self, state: State) -> list[str]:
        return [str(Seat(s)) for s in engine.winners(self.game, state)]


RESULTS = {
    "scores": lambda loaded: loaded.scores,
    "results": lambda loaded: loaded.results,
    "over": lambda loaded: lambda state: state.over,
    "round": lambda loaded: lambda state: state.round,
}


def seat_to_act(loaded: LoadedGame, state: State, seat: int | None) -> int | None:
    """``seat``, or else the one seat that may act; several seats acting at once must be named."""
    if seat is not None:
        return seat
    acting = loaded.acting_seats(state)
    if len(acting) > 1:
        names = ", ".join(str(Seat(s)) for s in acting)
        raise SpecError(f"several seats may act now ({names})", hint="name the seat, as {move: ..., seat: P1}")
    return acting[0] if acting else None


def setter(attribute: str, value: Any) -> Callable[[State], None]:
    def change(state: State) -> None:
        setattr(state, attribute, copy_value(value))
    return change


def cup_setter(owner: int, values: list[int]) -> Callable[[State], None]:
    """Sets one seat's cup of dice (a new list of cups: a cup is never changed in place)."""
    def change(state: State) -> None:
        cups = list(state.dice)
        cups[owner] = list(values)
        state.dice = cups
    return change


def merge(target: dict, values: dict) -> None:
    """Write ``values`` into ``target``; a map into a map is merged key by key."""
    for name, value in values.items():
        if isinstance(value, dict) and isinstance(target.get(name), dict):
            merge(target[name], value)
        else:
            target[name] = copy_value(value)


def owner_merge(level: str, owner: int, owner_text: str, values: dict, pos: Position) -> Callable[[State], None]:
    def change(state: State) -> None:
        merge(owned(getattr(state, f"{level}_vars"), owner, owner_text, pos), values)
    return change


def owned(holders: list, owner: int, owner_text: str, pos: Position | None = None) -> Any:
    if owner >= len(holders):
        raise SpecError(f"there is no team {owner_text}: this game has {counted(len(holders), 'team')}", pos)
    return holders[owner]


def pile_of(game: Game, state: State, ref: ZoneRef) -> list[int]:
    piles = state.zones[ref.name]
    if ref.owner is not None and ref.owner >= len(piles):
        raise SpecError(f"there is no team T{ref.owner + 1}: this game has {counted(len(piles), 'team')}")
    per_owner = len(piles) // game.owners(state, ref.name)
    if ref.index >= per_owner:
        raise SpecError(f"there is no pile {ref}: zone '{ref.name}' has {counted(per_owner, 'pile')} here")
    return game.pile(state, ref)


def pile_number(text: Any) -> tuple[str, int]:
    """``work#2`` -> ("work", 1); text without a pile number -> (text, 0)."""
    match = PILE.fullmatch(str(text))
    return (match.group(1), int(match.group(2)) - 1) if match else (str(text), 0)


def zone_setter(ctx: ScenarioContext, contents: dict[ZoneRef, list[int]], pos: Position) -> Callable[[State], None]:
    """Give each listed pile exactly its cards, taken from wherever they were; the cards it held
    and no longer does go back to their deck's zone (under its cards), or out of play when that
    zone is listed too."""
    game = ctx.game

    def change(state: State) -> None:
        named = {c for ids in contents.values() for c in ids}
        try:
            displaced = [c for ref in contents for c in grids.cards_in(pile_of(game, state, ref)) if c not in named]
        except SpecError as error:
            raise SpecError(error.message, pos) from None
        for name, piles in state.zones.items():
            for pile in piles:
                pile[:] = grids.without(pile, named, game.zones[name].grid is not None)
        for ref, ids in contents.items():
            if game.zones[ref.name].grid is not None and len(ids) > grids.size(game, ref.name):
                raise SpecError(f"{ref} is a grid of {grids.size(game, ref.name)} slots, not {len(ids)}", pos)
            game.pile(state, ref)[:] = ids
            lay(state, ids, game.zones[ref.name].face)
        going_home: dict[ZoneRef, list[int]] = {}
        for card in displaced:
            home = home_of(game, ctx.table[card])
            if home is not None and home not in contents:
                going_home.setdefault(home, []).append(card)
        for home, cards in going_home.items():
            game.pile(state, home)[:0] = cards
            lay(state, cards, game.zones[home.name].face)
    return change


def home_of(game: Game, card: Card) -> ZoneRef | None:
    """The zone a card's deck starts in (the owner's, for a zone per seat)."""
    zone = game.spec.data["decks"][card.attrs["deck"]].get("zone")
    if zone is None:
        return None
    owner = card.attrs["owner"]
    return ZoneRef(zone, owner.index if owner is not None and game.zones[zone].per == "seat" else None)


def lay(state: State, ids: list[int], face: str) -> None:
    (state.face_up.update if face == "up" else state.face_up.difference_update)(ids)


def face_setter(ids: list[int], up: bool) -> Callable[[State], None]:
    """Lay these cards face up (or down), wherever they are."""
    def change(state: State) -> None:
        (state.face_up.update if up else state.face_up.difference_update)(ids)
    return change
