"""The names a game's expressions may use, and the members of seats, cards and zones.

Built from the spec: options, variables (game, seat, team), zones, dice, and the flow's own
names (``me``, ``current``, ``players``, ``round``...). A seat variable named without a seat
means the acting seat's (``throws`` is ``me.throws``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..expr import (
    ANY,
    BOOL,
    INT,
    STR,
    Binding,
    ListOf,
    Member,
    ObjectType,
    register_object_type,
)
from . import grids
from .context import active_game, active_pair, active_state, evaluating
from .values import Card, Seat, ZoneRef, seat, seats, zone_ref

if TYPE_CHECKING:
    from ..load.spec import ZoneDef
    from .context import Ctx


def type_of(value: Any):
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if isinstance(value, list):
        return ListOf(ANY)
    return ANY


def flow_bindings(game: Any, seat_type: ObjectType) -> dict[str, Binding]:
    """Names every game has: who acts, who is playing, where the flow is."""
    def current(ctx):
        return None if ctx.state.current is None else seat(ctx.state.current)

    return {
        "me": Binding(seat_type, lambda ctx: seat(ctx.seat()), "the seat acting now", acting=True),
        "current": Binding(seat_type, current, "the seat whose turn it is, or none"),
        "players": Binding(ListOf(seat_type), lambda ctx: list(seats(ctx.state.players)),
                           "every seat, in seat order"),
        "player_count": Binding(INT, lambda ctx: ctx.state.players, "how many seats play"),
        "round": Binding(INT, lambda ctx: ctx.state.round, "the round being played, from 1"),
        "turn": Binding(INT, lambda ctx: ctx.state.turns + 1, "the turn within the phase, from 1"),
        "phase": Binding(STR, lambda ctx: game.phase_names[ctx.state.phase], "the name of the phase"),
    }


def dice_binding(game: Any) -> Binding:
    """``dice`` named alone: the table's dice, or with dice per seat the acting seat's cup."""
    if game.dice_per == "seat":
        return Binding(ListOf(INT), lambda ctx: ctx.state.dice[ctx.seat()], "the acting seat's dice",
                       acting=True)
    return Binding(ListOf(INT), lambda ctx: ctx.state.dice, "the dice, as their values")


def constant_getter(value: Any):
    """A getter of ``value`` whatever it is asked of (an option's)."""
    return lambda source: value


def variable_bindings(game: Any, variables: dict) -> dict[str, Binding]:
    names: dict[str, Binding] = {}
    for name, init in variables.get("game", {}).items():
        names[name] = Binding(type_of(init), _game_var(name), "a game variable")
    for name, init in variables.get("seat", {}).items():
        names[name] = Binding(type_of(init), _seat_var(name), "the acting seat's variable", acting=True)
    for name, init in variables.get("team", {}).items():
        names[name] = Binding(type_of(init), _team_var(game, name), "the acting seat's team's variable", acting=True)
    return names


def _game_var(name):
    return lambda ctx: ctx.state.vars[name]


def _seat_var(name):
    return lambda ctx: ctx.state.seat_vars[ctx.seat()][name]


def _team_var(game, name):
    return lambda ctx: ctx.state.team_vars[game.team_of(ctx.state, ctx.seat())][name]


def zone_bindings(game: Any, zones: dict, zone_type: ObjectType) -> dict[str, Binding]:
    """A zone named alone: the shared one, or the acting seat's (or its team's). A zone of several
    piles is a list of zones, one per pile."""
    names = {}
    for name, zone in zones.items():
        kind = zone_type if zone.piles is None else ListOf(zone_type)
        doc = {"game": "a shared zone", "seat": "the acting seat's zone", "team": "the acting seat's team's zone"}
        names[name] = Binding(kind, _zone_of(game, zone, _acting_seat), doc[zone.per], acting=zone.per != "game")
    return names


def _zone_of(game: Any, zone: ZoneDef, seat_of: Any):
    """A getter of the zone (or list of piles) owned by the seat ``seat_of`` gives."""
    name = zone.name
    if zone.piles is None:
        # A zone of one pile is read on every move: one call, and no step more than needed.
        if zone.per == "game":
            shared = zone_ref(name)
            return lambda source: shared
        if zone.per == "seat" and seat_of is _seat_index:
            return lambda source: zone_ref(name, source.index)
        if zone.per == "seat" and seat_of is _acting_seat:
            return lambda ctx: zone_ref(name, ctx.seat())
    if zone.per == "game":
        def owner(source) -> int | None:
            return None
    elif zone.per == "team":
        def owner(source) -> int | None:
            return game.team_of(active_state(), seat_of(source))
    else:
        owner = seat_of
    if zone.piles is None:
        return lambda source: zone_ref(name, owner(source))
    return lambda source: game.zone_refs(active_state(), name, owner(source))


def _acting_seat(ctx: Ctx) -> int:
    return ctx.seat()


def _seat_index(source: Seat) -> int:
    return source.index


# -- members of seats, cards and zones -------------------------------------------------------------

@dataclass(frozen=True)
class GameTypes:
    """The static types of one game's seats, zones and cards (their members depend on the spec)."""

    seat: ObjectType
    zone: ObjectType
    card: ObjectType


def game_types(game: Any, variables: dict, zones: dict, card_attributes: dict[str, Any]) -> GameTypes:
    card = card_type_for(card_attributes)
    zone = zone_type_for(card)
    return GameTypes(seat_type_for(game, variables, zones, zone), zone, card)


# The zone members read on every move find their pile without a call: ``Game.pile``'s common case
# (one pile per owner) written out, the others left to it.

def _zone_cards(ref: ZoneRef) -> list[Card]:
    game, state = pairs[-1] if (pairs := evaluating.pairs) else active_pair()     # no call: read on every move
    table = game.card_table(state.players)
    name = ref.name
    ids = game.pile(state, ref) if name in game.pile_counts else state.zones[name][ref.owner or 0]
    return [table[c] for c in ids if c is not None]   # None: an empty slot of a grid


def _end_card(ref: ZoneRef, last: bool) -> Card | None:
    """The top (or bottom) card without building the whole list: members read on every move."""
    game, state = pairs[-1] if (pairs := evaluating.pairs) else active_pair()     # no call: read on every move
    ids = game.pile(state, ref)
    for card in (reversed(ids) if last else ids):
        if card is not None:
            return game.card_table(state.players)[card]
    return None


def _top(ref: ZoneRef) -> Card | None:
    """``_end_card(ref, True)`` with its common case first: the last id of the pile is a card."""
    game, state = pairs[-1] if (pairs := evaluating.pairs) else active_pair()     # no call: read on every move
    name = ref.name
    ids = game.pile(state, ref) if name in game.pile_counts else state.zones[name][ref.owner or 0]
    if ids and ids[-1] is not None:
        return game.card_table(state.players)[ids[-1]]
    return _end_card(ref, True)


def _size(ref: ZoneRef) -> int:
    game, state = pairs[-1] if (pairs := evaluating.pairs) else active_pair()     # no call: read on every move
    name = ref.name
    ids = game.pile(state, ref) if name in game.pile_counts else state.zones[name][ref.owner or 0]
    return len(ids) - ids.count(None)


def _empty(ref: ZoneRef) -> bool:
    game, state = pairs[-1] if (pairs := evaluating.pairs) else active_pair()     # no call: read on every move
    name = ref.name
    ids = game.pile(state, ref) if name in game.pile_counts else state.zones[name][ref.owner or 0]
    return not ids or len(ids) == ids.count(None)


def zone_type_for(card: ObjectType) -> ObjectType:
    return ObjectType("zone", {
        "cards": Member(ListOf(card), _zone_cards, "the cards in the zone, bottom first"),
        "top": Member(card, _top, "the top card, or none"),
        "bottom": Member(card, lambda z: _end_card(z, False), "the bottom card, or none"),
        "size": Member(INT, _size, "how many cards the zone holds"),
        "empty": Member(BOOL, _empty, "whether the zone holds no card"),
        "owner": Member(ANY, lambda z: None if z.owner is None else seat(z.owner), "the owning seat (or team number), or none"),
        "index": Member(INT, lambda z: z.index, "which pile, in a zone of several piles (from 0)"),
        "name": Member(STR, lambda z: z.name, "the zone's name"),
        **grids.zone_members(card),
    })


def seat_type_for(game: Any, variables: dict, zones: dict, zone_type: ObjectType) -> ObjectType:
    """The seat type with this game's seat variables and seat zones as members."""
    members = {
        "index": Member(INT, lambda s: s.index, "the seat number from 0"),
        "number": Member(INT, lambda s: s.index + 1, "the seat number from 1"),
        # The state read straight from the stack of active pairs (``active_state`` without its
        # call) in the members read most.
        "team": Member(INT, lambda s: game.team_of(pairs[-1][1] if (pairs := evaluating.pairs) else active_state(), s.index),
                       "the seat's team, from 0"),
    }
    for name, init in variables.get("seat", {}).items():
        members[name] = Member(type_of(init), _seat_member(name), "a seat variable")
    for name, init in variables.get("team", {}).items():
        members[name] = Member(type_of(init), _team_member(game, name), "a variable of the seat's team")
    for name, zone in zones.items():
        if zone.per != "game":
            kind = zone_type if zone.piles is None else ListOf(zone_type)
            members[name] = Member(kind, _zone_of(game, zone, _seat_index), "the seat's (or its team's) zone")
    if game.dice_count and game.dice_per == "seat":
        members["dice"] = Member(ListOf(INT), lambda s: active_state().dice[s.index], "the seat's dice, as their values")
    return ObjectType("seat", members)


def _seat_member(name):
    return lambda s: (pairs[-1][1] if (pairs := evaluating.pairs) else active_state()).seat_vars[s.index][name]


def _team_member(game, name):
    return lambda s: active_state().team_vars[game.team_of(active_state(), s.index)][name]


def card_type_for(attributes: dict[str, Any]) -> ObjectType:
    """The card type with the attributes the game's decks print on their cards."""
    members = {
        "id": Member(INT, lambda c: c.id, "the card's unique number"),
        "label": Member(STR, lambda c: c.label, "the card's short name"),
        "face_up": Member(BOOL, lambda c: c.id in (pairs[-1][1] if (pairs := evaluating.pairs) else active_state()).face_up,
                          "whether the card lies face up"),
        "owner": Member(ANY, lambda c: c.attrs.get("owner"), "the seat whose deck the card belongs to"),
        "deck": Member(STR, lambda c: c.attrs.get("deck"), "the name of the card's deck"),
        **grids.card_members(),
    }
    for name, sample in attributes.items():
        members.setdefault(name, Member(type_of(sample), _card_attr(name), "a printed attribute"))
    return ObjectType("card", members)


def _card_attr(name):
    return lambda c: c.attrs.get(name)


class _ActiveMembers(Mapping):
    """The members of seats, cards or zones of the game being played right now.

    Several games may be loaded in one process, each with its own seat variables and card
    attributes; a value whose type was not known statically finds its members in the game that
    is active when it is read."""

    def __init__(self, kind: str):
        self.kind = kind        # which of the game's types: seat, card or zone

    def _members(self) -> dict:
        return getattr(active_game().types, self.kind).members

    def __getitem__(self, name: str) -> Member:
        return self._members()[name]

    def get(self, name: str, default: Any = None) -> Any:
        # The hot path of every member read whose type was not known statically: the active
        # pair is read straight from the stack, not through active_game().
        pairs = evaluating.pairs
        if not pairs:
            active_game()       # raises the error for a read outside of a game
        return getattr(pairs[-1][0].types, self.kind).members.get(name, default)

    def __iter__(self):
        return iter(self._members())

    def __len__(self) -> int:
        return len(self._members())


def _active_type(name: str) -> ObjectType:
    object_type = ObjectType(name)
    object.__setattr__(object_type, "members", _ActiveMembers(name))
    return object_type


register_object_type(Seat, _active_type("seat"))
register_object_type(Card, _active_type("card"))
register_object_type(ZoneRef, _active_type("zone"))
