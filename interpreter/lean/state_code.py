"""The lean state's class, a new game, and the clone, written for one game.

A new game does what ``engine.core.new_state`` does, in its order: the variables' start values,
every zone's empty piles (teams first worked out for the zones kept per team), the decks in
their zones, the setup's effects, the first round, and the flow settled.
"""
from __future__ import annotations

from typing import Any

from ..limits import MAX_PILES
from .code import Code, Env
from .flow_code import counted
from .ltypes import BOOL, CARD, INT, NONE, NUM, SEAT, STR, ListT, MapT, Opt, Zone, strip

FLOW_SLOTS = ("players", "rng", "round", "phase", "current", "turns", "moves", "over", "stop_reason")
# ``dice``: the table's dice, or with dice per seat a list of cups (one list of values for each
# seat), each cup replaced by a new list when thrown, never changed in place: clones share them.
# ``dice_shown``: the seats whose cups were revealed since they were thrown, in order, replaced
# too when it changes. ``voids``: by seat, the suits led it did not follow, the map and the seat's
# list replaced by new ones when a suit is added: clones share them too. A game without dice or
# tricks never changes its dice or its record of the trick: clones share those too.
STATE_SLOTS = ("up", "zones", "teams", "nteams", "dice", "dice_shown", "played_round", "played_by", "voids",
               "hist", "origin")


def slots(m: Any) -> list[str]:
    zones = [zone.slot for zone in m.shape.zones.values()]
    variables = [m.var_slot(level, name) for level, name in m.var_types]
    interrupts = ["intr"] if m.interrupts else []
    return list(FLOW_SLOTS) + list(STATE_SLOTS) + interrupts + zones + variables


def write_state(m: Any) -> list[str]:
    lines = ["class State:", f"    __slots__ = {tuple(slots(m))!r}", ""]
    return lines + _new_state(m) + _clone(m)


def _new_state(m: Any) -> list[str]:
    game, shape = m.game, m.shape
    lines = ["def new_state(players, seed):",
             "    s = State()",
             "    s.players, s.rng = players, _seed_state(seed)",
             "    s.round = s.phase = s.turns = s.moves = 0",
             "    s.current = s.stop_reason = s.played_round = s.hist = s.origin = None",
             "    s.over = False",
             "    s.played_by, s.voids = {}, {}",
             _new_dice(game),
             "    s.dice_shown = []",
             "    me = None"] + (["    s.intr = None"] if m.interrupts else [])
    for (level, name), kind in m.var_types.items():
        start = _start_code(m, level, name)
        slot = m.var_slot(level, name)
        if level == "game":
            lines.append(f"    s.{slot} = {start}")
        elif level == "seat":
            lines.append(f"    s.{slot} = [{start} for _ in range(players)]")
    lines.append("    piles = 0")
    lines += _allocate(m, ("game", "seat"))
    lines += _teams(m)
    lines += _allocate(m, ("team",))
    lines.append(f"    s.zones = [{', '.join('s.' + z.slot for z in shape.zones.values())}]")
    lines += _decks(m)
    setup = counted(m.effects.block(game.spec.data.get("setup"), Env(me=None, me_sure=False), "    "))
    lines += ["    sig = []"] + setup
    lines += ["    start_round(s, None, sig)", "    settle(s, None, sig)", "    return s", ""]
    return lines


def _has_dice(game: Any) -> bool:
    return game.dice_per == "seat" or game.dice_count > 0


def _new_dice(game: Any) -> str:
    """``core.started``'s dice: every die showing 1, the table's or in each seat's cup."""
    if game.dice_per == "seat":
        return f"    s.dice = [[1] * {game.dice_count} for _ in range(players)]"
    return f"    s.dice = [1] * {game.dice_count}"


def _start_code(m: Any, level: str, name: str) -> str:
    """A variable's start value: a plain value as it is, a list or map copied (each holder its own)."""
    value = _start(m, level, name)
    if value is None or type(value) in (bool, int):
        return repr(value)
    if isinstance(value, (str, float)):
        return m.const(value)
    return "[]" if value == [] else f"_copy({m.const(value)})"


def _start(m: Any, level: str, name: str) -> Any:
    return {"game": m.shape.game_vars, "seat": m.shape.seat_vars, "team": m.shape.team_vars}[level][name]


def _allocate(m: Any, per: tuple[str, ...]) -> list[str]:
    """``Game.allocate_zones``: each zone's empty piles, every pile counted against the limit."""
    lines = []
    owners = {"game": "1", "seat": "players", "team": "s.nteams"}
    for zone in m.shape.zones.values():
        if zone.per not in per:
            continue
        if zone.piles is None:
            count = "1"
        else:
            code = m.expr(m.game.spec.data["zones"][zone.name]["piles"], Env(me=None, me_sure=False))
            count = code.text if code.text.isdigit() and int(code.text) >= 1 else f"_pile_count({code.text})"
        if count == "1" and zone.per == "game":
            lines += ["    piles += 1", f"    s.{zone.slot} = [[]]"]
            continue
        lines += [f"    made = {owners[zone.per]} * {count}",
                  "    piles += made",
                  f"    if piles > {MAX_PILES}: _fail()",
                  f"    s.{zone.slot} = [[] for _ in range(made)]"]
    return lines


