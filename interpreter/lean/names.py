"""The names a game's expressions read (options, variables, zones, the flow's names) and the
members of cards, seats and zones, written over the lean state ``s``.

A name is looked up as the checker looks it up: a local, then a name of the game (its options,
variables, zones and the flow's names, in the order the engine's scope takes them), then a
defined function.
"""
from __future__ import annotations

from typing import Any

from ..expr import nodes as n
from .code import UNBOUNDED, Code, Env, const_code
from .ltypes import BOOL, CARD, EMPTY, INT, NONE, SEAT, STR, LType, ListT, Opt, Unsupported, Zone, strip

FLOW_NAMES = ("me", "current", "players", "player_count", "round", "turn", "phase")
TRICK_NAMES = ("led_suit", "trick_winner", "trick_leader", "playable")
SEAT_BITS = 7           # a seat's index, 0 to 63
CARD_BITS = 14


def host_names(game: Any) -> dict[str, str]:
    """Each name of the game's scope -> what it is (``option``, ``game``, ``seat`` or ``team``
    variable, ``zone``, ``flow``, ``dice``, ``tricks``), the later kinds hiding the earlier as in
    the engine's scope."""
    kinds: dict[str, str] = {}
    if game.tricks is not None:
        kinds.update({name: "tricks" for name in TRICK_NAMES})
    kinds.update({name: "option" for name in game.options})
    for level in ("game", "seat", "team"):
        kinds.update({name: level for name in game.variables.get(level, {})})
    kinds.update({name: "zone" for name in game.zones})
    kinds.update({name: "flow" for name in FLOW_NAMES})
    if game.dice_count:
        kinds["dice"] = "dice"
    return kinds


