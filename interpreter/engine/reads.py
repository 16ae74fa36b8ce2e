"""What the listing of each move reads in a state, worked out once from its checked expressions.

The listing of a move (its parameters' lists and its ``when`` clauses, with the defined
functions they call) reads parts of the state: piles, variables, the flow's position, which
cards lie face up. This module walks those expressions' trees at load and says which parts, as
keys that ``listing_cache`` instantiates for a seat and compares between two listings:

- ``("pile", zone, owner)``: the piles of ``zone`` owned by ``owner``: ``None`` for a shared
  zone, ``ME`` for the listing seat's own, ``ANY`` for every owner's;
- ``("allpiles",)``: every pile of every zone;
- ``("var", name)``, ``("seatvar", name, ME | ANY)``, ``("teamvar", name)``;
- ``("flow", attribute)`` (``round``, ``turns``, ``phase``, ``current``), ``("face",)``, ``("dice",)``.

A move whose expressions use something this walk does not know (a name the host adds, such as
the tricks' names, or a built-in that reads the context) reads ``None``: anything. It is then
listed afresh every time.

Values are followed as sets of *atoms* saying what seats and zones they may be or hold:
``("seat", ME)``, ``("seat", ANY)``, ``("zone", name, owner)``, ``("card",)`` and ``TOP``
(anything at all: a variable's stored value, the seat whose turn it is). A read through a seat
is the listing seat's own only when every seat the value may hold is ``ME``; anything else
reads every owner's. Zones are counted as read as soon as a zone value is made (``me.hand``),
whatever is done with it afterwards: an over-approximation, always safe.
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ..expr import nodes as n
from ..expr.builtins import BUILTINS
from .game_parts import parsed_definitions

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from .game_parts import MoveDef

ME, ANY = "me", "any"
TOP = ("top",)
CARD = ("card",)
MAP = ("map",)      # a map: its members are its keys, whose values keep the map's atoms
SEAT_ME, SEAT_ANY = ("seat", ME), ("seat", ANY)
EVERYTHING = ("everything",)     # a read this walk cannot bound
NOTHING: frozenset = frozenset()
_TOP = frozenset([TOP])

FLOW_NAMES = {"round": "round", "turn": "turns", "phase": "phase"}
ZONE_CONTENT = {"cards", "top", "bottom", "size", "empty", "slots", "rows", "cols", "lines", "row_count", "col_count"}
CARD_RESULTS = {"cards", "top", "bottom", "slots", "rows", "cols", "lines"}
_UNKNOWN = object()

_plans: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def move_reads(game: Any) -> dict[str, frozenset | None]:
    """For each move of ``game``, the keys its listing may read, or None when unbounded."""
    plan = _plans.get(game)
    if plan is None:
        walker = _Walker(game)
        plan = {name: walker.move(move) for name, move in game.moves.items()}
        _plans[game] = plan
    return plan


def expression_reads(game: Any, compiled: Any) -> frozenset:
    """The keys one compiled expression of ``game`` may read, ``me`` being the seat it is
    worked out for (a seat's score, say); ``EVERYTHING`` among them when the walk cannot bound it."""
    return frozenset(_Walker(game).expression(compiled, {}))


class _Walker:
    """One game's names, and the walk of its expressions."""

    def __init__(self, game: Any):
        self.game = game
        data = game.spec.data
        variables = game.variables
        # The host's names, in the order the compiler lays them (a later kind hides an earlier).
        self.kinds: dict[str, tuple] = {}
        if "tricks" in data:
            from . import tricks
            for name in tricks.bindings(game.types.seat, game.types.card):
                self.kinds[name] = ("unknown",)
        for name, value in game.options.items():
            self.kinds[name] = ("option", value)
        for name in variables.get("game", {}):
            self.kinds[name] = ("var",)
        for name in variables.get("seat", {}):
            self.kinds[name] = ("seatvar",)
        for name in variables.get("team", {}):
            self.kinds[name] = ("teamvar",)
        for name, zone in game.zones.items():
            self.kinds[name] = ("zone", zone.per)
        for name in ("me", "current", "players", "player_count", "round", "turn", "phase"):
            self.kinds[name] = ("flow",)
        if game.dice_count:
            self.kinds["dice"] = ("dice",)
        self.seat_vars = set(variables.get("seat", {}))
        self.team_vars = set(variables.get("team", {}))
        self.seat_zones = {name: zone.per for name, zone in game.zones.items() if zone.per != "game"}
        self.functions: dict[str, tuple[list[str], n.Node]] = parsed_definitions(data)
        self.registry = BUILTINS
        self._calls: dict[tuple, tuple[frozenset, frozenset]] = {}
        self._active: set[str] = set()

    # -- a move ------------------------------------------------------------------------------------
    def move(self, move: MoveDef) -> frozenset | None:
        reads: set = set()
        env: dict[str, frozenset] = {}
        for depth, param in enumerate(move.params):
            for check in move.stages[depth]:
                reads |= self.expression(check, env)
            atoms, more = self.walk(self.node_of(param.domain), env)
            reads |= more
            env[param.name] = atoms
        for check in move.stages[len(move.params)]:
            reads |= self.expression(check, env)
        return None if EVERYTHING in reads else frozenset(reads)

    @staticmethod
    def node_of(compiled: Any) -> n.Node | None:
        return getattr(compiled, "node", None)

    def expression(self, compiled: Any, env: dict) -> set:
        return set(self.walk(self.node_of(compiled), env)[1])

    # -- the walk: (atoms of the value, keys read) -------------------------------------------------
    def walk(self, node: n.Node | None, env: dict) -> tuple[frozenset, frozenset]:
        if node is None:
            return _TOP, frozenset([EVERYTHING])
        method = getattr(self, "_" + type(node).__name__.lower(), None)
        if method is None:
            return _TOP, frozenset([EVERYTHING])
        return method(node, env)

    def _all(self, items: Iterable[n.Node], env: dict) -> tuple[frozenset, frozenset]:
        atoms: set = set()
        reads: set = set()
        for item in items:
            a, r = self.walk(item, env)
            atoms |= a
            reads |= r
        return frozenset(atoms), frozenset(reads)

    def _plain(self, items: Iterable[n.Node], env: dict) -> tuple[frozenset, frozenset]:
        """Children whose values make a number or a truth value: no seat or zone comes out."""
        return NOTHING, self._all(items, env)[1]

    def _literal(self, node, env):
        return NOTHING, NOTHING

    def _name(self, node: n.Name, env: dict) -> tuple[frozenset, frozenset]:
        name = node.name
        if name in env:
            return env[name], NOTHING
        kind = self.kinds.get(name)
        if kind is not None:
            return self._host(name, kind)
        if name in self.functions:
            return self._call_defined(name, [], env)
        return _TOP, frozenset([EVERYTHING])

    def _host(self, name: str, kind: tuple) -> tuple[frozenset, frozenset]:
        what = kind[0]
        if what == "option":
            return NOTHING, NOTHING
        if what == "var":
            return _TOP, frozenset([("var", name)])
        if what == "seatvar":
            return _TOP, frozenset([("seatvar", name, ME)])
        if what == "teamvar":
            return _TOP, frozenset([("teamvar", name), ("var", "$teams")])
        if what == "zone":
            return self._zone(name, {"game": None, "seat": ME, "team": ANY}[kind[1]])
        if what == "dice":
            return NOTHING, frozenset([("dice",)])
        if what == "flow":
            if name == "me":
                return frozenset([SEAT_ME]), NOTHING
            if name == "players":
                return frozenset([SEAT_ANY]), NOTHING
            if name == "current":
                return _TOP, frozenset([("flow", "current")])
            if name == "player_count":
                return NOTHING, NOTHING
            return NOTHING, frozenset([("flow", FLOW_NAMES[name])])
        return _TOP, frozenset([EVERYTHING])

    def _zone(self, name: str, owner: str | None) -> tuple[frozenset, frozenset]:
        reads: set[tuple] = {("pile", name, owner)}
        if self.game.zones[name].per == "team":
            reads.add(("var", "$teams"))
        return frozenset([("zone", name, owner)]), frozenset(reads)

    def _listdisplay(self, node, env):
        return self._all(node.items, env)

    def _tuple(self, node, env):
        return self._all(node.items, env)

    def _mapdisplay(self, node, env):
        atoms, reads = self._all([x for pair in node.pairs for x in pair], env)
        return atoms | {MAP}, reads

    def _range(self, node, env):
        return self._plain((node.low, node.high), env)

    def _negation(self, node, env):
        return self._plain((node.operand,), env)

    def _not(self, node, env):
        return self._plain((node.operand,), env)

    def _arith(self, node, env):
        # ``+`` joins lists: the atoms of its operands come through.
        return self._all([node.first] + [x for _op, x in node.steps], env)

    def _compare(self, node, env):
        return self._plain([node.first] + [x for _op, x in node.steps], env)

    def _boolop(self, node: n.BoolOp, env: dict) -> tuple[frozenset, frozenset]:
        operands = []
        for operand in node.operands:
            operands.append(operand)
            value = self.constant(operand, env)
            if value is not _UNKNOWN and bool(value) == (node.op == "or"):
                break           # the operands after it are never evaluated
        return self._all(operands, env)

    def _ifelse(self, node: n.IfElse, env: dict) -> tuple[frozenset, frozenset]:
        test = self.constant(node.test, env)
        if test is _UNKNOWN:
            return self._all((node.test, node.then, node.other), env)
        return self.walk(node.then if test else node.other, env)

    def _index(self, node, env):
        return self._all((node.obj, node.index), env)

    def _slice(self, node, env):
        return self._all([x for x in (node.obj, node.low, node.high) if x is not None], env)

    def _lambda(self, node: n.Lambda, env: dict, given: frozenset = _TOP) -> tuple[frozenset, frozenset]:
        inner = {**env, **{param: given for param in node.params}}
        return self.walk(node.body, inner)

    def _comprehension(self, node: n.Comprehension, env: dict) -> tuple[frozenset, frozenset]:
        inner = dict(env)
        reads: set = set()
        for loop in node.loops:
            atoms, more = self.walk(loop.iterable, inner)
            reads |= more
            inner[loop.var] = atoms
            reads |= self._all(loop.conditions, inner)[1]
        atoms, more = self.walk(node.element, inner)
        return atoms, frozenset(reads | more)

    def _member(self, node: n.Member, env: dict) -> tuple[frozenset, frozenset]:
        obj, reads = self.walk(node.obj, env)
        atoms, more = self.member(obj, node.name)
        return atoms, reads | more

    def member(self, obj: frozenset, name: str) -> tuple[frozenset, frozenset]:
        top = TOP in obj
        seats = {a[1] for a in obj if a[0] == "seat"}
        seatish = top or bool(seats)
        owner = ME if seats == {ME} and not top else ANY
        # A member of a map is one of its values: what the map may hold comes through.
        atoms: set = set(obj) if top or MAP in obj else set()
        reads: set = set()
        if seatish:
            if name in self.seat_vars:
                atoms.add(TOP)
                reads.add(("seatvar", name, owner))
            if name in self.team_vars:
                atoms.add(TOP)
                reads |= {("teamvar", name), ("var", "$teams")}
            if name in self.seat_zones:
                zone_atoms, zone_reads = self._zone(name, owner if self.seat_zones[name] == "seat" else ANY)
                atoms |= zone_atoms
                reads |= zone_reads
            if name == "team":
                reads.add(("var", "$teams"))
            if name == "dice" and self.game.dice_per == "seat":
                reads.add(("dice",))
        zones = [a for a in obj if a[0] == "zone"]
        if name in ZONE_CONTENT:
            if top:
                reads.add(("allpiles",))
            reads |= {("pile", a[1], a[2]) for a in zones}
            if name in CARD_RESULTS:
                atoms.add(CARD)
        if name == "owner":
            mine = bool(zones) and obj == frozenset(zones) and all(a[2] == ME for a in zones)
            atoms.add(SEAT_ME if mine else SEAT_ANY)
        if name == "face_up":
            reads.add(("face",))
        if name == "slot":
            atoms.add(TOP)
            reads.add(("allpiles",))
        return frozenset(atoms), frozenset(reads)

    def _call(self, node: n.Call, env: dict) -> tuple[frozenset, frozenset]:
        callee = node.callee
        if not isinstance(callee, n.Name) or callee.name in env or callee.name in self.kinds:
            return _TOP, frozenset([EVERYTHING])
        if callee.name in self.functions:
            return self._call_defined(callee.name, list(node.args), env)
        builtin = self.registry.get(callee.name)
        if builtin is None or builtin.needs_ctx:
            return _TOP, frozenset([EVERYTHING])
        plain = [a for a in node.args if not isinstance(a, n.Lambda)]
        atoms, reads = self._all(plain, env)
        for arg in node.args:
            if isinstance(arg, n.Lambda):       # applied to the items of the other arguments
                more_atoms, more = self._lambda(arg, env, atoms)
                atoms, reads = atoms | more_atoms, reads | more
        return atoms, reads

    def _call_defined(self, name: str, args: list, env: dict) -> tuple[frozenset, frozenset]:
        params, body = self.functions[name]
        given = [self.walk(arg, env) for arg in args]
        reads = frozenset().union(*(r for _a, r in given)) if given else NOTHING
        key = (name, tuple(a for a, _r in given))
        if key not in self._calls:
            if name in self._active or len(params) != len(args):
                return _TOP, frozenset([EVERYTHING])
            self._active.add(name)
            try:
                # A body sees its parameters and the host's names, never its caller's locals.
                self._calls[key] = self.walk(body, dict(zip(params, key[1])))
            finally:
                self._active.discard(name)
        atoms, more = self._calls[key]
        return atoms, reads | more

    # -- values known at load: the options, and what is made of them alone -------------------------
    def constant(self, node: n.Node, env: dict) -> Any:
        if isinstance(node, n.Literal):
            return node.value
        if isinstance(node, n.Name):
            if node.name in env:
                return _UNKNOWN
            kind = self.kinds.get(node.name)
            if kind is not None:
                return kind[1] if kind[0] == "option" else _UNKNOWN
            return self._constant_call(node.name, (), env)
        if isinstance(node, n.Call) and isinstance(node.callee, n.Name):
            return self._constant_call(node.callee.name, node.args, env)
        if isinstance(node, n.Not):
            value = self.constant(node.operand, env)
            return _UNKNOWN if value is _UNKNOWN or not isinstance(value, bool) else not value
        if isinstance(node, n.BoolOp):
            deciding = node.op == "or"
            for operand in node.operands:
                value = self.constant(operand, env)
                if value is _UNKNOWN or not isinstance(value, bool):
                    return _UNKNOWN
                if value == deciding:
                    return deciding
            return not deciding
        return _UNKNOWN

    def _constant_call(self, name: str, args: Sequence[n.Node], env: dict) -> Any:
        """A defined function's value when its body folds to a constant whatever its arguments
        (``f(a, b)`` whose body is ``some_option and ...`` with the option off)."""
        if name in env or name in self.kinds or name not in self.functions or name in self._active:
            return _UNKNOWN
        params, body = self.functions[name]
        if len(params) != len(args):
            return _UNKNOWN
        self._active.add(name)
        try:
            return self.constant(body, {param: None for param in params})
        finally:
            self._active.discard(name)