def _teams(m: Any) -> list[str]:
    lines = []
    if m.shape.teams:
        of = m.expr(m.game.spec.data["teams"]["of"], Env({"seat": Code("seat", INT, bits=7)}, me=None, me_sure=False))
        lines += [f"    s.teams = [_team_number({of.text}) for seat in range(players)]",
                  "    s.nteams = max(s.teams) + 1"]
    else:
        lines += ["    s.teams = None", "    s.nteams = players"]
    for (level, name) in m.var_types:
        if level == "team":
            lines.append(f"    s.{m.var_slot(level, name)} = [{_start_code(m, level, name)} for _ in range(s.nteams)]")
    return lines


def _decks(m: Any) -> list[str]:
    """Every card in its deck's zone (pile 0, or its owner's pile of a zone per seat for a deck
    per seat), face as the zone lies; cards of a deck without a zone lie nowhere."""
    shape = m.shape
    lines = [f"    s.up = bytearray({shape.cards})"]
    first = "0"
    for deck_name, deck in m.game.spec.data.get("decks", {}).items():
        size = shape.deck_sizes[deck_name]
        copies = "players" if deck.get("per_seat") else "1"
        zone = deck.get("zone")
        if zone is not None and size:
            z = shape.zones[zone]
            lines += [f"    for owner in range({copies}):",
                      f"        start = {first} + owner * {size}",
                      f"        s.{z.slot}[{_deck_pile(m, z, deck)}].extend(range(start, start + {size}))"]
            if z.face_up:
                lines.append(f"        s.up[start:start + {size}] = b'\\x01' * {size}")
        first = f"{first} + {copies} * {size}" if first != "0" else f"{copies} * {size}"
    return lines


def _deck_pile(m: Any, zone: Any, deck: dict) -> str:
    """The pile a deck's copy goes to: its owner's (``Game.pile``) in a zone per seat."""
    if deck.get("per_seat") and zone.per == "seat":
        return f"owner * {m.pile_count(zone.name)}"
    return "0"


def _clone(m: Any) -> list[str]:
    lines = ["def clone(s):",
             "    t = State()",
             "    " + ", ".join("t." + name for name in FLOW_SLOTS) + " = " + ", ".join("s." + name for name in FLOW_SLOTS),
             f"    t.up, t.dice, t.dice_shown = s.up[:], {'s.dice[:]' if _has_dice(m.game) else 's.dice'}, s.dice_shown",
             "    t.teams, t.nteams, t.hist, t.origin = s.teams, s.nteams, s.hist, s.origin",
             "    t.played_round, t.played_by, t.voids = s.played_round, "
             f"{'dict(s.played_by)' if m.game.tricks is not None else 's.played_by'}, s.voids"]
    if m.interrupts:
        lines.append("    t.intr = [[r[0][:], r[1], r[2], r[3][:], r[4]] for r in s.intr] if s.intr else None")
    for zone in m.shape.zones.values():
        one_pile = zone.per == "game" and zone.piles is None
        copied = f"[s.{zone.slot}[0][:]]" if one_pile else f"list(map(_list_copy, s.{zone.slot}))"
        lines.append(f"    t.{zone.slot} = {copied}")
    lines.append("    t.zones = [" + ", ".join("t." + z.slot for z in m.shape.zones.values()) + "]")
    for (level, name), kind in m.var_types.items():
        slot = m.var_slot(level, name)
        if level == "game":
            lines.append(f"    t.{slot} = {_copied(f's.{slot}', kind)}")
        else:
            copied = _copied("v", kind)
            if copied == "v":
                lines.append(f"    t.{slot} = s.{slot}[:]")
            elif copied == "(v[:])":        # a flat list by seat or team: each copied, no loop of ours
                lines.append(f"    t.{slot} = list(map(_list_copy, s.{slot}))")
            else:
                lines.append(f"    t.{slot} = [{copied} for v in s.{slot}]")
    return lines + ["    return t", ""]


def _copied(value: str, kind: Any) -> str:
    """A copy of a variable's value: plain values shared, a flat list or map copied, anything else
    deep (an empty list's items, of no known kind, may be lists: deep too)."""
    inner = strip(kind)
    maybe = "" if inner == kind else f" if {value} is not None else None"
    if isinstance(inner, ListT) and _flat(inner.elem):
        return f"({value}[:]{maybe})"
    if isinstance(inner, MapT) and _flat(inner.value):
        return f"({value}.copy(){maybe})"
    if isinstance(inner, (ListT, MapT)):
        return f"_copy({value})"
    return value


def _flat(kind: Any) -> bool:
    """Values that are never lists or maps (copied by sharing them)."""
    return kind in (INT, NUM, STR, BOOL, NONE, CARD, SEAT) or isinstance(kind, (Opt, Zone)) and _flat(strip(kind))