class NameWriter:
    def __init__(self, writer: Any):
        self.w = writer
        self.m = writer.m
        self.kinds = host_names(self.m.game)

    # -- names -----------------------------------------------------------------------------------
    def name(self, node: n.Name, env: Env) -> Code:
        name = node.name
        if name in env.names:
            return env.names[name]
        kind = self.kinds.get(name)
        if kind is not None:
            return getattr(self, "_" + kind)(name, env)
        if name in self.m.definitions:
            return self.w.calls.user(name, [], env)
        raise Unsupported(f"the name '{name}'")

    def me(self, env: Env) -> str:
        """The acting seat, checked to be one where it may be none."""
        if env.me is None:
            return "_fail()"
        return env.me if env.me_sure else f"_seat({env.me})"

    def _option(self, name: str, env: Env) -> Code:
        return const_code(self.m.game.options[name], self.m)

    def _game(self, name: str, env: Env) -> Code:
        kind = self.m.var_type("game", name)
        return Code(f"s.{self.m.var_slot('game', name)}", kind, live=_container(kind))

    def _seat(self, name: str, env: Env) -> Code:
        return self.seat_var(name, self.me(env))

    def _team(self, name: str, env: Env) -> Code:
        return self.team_var(name, self.me(env))

    def seat_var(self, name: str, seat: str) -> Code:
        kind = self.m.var_type("seat", name)
        return Code(f"s.{self.m.var_slot('seat', name)}[{seat}]", kind, live=_container(kind))

    def team_var(self, name: str, seat: str) -> Code:
        kind = self.m.var_type("team", name)
        return Code(f"s.{self.m.var_slot('team', name)}[{self.team_of(seat)}]", kind, live=_container(kind))

    def team_of(self, seat: str) -> str:
        return f"s.teams[{seat}]" if self.m.shape.teams else seat

    def _zone(self, name: str, env: Env) -> Code:
        zone = self.m.shape.zones[name]
        owner = {"game": None, "seat": lambda: self.me(env), "team": lambda: self.team_of(self.me(env))}[zone.per]
        return self.zone_of(name, None if owner is None else owner())

    def zone_of(self, name: str, owner: str | None) -> Code:
        """The zone ``name`` of ``owner`` (a Python expression; None for a shared zone): a pile's
        number, or the list of its piles' numbers in a zone of several."""
        zone = self.m.shape.zones[name]
        if zone.piles is None:
            return Code("0" if owner is None else owner, Zone(name), bits=CARD_BITS)
        count = self.m.pile_count(name)
        first = "0" if owner is None else f"{owner} * {count}"
        return Code(f"list(range({first}, {first} + {count}))", ListT(Zone(name)))

    def _flow(self, name: str, env: Env) -> Code:
        if name == "me":
            return Code(self.me(env), SEAT, bits=SEAT_BITS)
        if name == "current":
            return Code("s.current", Opt(SEAT), bits=SEAT_BITS)
        if name == "players":
            return Code("_PLAYERS[s.players]", ListT(SEAT), live=True, size=self.m.game.max_players, unique=True)
        if name == "player_count":
            return Code("s.players", INT, bits=SEAT_BITS)
        if name == "round":
            return Code("s.round", INT, bits=32)
        if name == "turn":
            return Code("(s.turns + 1)", INT, bits=32)
        return Code("_PHASES[s.phase]", STR)

    def _dice(self, name: str, env: Env) -> Code:
        """The table's dice, or with dice per seat the acting seat's cup."""
        if self.m.game.dice_per == "seat":
            return self.cup(self.me(env))
        return Code("s.dice", ListT(INT), live=True, bits=self.die_bits(), size=self.m.game.dice_count)

    def cup(self, seat: str) -> Code:
        """The cup of ``seat`` (a Python expression: none fails, as an index)."""
        return Code(f"s.dice[{seat}]", ListT(INT), live=True, bits=self.die_bits(), size=self.m.game.dice_count)

    def die_bits(self) -> int:
        """The bits of a die's face: a die only ever shows 1 to its faces (thrown, guessed, or
        set by a scenario, which checks it)."""
        return int(self.m.game.dice_faces or 0).bit_length() or UNBOUNDED

    def _tricks(self, name: str, env: Env) -> Code:
        return self.w.calls.trick_name(name, env)

    # -- members ---------------------------------------------------------------------------------
    def member(self, node: n.Member, env: Env) -> Code:
        obj = self.w.write(node.obj, env)
        kind = strip(obj.type)
        sure = not isinstance(obj.type, Opt)
        if kind == CARD:
            return self.card_member(obj.text, node.name, sure)
        if kind == SEAT:
            return self._seat_member(obj.text, node.name, sure)
        if isinstance(kind, Zone):
            return self.zone_member(obj.text, kind.name, node.name)
        if kind == NONE:
            return Code("_fail()", NONE)
        if kind == EMPTY:       # an item of a list or map never given one (yet: a later pass may learn it)
            return Code("_fail()", EMPTY)
        from .ltypes import MapT
        if isinstance(kind, MapT):
            return Code(f"{obj.text}[{self.m.const(node.name)}]", kind.value, live=_container(kind.value))
        raise Unsupported(f"the member '{node.name}' of {kind}")

    def card_member(self, card: str, name: str, sure: bool = False) -> Code:
        if name == "id":        # a card that may be none: + fails on none, as the reference does
            return Code(card if sure else f"(+{card})", INT, bits=CARD_BITS)
        if name == "label":
            return Code(f"_LABEL[{card}]", STR)
        if name == "face_up":
            return Code(f"(s.up[{card}] == 1)", BOOL)
        if name == "slot":
            if not self.m.shape.grids:
                raise Unsupported("a card's 'slot' in a game without grids")
            return Code(f"_card_slot(s, {card})", Opt(INT), bits=8)
        attrs = self.m.shape.attrs
        if name == "owner":
            owners = attrs["owner"]
            if all(owner is None for owner in owners):
                return Code("None", NONE)
            kind = SEAT if None not in owners else Opt(SEAT)
            return Code(f"{self.m.table(name)}[{card}]", kind, bits=SEAT_BITS)
        if name not in attrs:
            raise Unsupported(f"a card's '{name}'")
        kind, bits = self.m.attr_type(name)
        return Code(f"{self.m.table(name)}[{card}]", kind, bits=bits)

    def _seat_member(self, seat: str, name: str, sure: bool = False) -> Code:
        if name == "index":
            return Code(seat if sure else f"(+{seat})", INT, bits=SEAT_BITS)
        if name == "number":
            return Code(f"({seat} + 1)", INT, bits=SEAT_BITS)
        if name == "team":
            return Code(self.team_of(seat), INT, bits=SEAT_BITS)
        kind = self.kinds.get(name)
        if name in self.m.shape.seat_vars:
            return self.seat_var(name, seat)
        if name in self.m.shape.team_vars:
            return self.team_var(name, seat)
        zone = self.m.shape.zones.get(name)
        if zone is not None and zone.per != "game":
            return self.zone_of(name, seat if zone.per == "seat" else self.team_of(seat))
        if kind == "dice" and self.m.game.dice_per == "seat":
            return self.cup(seat)
        raise Unsupported(f"a seat's '{name}' ({kind})")

    def zone_member(self, pile: str, zone: str | None, name: str) -> Code:
        if zone is None:        # a place: any zone's pile
            piles, pile = f"s.zones[({pile}) >> 14]", f"({pile}) & 16383"
        else:
            piles = f"s.{self.m.shape.zones[zone].slot}"
        grid = self._grid_member(f"{piles}[{pile}]", zone, name)
        if grid is not None:
            return grid
        if name == "cards":
            return Code(f"{piles}[{pile}]", ListT(CARD), live=True, size=self.m.shape.cards, unique=True,
                        origin=f"{piles}[{pile}]", piles=((zone, f"{piles}[{pile}]"),) if zone is not None else ())
        if name == "size":
            return Code(f"len({piles}[{pile}])", INT, bits=CARD_BITS)
        if name == "empty":
            return Code(f"(not {piles}[{pile}])", BOOL)
        if name in ("top", "bottom"):
            read = f"{piles}[{pile}]"
            if zone is not None and (pile.isidentifier() or pile.isdigit()):     # read twice, cheaper than a call
                end = "-1" if name == "top" else "0"
                return Code(f"({read}[{end}] if {read} else None)", Opt(CARD), bits=CARD_BITS, origin=read)
            return Code(f"_{name}({read})", Opt(CARD), bits=CARD_BITS, origin=read)
        if name == "name" and zone is not None:
            return Code(self.m.const(zone), STR)
        if name in ("row_count", "col_count") and zone is not None:
            return Code("0", INT, bits=1)
        raise Unsupported(f"a zone's '{name}'")

    def _grid_member(self, read: str, zone: str | None, name: str) -> Code | None:
        """A member of a grid's pile (``engine/grids.py``); None where the pile is no grid's.
        What a grid gives is a list of its own (an empty slot is none): a card read from it
        has no pile to look in first (taking it out leaves its slot empty)."""
        grids = [z.grid for z in self.m.shape.zones.values() if z.grid is not None]
        if not grids:
            return None
        if zone is None:        # a place: it may be a grid's
            if name in ("slots", "rows", "cols", "lines", "row_count", "col_count"):
                raise Unsupported(f"a zone's '{name}' where the zone is not known")
            shape = grids[0]
        else:
            shape = self.m.shape.zones[zone].grid
            if shape is None:
                return None
        rows, cols = shape
        size = rows * cols
        slot = Opt(CARD)
        if name == "cards":
            return Code(f"_grid_cards({read})", ListT(CARD), size=self.m.shape.cards, unique=True)
        if name == "size":
            return Code(f"_grid_size({read})", INT, bits=CARD_BITS)
        if name == "empty":
            return Code(f"_grid_empty({read})", BOOL)
        if name in ("top", "bottom"):
            return Code(f"_grid_{name}({read})", Opt(CARD), bits=CARD_BITS)
        if name == "slots":
            return Code(f"_slots({read}, {size})", ListT(slot), size=size)
        if name in ("rows", "cols", "lines"):
            count = {"rows": rows, "cols": cols, "lines": rows + cols}[name]
            return Code(f"_{name}({read}, {size}, {cols})", ListT(ListT(slot)), size=count)
        if name in ("row_count", "col_count"):
            return Code(str(rows if name == "row_count" else cols), INT, bits=8)
        return None


def _container(kind: LType) -> bool:
    from .ltypes import MapT
    return isinstance(strip(kind), (ListT, MapT))
