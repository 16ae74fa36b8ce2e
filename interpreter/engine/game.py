"""A compiled game: everything about one game (with its options) that does not change during
play, plus the card table and the zones' bookkeeping.

``Game(spec)`` compiles the spec (``game_compiler``), which runs the semantic checks and reports
every problem at once as an ``ErrorList``. The result is immutable and serves any number of
states; the engine (``core``, ``legal``, ``flow``) runs them.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable

from ..errors import EvalError, LimitError
from ..limits import MAX_PILES
from ..load.spec import Spec
from . import grids
from .context import Ctx
from .game_compiler import GameCompiler
from .game_parts import MoveDef, Param, PhaseDef, deck_cards
from .values import Card, Seat, ZoneRef

if TYPE_CHECKING:
    from ..errors import Position
    from ..expr.runtime import Compiled
    from .game_types import GameTypes
    from .state import State
    from .tricks import TrickRules

__all__ = ["Game", "MoveDef", "Param", "PhaseDef", "deck_cards"]


class Game:
    """Everything about one game (with its options) that does not change during play."""

    # Set by GameCompiler as it compiles the spec: the game's compiled expressions and effects.
    types: GameTypes
    pile_counts: dict[str, Compiled]        # a zone's ``piles:``, for the zones that have one
    setup: Callable
    teams: Compiled | None
    tricks: TrickRules | None
    rounds: Compiled | None
    match_until: Compiled | None
    max_rounds: Callable
    round_start: Callable
    round_end: Callable
    moves: dict[str, MoveDef]
    phases: list[PhaseDef]
    triggers: list[tuple[Callable, Callable]]       # (when, do)
    score: Compiled | None
    score_order: str
    tiebreaks: list[Compiled]
    result: Compiled | None
    score_parts: dict[str, Compiled]
    showdown_zones: list[str]
    showdown_when: Compiled | None
    hint: Compiled | None
    bot_priority: list[str]
    bot_horizon: int | str | None           # moves, or "hand"
    bot_phase_horizons: dict[int, Any]
    shown: dict[str, dict[str, Compiled]]   # level ("game", "seat") -> label -> its value
    seat_marks: dict[str, Compiled]
    layout: dict

    def __init__(self, spec: Spec):
        self.spec = spec
        self.name = spec.name
        self.options = spec.options
        data = spec.data
        self.min_players, self.max_players, self.default_players = spec.players()
        self.zones = spec.zones()
        self._grid_zones = {name for name, zone in self.zones.items() if zone.grid is not None}
        self._faces = {name: zone.face for name, zone in self.zones.items()}
        self._owned_by = {name: zone.per for name, zone in self.zones.items()}
        self._per_seat = {name for name, zone in self.zones.items() if zone.per == "seat"}
        self.move_orders: dict = {}     # legal.py: lists of moves, those quickest to check first
        self.variables = spec.variables()
        dice = data.get("dice")
        self.dice_count = dice["count"] if dice else 0
        self.dice_faces = dice["faces"] if dice else 0
        self.dice_sorted = dice.get("sorted", True) if dice else True
        # One set for the table ("game"), or a cup for each seat ("seat"): then state.dice is a
        # list of cups, and visible_to says who sees a cup not revealed since it was thrown.
        self.dice_per = dice.get("per", "game") if dice else "game"
        self.dice_visible_to = dice.get("visible_to", "all") if dice else "all"
        self.phase_names = [p["name"] for p in data["flow"]["phases"]]
        self._decks = data.get("decks", {})
        self._card_tables: dict[int, list[Card]] = {}
        self.choice_targets: set[str] = set()    # the variables a choose_random effect sets
        GameCompiler(self, spec).compile()

    # -- cards -----------------------------------------------------------------------------------
    def card_table(self, players: int) -> list[Card]:
        """Every card in play for this number of seats (seat decks are copied per seat)."""
        table = self._card_tables.get(players)
        if table is None:
            table = self._card_tables[players] = self._build_cards(players)
        return table

    def _build_cards(self, players: int) -> list[Card]:
        cards: list[Card] = []
        for deck_name, deck in self._decks.items():
            printed = deck_cards(deck)
            owners = range(players) if deck.get("per_seat") else [None]
            for owner in owners:
                for attrs in printed:
                    full = {**attrs, "deck": deck_name, "owner": None if owner is None else Seat(owner)}
                    cards.append(Card(len(cards), attrs["label"], full))
        return cards

    def deck_zone(self) -> ZoneRef:
        for deck in self._decks.values():
            if "zone" in deck:
                return ZoneRef(deck["zone"])
        raise EvalError("deal: no 'from' zone and no deck names its zone")

    # -- zones -----------------------------------------------------------------------------------
    def pile(self, state: State, ref: ZoneRef) -> list[int]:
        name = ref.name
        piles = state.zones[name]
        if name not in self.pile_counts:        # one pile per owner: the common case, read on every move
            return piles[ref.owner or 0]
        owner = ref.owner
        if owner is None:                       # a shared zone of several piles
            return piles[ref.index]
        # as ``owners``, without a call: read on every move too
        owners = state.players if name in self._per_seat else len(state.team_vars) \
            if self._owned_by[name] == "team" else 1
        return piles[owner * (len(piles) // owners) + ref.index]

    def owners(self, state: State, zone: str) -> int:
        """How many owners a zone has: 1 when shared, else one per seat or per team."""
        per = self.zones[zone].per
        return state.players if per == "seat" else len(state.team_vars) if per == "team" else 1

    def pile_owner(self, state: State, zone: str, index: int) -> int | None:
        """The owner of the zone's pile number ``index`` (in the state's flat list of piles)."""
        if self.zones[zone].per == "game":
            return None
        return index // (len(state.zones[zone]) // self.owners(state, zone))

    def zone_refs(self, state: State, zone: str, owner: int | None) -> list[ZoneRef]:
        """The piles of a zone of several piles, for one owner."""
        return list(_numbered_refs(zone, owner, len(state.zones[zone]) // self.owners(state, zone)))

    def allocate_zones(self, state: State, per: tuple[str, ...]) -> None:
        """Empty piles for the zones kept ``per`` these kinds of owner; every pile of the state
        counted against ``limits.MAX_PILES`` before one is made, the error at the ``piles:``
        that passes it."""
        ctx = Ctx(self, state)
        total = sum(len(piles) for piles in state.zones.values())
        for name, zone in self.zones.items():
            if zone.per in per:
                count = self._pile_count(ctx, name)
                made = self.owners(state, name) * count
                if total + made > MAX_PILES:
                    raise self._too_many_piles(name, made, total, state.players)
                total += made
                state.zones[name] = [[] for _ in range(made)]

    def _too_many_piles(self, name: str, made: int, before: int, players: int) -> LimitError:
        others = f", and the zones before it {before}" if before else ""
        return LimitError(f"zone '{name}' has {made} piles with {players} players{others}: more than "
                          f"the limit of {MAX_PILES}", self._piles_pos(name),
                          hint="every zone's piles are counted, a zone's 'piles:' once for each "
                               "owner of a zone per seat or team")

    def _pile_count(self, ctx: Ctx, name: str) -> int:
        """A zone's ``piles:`` (1 without it), at least 1."""
        if name not in self.pile_counts:
            return 1
        count = int(self.pile_counts[name](ctx, {}))
        if count < 1:
            raise EvalError(f"zone '{name}' must have at least one pile, not {count}")
        return count

    def _piles_pos(self, name: str) -> Position:
        """Where a zone's ``piles:`` is written, or the zone's name without one."""
        compiled = self.pile_counts.get(name)
        return getattr(compiled, "pos", None) or self.spec.doc.key_pos(("zones", name))

    def place(self, state: State, card_id: int, target: ZoneRef, face: str | None, at_bottom: bool,
              slot: Any = None) -> int | None:
        """Move one card from wherever it is to the top (or bottom) of a zone; in a grid, to the
        first empty slot, or to ``slot``: the card that was there is returned, out of every zone."""
        places = state.places
        self._lift(state, places, card_id)
        name = target.name
        pile = self.pile(state, target)
        is_grid = name in self._grid_zones
        places[card_id] = (pile, is_grid)
        displaced = None
        if slot is not None:
            displaced = grids.put_at(self, target, pile, slot, card_id)
        elif is_grid:
            grids.put_in(self, target, pile, card_id)
        elif at_bottom:
            pile.insert(0, card_id)
        else:
            pile.append(card_id)
        if (face or self._faces[name]) == "up":
            state.face_up.add(card_id)
        else:
            state.face_up.discard(card_id)
        return displaced

    def _lift(self, state: State, places: dict, card_id: int) -> None:
        """Take a card out of its pile: the one ``places`` names when it is there (the common
        case first: a deal moves every card), else whichever holds it."""
        found = places.get(card_id)         # (pile, whether it is a grid's)
        if found is not None:
            if not found[1]:
                try:
                    found[0].remove(card_id)
                    return
                except ValueError:
                    pass
            elif card_id in found[0]:
                grids.take_out(found[0], card_id, True)
                return
        self._take_out(state, card_id)

    def place_cards(self, state: State, cards: list, target: ZoneRef, face: str | None, at_bottom: bool,
                    not_a_card: Callable[[Any], Exception]) -> None:
        """``place`` of each card of a list in turn onto one zone (the ``move`` effect);
        ``not_a_card(value)`` is the error raised when the loop reaches a value that is not a card
        (the cards before it are moved). Onto a zone that is not a grid, the target pile and the
        face are worked out once for the whole list."""
        name = target.name
        if name in self._grid_zones:
            for card in cards:
                if not isinstance(card, Card):
                    raise not_a_card(card)
                self.place(state, card.id, target, face, at_bottom)
            return
        up = (face or self._faces[name]) == "up"
        places, face_up, lift, pile, where = state.places, state.face_up, self._lift, None, None
        for card in cards:
            if type(card) is not Card and not isinstance(card, Card):
                raise not_a_card(card)
            card_id = card.id
            lift(state, places, card_id)
            if pile is None:        # looked up where ``place`` looks it up: after the first card is lifted
                pile = self.pile(state, target)
                where = (pile, False)
            places[card_id] = where
            if at_bottom:
                pile.insert(0, card_id)
            else:
                pile.append(card_id)
            if up:
                face_up.add(card_id)
            else:
                face_up.discard(card_id)

    def deal(self, state: State, source: list[int], targets: list[ZoneRef], rounds: int, face: str | None,
             ran_out: Callable[[], Exception]) -> None:
        """``place`` of the top card of the pile ``source`` on each of ``targets`` in turn (to the
        top), ``rounds`` times (the ``deal`` effect); ``ran_out()`` is the error raised when
        ``source`` is empty (the cards before are dealt). Onto zones that are not grids, each
        target's pile and face are worked out once, and a card whose place is known to be
        ``source`` is taken off its top."""
        if any(target.name in self._grid_zones for target in targets):
            for _ in range(rounds):
                for target in targets:
                    if not source:
                        raise ran_out()
                    self.place(state, source[-1], target, face, False)
            return
        places, face_up = state.places, state.face_up
        onto = []       # each target's pile, its place as ``places`` keeps it, and whether face up
        for target in targets:
            pile = self.pile(state, target)
            onto.append((pile, (pile, False), (face or self._faces[target.name]) == "up"))
        for _ in range(rounds):
            for pile, where, up in onto:
                if not source:
                    raise ran_out()
                card_id = source[-1]
                found = places.get(card_id)
                if found is not None and found[0] is source and not found[1]:
                    source.pop()
                else:
                    self._lift(state, places, card_id)
                places[card_id] = where
                pile.append(card_id)
                if up:
                    face_up.add(card_id)
                else:
                    face_up.discard(card_id)

    def _take_out(self, state: State, card_id: int) -> None:
        """Take a card out of whichever pile holds it, looking through every pile."""
        for name, piles in state.zones.items():
            for pile in piles:
                if card_id in pile:
                    grids.take_out(pile, card_id, self.zones[name].grid is not None)
                    return

    def team_of(self, state: State, seat: int) -> int:
        teams = state.vars.get("$teams")
        return teams[seat] if teams else seat

    def log(self, ctx: Ctx, text: str) -> None:
        """A log line of the game, told to whoever watches the state it was said in."""
        watcher = ctx.state.watcher
        if watcher is not None:
            watcher.heard(text)


@functools.lru_cache(maxsize=1024)
def _numbered_refs(zone: str, owner: int | None, count: int) -> tuple[ZoneRef, ...]:
    """The piles of one owner's zone of several piles: made once (read on every move)."""
    return tuple(ZoneRef(zone, owner, k, numbered=True) for k in range(count))
