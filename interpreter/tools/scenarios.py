"""Scenario tests, read and checked: a starting position, moves, and what must hold then.

Scenarios live in a game file (``scenarios:``) or in a scenario file that names its game. Their
structure is checked against the JSON Schema; then every seat, zone, card, variable and option they
name is checked against the game, all problems reported at once with their places. The result is
a list of ``Scenario``s that ``scenario_run`` plays.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import engine
from ..engine import grids
from ..engine.loaded import LoadedGame, load_game
import jsonschema

from ..errors import ErrorList, OptionError, Position, RulesError, SpecError, did_you_mean
from ..load.schema_check import check_against, describe_value, game_schema
from ..load.spec import resolve_options, start_value
from ..engine.state import State
from ..engine.values import Card, Seat, ZoneRef, copy_value
from ..load.yamlio import Document, load_yaml_file

OWNER = re.compile(r"([PT])([1-9][0-9]*)")   # P1.. a seat, T1.. a team, as people count them
PILE = re.compile(r"(.*)#([1-9][0-9]*)")      # work#2, P1#2: one pile of a zone of several piles
KINDS = ((bool, "true or false"), ((int, float), "a number"), (str, "text"), (list, "a list"), (dict, "a mapping"))
MISSING = object()   # a key the actual value does not have
STEP_EXTRAS = {"move": {"seat"}, "illegal": {"seat", "message"}, "expect": set()}   # keys beside the kind


@dataclass
class Check:
    """One expectation: the value ``actual(state)`` must match ``expected`` (see ``mode``)."""

    what: str
    pos: Position
    expected: Any
    actual: Callable[[State], Any]
    mode: str = "equal"       # equal, include (every expected item is there) or exclude (none is)


@dataclass
class Step:
    pos: Position
    kind: str                 # move, illegal or expect
    text: str = ""
    seat: int | None = None   # None: the seat to act
    message: str | None = None
    checks: list[Check] = field(default_factory=list)


@dataclass
class Start:
    stack: dict[ZoneRef, list[int]] = field(default_factory=dict)
    changes: list[Callable[[State], None]] = field(default_factory=list)
    rolls: list[list[int]] = field(default_factory=list)
    stack_pos: Position | None = None
    rolls_pos: Position | None = None


@dataclass
class Scenario:
    name: str
    pos: Position
    game: LoadedGame
    players: int
    seed: int
    start: Start
    steps: list[Step]


# ---------------------------------------------------------------- reading files

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


def scenarios_in_game(games: GameLoader) -> list[Scenario]:
    """The scenarios written in the game file itself (its structure is already checked)."""
    doc = games.base.spec.doc
    return _Reader(doc, games).scenarios()


def scenarios_in_file(path: str | Path, games: GameLoader | None, options: dict[str, str] | None = None) -> list[Scenario]:
    """The scenarios of a scenario file, for ``games`` or else for the game the file names."""
    doc = load_yaml_file(path)
    errors = check_file_structure(doc)
    if errors:
        raise ErrorList(errors)
    games = _file_game(doc, path, games, options)
    return _Reader(doc, games).scenarios()


def check_file_structure(doc: Document) -> list[RulesError]:
    schema = game_schema()
    root = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/scenario_file"}
    validator = jsonschema.validators.validator_for(root)(root)
    return check_against(doc, validator)


def _file_game(doc: Document, path: str | Path, games: GameLoader | None, options: dict | None) -> GameLoader:
    named = doc.data.get("game")
    if named is None:
        if games is None:
            raise SpecError("missing 'game' at the top level", doc.pos(()),
                            hint="name the game file this file tests: game: ../games/<name>.yaml")
        return games
    target = Path(path).parent / named
    if games is not None:
        if not _same_file(target, Path(games.path)):
            raise SpecError(f"this file tests '{named}', not {games.path}", doc.pos(("game",)),
                            hint="run it with that game, or remove 'game:' to test any game")
        return games
    if not target.is_file():
        raise SpecError(f"game file '{named}' not found (looked for {target})", doc.pos(("game",)),
                        hint="the path is relative to this scenario file")
    return GameLoader(target, options)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, ValueError):   # a path the system cannot even look up
        return False


# ---------------------------------------------------------------- checking against the game

class _Reader:
    """Turns the scenarios of one document into ``Scenario``s, collecting every error."""

    def __init__(self, doc: Document, games: GameLoader):
        self.doc = doc
        self.games = games
        self.errors: list[RulesError] = []
        self.ctx: _Context | None = None   # the scenario being read

    def scenarios(self) -> list[Scenario]:
        found = []
        for index in range(len(self.doc.data.get("scenarios") or [])):
            scenario = self.scenario(("scenarios", index))
            if scenario is not None:
                found.append(scenario)
        if self.errors:
            raise ErrorList(self.errors)
        return found

    def value(self, path: tuple) -> Any:
        node: Any = self.doc.data
        for part in path:
            node = node[part]
        return node

    def error(self, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        pos = self.doc.key_pos(path) if key else self.doc.pos(path)
        self.errors.append(SpecError(message, pos, hint=hint))

    def scenario(self, path: tuple) -> Scenario | None:
        data = self.value(path)
        loaded = self.game(path, data.get("options", {}))
        if loaded is None:
            return None
        game = loaded.game
        players = int(data.get("players", game.default_players))   # YAML's 3.0 passes as an integer
        if not game.min_players <= players <= game.max_players:
            self.error(f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}",
                       path + ("players",))
            return None
        self.ctx = _Context(loaded, players)
        start = self.start(path + ("start",), data.get("start", {}))
        steps = self.steps(path, data)
        return Scenario(data["name"], self.doc.pos(path + ("name",)), loaded, players, int(data.get("seed", 0)),
                        start, steps)

    def game(self, path: tuple, options: dict) -> LoadedGame | None:
        texts = {name: str(v).lower() if isinstance(v, bool) else str(v) for name, v in options.items()}
        errors_before = len(self.errors)
        for name, text in texts.items():
            try:
                resolve_options(self.games.base.spec, {name: text})
            except OptionError as error:
                where = ("options", name)
                key = error.message.startswith("unknown")
                self.error(error.message, path + where, error.hint, key=key)
        if len(self.errors) > errors_before:
            return None
        try:
            return self.games.get(texts)
        except RulesError as error:   # options the game accepts one by one but not together
            self.error(error.message, path + ("options",), error.hint, key=True)
            return None

    # -- steps -------------------------------------------------------------------------------------
    def steps(self, path: tuple, data: dict) -> list[Step]:
        if "steps" in data and ("moves" in data or "expect" in data):
            self.error("a scenario has 'steps:', or 'moves:' and 'expect:', not both", path + ("steps",), key=True)
            return []
        if not any(k in data for k in ("steps", "moves", "expect")):
            self.error(f"scenario '{data['name']}' checks nothing", path + ("name",), key=True,
                       hint="add 'steps:', or 'moves:' and a final 'expect:'")
            return []
        if "steps" in data:
            return [self.step(path + ("steps", i)) for i in range(len(data["steps"]))]
        steps = [self.step(path + ("moves", i)) for i in range(len(data.get("moves", [])))]
        if "expect" in data:
            steps.append(Step(self.doc.key_pos(path + ("expect",)), "expect",
                              checks=self.expect(path + ("expect",))))
        return steps

    def step(self, path: tuple) -> Step:
        item = self.value(path)
        if isinstance(item, str):
            return Step(self.doc.pos(path), "move", text=item)
        kinds = [k for k in ("move", "illegal", "expect") if k in item]
        if len(kinds) != 1:
            self.error("a step needs 'move:', 'illegal:' or 'expect:'" if not kinds else
                       f"a step has one of 'move:', 'illegal:' or 'expect:', not both '{kinds[0]}:' and '{kinds[1]}:'",
                       path + ((kinds[1],) if len(kinds) > 1 else ()), key=len(kinds) > 1)
            return Step(self.doc.pos(path), "expect")
        kind = kinds[0]
        for key in sorted(set(item) - {kind} - STEP_EXTRAS[kind]):
            self.error(f"'{key}' does not belong to {'an' if kind == 'illegal' else 'a'} '{kind}' step",
                       path + (key,), key=True)
        if kind == "expect":
            return Step(self.doc.key_pos(path + ("expect",)), "expect", checks=self.expect(path + ("expect",)))
        seat = self.seat(path + ("seat",), item["seat"]) if "seat" in item else None
        return Step(self.doc.pos(path + (kind,)), kind, text=item[kind], seat=seat, message=item.get("message"))

    # -- names -------------------------------------------------------------------------------------
    def seat(self, path: tuple, text: Any) -> int | None:
        return self.owner(path, text, "P", self.ctx.players)

    def owner(self, path: tuple, text: Any, letter: str, count: int | None, key: bool = False) -> int | None:
        """The index of seat ``P<n>`` (or team ``T<n>``), or None after reporting an error."""
        match = OWNER.fullmatch(str(text))
        what = "seat" if letter == "P" else "team"
        if match is None or match.group(1) != letter:
            self.error(f"'{text}' is not a {what}", path, key=key,
                       hint=f"{what}s are written {letter}1, {letter}2, ...")
            return None
        index = int(match.group(2)) - 1
        if count is not None and index >= count:
            self.error(f"there is no seat {text}: this scenario has {count} players (P1 to P{count})", path, key=key)
            return None
        return index

    def zone(self, path: tuple, name: str) -> Any:
        zone = self.ctx.game.zones.get(name)
        if zone is None:
            self.error(f"unknown zone '{name}'", path, key=True,
                       hint=did_you_mean(name, self.ctx.game.zones) or _listing("zones", self.ctx.game.zones))
        return zone

    def piles(self, path: tuple, given: dict, what: str) -> dict[ZoneRef, tuple[tuple, Any]]:
        """Each zone pile named in ``given`` (a value per shared zone, per seat or per team)."""
        found = {}
        for key, value in given.items():
            name, index = _pile_number(key)
            zone = self.zone(path + (key,), name)
            if zone is None or not self.one_of_piles(path + (key,), zone, key, index):
                continue
            if zone.per == "game":
                if isinstance(value, dict):
                    self.error(f"zone '{name}' is shared: give its {what} directly, not per seat", path + (key,))
                else:
                    found[ZoneRef(name, None, index)] = (path + (key,), value)
                continue
            if index:
                self.error(f"zone '{name}' is one per {zone.per}: number the pile after the owner, "
                           f"as {name}: {{{'P' if zone.per == 'seat' else 'T'}1#{index + 1}: ...}}", path + (key,), key=True)
                continue
            letter = "P" if zone.per == "seat" else "T"
            if not isinstance(value, dict):
                self.error(f"zone '{name}' is one per {zone.per}: give its {what} by {zone.per}, "
                           f"as {name}: {{{letter}1: ...}}", path + (name,))
                continue
            for owner_key, piece in value.items():
                owner_text, index = _pile_number(owner_key)
                count = self.ctx.players if letter == "P" else None
                where = path + (key, owner_key)
                owner = self.owner(where, owner_text, letter, count, key=True)
                if owner is not None and self.one_of_piles(where, zone, owner_key, index):
                    found[ZoneRef(name, owner, index)] = (where, piece)
        return found

    def one_of_piles(self, path: tuple, zone: Any, text: str, index: int) -> bool:
        """Whether ``#n`` (pile ``index`` from 0) may follow this zone: only a zone of several piles
        has them (whether there are that many is known once the players are seated)."""
        if index and zone.piles is None:
            self.error(f"'{text}': zone '{zone.name}' is a single pile, it has no pile #{index + 1}", path, key=True,
                       hint=f"write it without '#{index + 1}'")
            return False
        return True

    def cards(self, path: tuple, labels: list, taken: dict[str, int]) -> list[int]:
        """The card ids for ``labels``; a label named again takes the next card with it."""
        ids = []
        by_label = self.ctx.by_label
        for i, label in enumerate(labels):
            label = str(label)
            copies = by_label.get(label)
            if copies is None:
                self.error(f"unknown card '{label}'", path + (i,),
                           hint=did_you_mean(label, by_label) or "cards are named by their labels, as AS or 10H")
                continue
            used = taken.get(label, 0)
            if used >= len(copies):
                self.error(f"card '{label}' is named {used + 1} times, but the game has "
                           f"{_count(len(copies), 'such card')}", path + (i,))
                continue
            taken[label] = used + 1
            ids.append(copies[used])
        return ids

    def variables(self, path: tuple, given: dict, declared: dict, what: str) -> dict:
        """``given`` with its names checked against ``declared`` (nested maps key by key) and its
        values of the kind of the start values; ``none`` read as the none value."""
        checked = {}
        for name, value in given.items():
            if name not in declared:
                self.error(f"unknown {what} '{name}'", path + (name,), key=True,
                           hint=did_you_mean(name, declared) or _listing(what + "s", declared))
                continue
            start = declared[name]
            if isinstance(value, dict) and isinstance(start, dict) and start:
                checked[name] = self.variables(path + (name,), value, start, f"key of '{name}'")
                continue
            value = start_value(value)
            wanted = _kind(start)
            if start is not None and value is not None and _kind(value) != wanted:
                self.error(f"'{name}' holds {wanted} (it starts as {_show(start)}), not {describe_value(value)}",
                           path + (name,))
                continue
            checked[name] = value
        return checked

    # -- the starting position ---------------------------------------------------------------------
    def start(self, path: tuple, data: dict) -> Start:
        start = Start()
        game = self.ctx.game
        if "round" in data:
            start.changes.append(_setter("round", int(data["round"])))
        if "phase" in data:
            start.changes += self.phase_change(path + ("phase",), data["phase"])
        if "current" in data:
            seat = None if data["current"] in (None, "none") else self.seat(path + ("current",), data["current"])
            start.changes.append(_setter("current", seat))
        if "dice" in data:
            dice = self.dice(path + ("dice",), data["dice"], sort=game.dice_sorted)
            start.changes.append(_setter("dice", dice))
        if "vars" in data:
            values = self.variables(path + ("vars",), data["vars"], game.variables.get("game", {}), "game variable")
            start.changes.append(lambda state: _merge(state.vars, values))
        for level, letter in (("seat", "P"), ("team", "T")):
            if f"{level}_vars" in data:
                start.changes += self.owner_variables(path + (f"{level}_vars",), data[f"{level}_vars"], level, letter)
        if "zones" in data:
            given = self.piles(path + ("zones",), data["zones"], "cards")
            taken: dict[str, int] = {}
            contents = {ref: self.cards(where, cards, taken) for ref, (where, cards) in given.items()}
            start.changes.append(_zone_setter(self.ctx, contents, self.doc.pos(path + ("zones",))))
        if "stack" in data:
            given = self.piles(path + ("stack",), data["stack"], "stacked cards")
            start.stack = {ref: self.cards(where, cards, {}) for ref, (where, cards) in given.items()}
            start.stack_pos = self.doc.key_pos(path + ("stack",))
        if "rolls" in data:
            start.rolls = [self.dice(path + ("rolls", i), roll, exact=False) for i, roll in enumerate(data["rolls"])]
            start.rolls_pos = self.doc.key_pos(path + ("rolls",))
        return start

    def phase_change(self, path: tuple, name: str) -> list[Callable]:
        names = self.ctx.game.phase_names
        if name not in names:
            self.error(f"unknown phase '{name}'", path, hint=did_you_mean(name, names) or _listing("phases", names))
            return []
        return [_setter("phase", names.index(name))]

    def dice(self, path: tuple, values: list, exact: bool = True, sort: bool = False) -> list[int]:
        """Dice values checked against the game's dice: all of them (``exact``) or some."""
        game = self.ctx.game
        if not game.dice_count:
            self.error("this game has no dice", path, key=True)
            return []
        if exact and len(values) != game.dice_count:
            self.error(f"expected {game.dice_count} dice, got {len(values)}", path)
        elif len(values) > game.dice_count:
            self.error(f"expected at most {game.dice_count} dice, got {len(values)}", path)
        for i, value in enumerate(values):
            if not 1 <= value <= game.dice_faces:
                self.error(f"a die shows 1 to {game.dice_faces}, not {value}", path + (i,))
        values = [int(v) for v in values]
        return sorted(values) if sort else values

    def owner_variables(self, path: tuple, given: dict, level: str, letter: str) -> list[Callable]:
        declared = self.ctx.game.variables.get(level, {})
        changes = []
        for owner_text, values in given.items():
            count = self.ctx.players if letter == "P" else None
            owner = self.owner(path + (owner_text,), owner_text, letter, count, key=True)
            checked = self.variables(path + (owner_text,), values, declared, f"{level} variable")
            if owner is not None:
                pos = self.doc.key_pos(path + (owner_text,))
                changes.append(_owner_merge(level, owner, owner_text, checked, pos))
        return changes

    # -- expectations ------------------------------------------------------------------------------
    def expect(self, path: tuple) -> list[Check]:
        data = self.value(path)
        checks: list[Check] = []
        game = self.ctx.game
        for key in data:
            where = path + (key,)
            value = data[key]
            if key == "legal":
                checks += self.legal(where, value)
            elif key == "vars":
                checked = self.variables(where, value, game.variables.get("game", {}), "game variable")
                checks += self.leaves(where, "vars", checked, lambda state: state.vars)
            elif key in ("seat_vars", "team_vars"):
                checks += self.owner_checks(where, key, value)
            elif key == "zones":
                checks += self.zone_checks(where, value)
            elif key == "dice":
                checks.append(self.check(where, key, self.dice(where, value), lambda state: list(state.dice)))
            elif key == "current":
                seat = None if value in (None, "none") else self.seat(where, value)
                checks.append(self.check(where, key, None if seat is None else str(Seat(seat)),
                                         lambda state: None if state.current is None else str(Seat(state.current))))
            elif key == "phase":
                self.phase_change(where, value)
                checks.append(self.check(where, key, value, lambda state: game.phase_names[state.phase]))
            elif key == "winner":
                for i, text in enumerate(value):
                    self.seat(where + (i,), text)
                checks.append(self.check(where, key, value, self.ctx.winners))
            else:
                checks.append(self.check(where, key, value, _RESULTS[key](self.ctx.loaded)))
        return checks

    def check(self, path: tuple, what: str, expected: Any, actual: Callable, mode: str = "equal") -> Check:
        return Check(what, self.doc.pos(path), expected, actual, mode)

    def legal(self, path: tuple, data: dict) -> list[Check]:
        seat = self.seat(path + ("seat",), data["seat"]) if "seat" in data else None
        moves = self.ctx.moves_of(seat)
        return [self.check(path + (mode,), f"legal.{mode}", data[mode], moves, mode)
                for mode in ("equal", "include", "exclude") if mode in data]

    def leaves(self, path: tuple, what: str, expected: dict, holder: Callable) -> list[Check]:
        """One check per value given, at any depth of nested maps, so each failure names its key."""
        checks = []
        for name, value in expected.items():
            read = (lambda name: lambda state: _lookup(holder(state), name))(name)
            if isinstance(value, dict) and value:
                checks += self.leaves(path + (name,), f"{what}.{name}", value, read)
            else:
                checks.append(self.check(path + (name,), f"{what}.{name}", value, read))
        return checks

    def owner_checks(self, path: tuple, key: str, given: dict) -> list[Check]:
        level, letter = ("seat", "P") if key == "seat_vars" else ("team", "T")
        declared = self.ctx.game.variables.get(level, {})
        checks = []
        for owner_text, values in given.items():
            count = self.ctx.players if letter == "P" else None
            owner = self.owner(path + (owner_text,), owner_text, letter, count, key=True)
            checked = self.variables(path + (owner_text,), values, declared, f"{level} variable")
            if owner is not None:
                holder = (lambda o: lambda state: _owned(getattr(state, key), o, owner_text))(owner)
                checks += self.leaves(path + (owner_text,), f"{key}.{owner_text}", checked, holder)
        return checks

    def zone_checks(self, path: tuple, given: dict) -> list[Check]:
        checks = []
        for ref, (where, value) in self.piles(path, given, "cards or count").items():
            what = "zones." + ".".join(str(p) for p in where[len(path):])
            if isinstance(value, list):
                self.cards(where, value, {})   # only to report unknown cards
                checks.append(self.check(where, what, [str(v) for v in value], self.ctx.labels_in(ref)))
            else:
                checks.append(self.check(where, what + " (count)", value, self.ctx.count_in(ref)))
        return checks


class _Context:
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
        return lambda state: [self.table[c].label for c in grids.cards_in(_pile(self.game, state, ref))]

    def count_in(self, ref: ZoneRef) -> Callable:
        return lambda state: len(grids.cards_in(_pile(self.game, state, ref)))

    def moves_of(self, seat: int | None) -> Callable:
        def legal(state: State) -> list[str]:
            return [m.text for m in self.loaded.legal_moves(state, seat_to_act(self.loaded, state, seat))]
        return legal

    def winners(self, state: State) -> list[str]:
        return [str(Seat(s)) for s in engine.winners(self.game, state)]


_RESULTS = {
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


# ---------------------------------------------------------------- changes to a state

def _setter(attribute: str, value: Any) -> Callable[[State], None]:
    def change(state: State) -> None:
        setattr(state, attribute, copy_value(value))
    return change


def _merge(target: dict, values: dict) -> None:
    """Write ``values`` into ``target``; a map into a map is merged key by key."""
    for name, value in values.items():
        if isinstance(value, dict) and isinstance(target.get(name), dict):
            _merge(target[name], value)
        else:
            target[name] = copy_value(value)


def _owner_merge(level: str, owner: int, owner_text: str, values: dict, pos: Position) -> Callable[[State], None]:
    def change(state: State) -> None:
        _merge(_owned(getattr(state, f"{level}_vars"), owner, owner_text, pos), values)
    return change


def _owned(holders: list, owner: int, owner_text: str, pos: Position | None = None) -> Any:
    if owner >= len(holders):
        raise SpecError(f"there is no team {owner_text}: this game has {_count(len(holders), 'team')}", pos)
    return holders[owner]


def _pile(game: Any, state: State, ref: ZoneRef) -> list[int]:
    piles = state.zones[ref.name]
    if ref.owner is not None and ref.owner >= len(piles):
        raise SpecError(f"there is no team T{ref.owner + 1}: this game has {_count(len(piles), 'team')}")
    per_owner = len(piles) // game.owners(state, ref.name)
    if ref.index >= per_owner:
        raise SpecError(f"there is no pile {ref}: zone '{ref.name}' has {_count(per_owner, 'pile')} here")
    return game.pile(state, ref)


def _pile_number(text: Any) -> tuple[str, int]:
    """``work#2`` -> ("work", 1); text without a pile number -> (text, 0)."""
    match = PILE.fullmatch(str(text))
    return (match.group(1), int(match.group(2)) - 1) if match else (str(text), 0)


def _zone_setter(ctx: _Context, contents: dict[ZoneRef, list[int]], pos: Position) -> Callable[[State], None]:
    """Give each listed pile exactly its cards, taken from wherever they were; the cards it held
    and no longer does go back to their deck's zone (under its cards), or out of play when that
    zone is listed too."""
    game = ctx.game

    def change(state: State) -> None:
        named = {c for ids in contents.values() for c in ids}
        try:
            displaced = [c for ref in contents for c in grids.cards_in(_pile(game, state, ref)) if c not in named]
        except SpecError as error:
            raise SpecError(error.message, pos) from None
        for name, piles in state.zones.items():
            for pile in piles:
                pile[:] = grids.without(pile, named, game.zones[name].grid is not None)
        for ref, ids in contents.items():
            if game.zones[ref.name].grid is not None and len(ids) > grids.size(game, ref.name):
                raise SpecError(f"{ref} is a grid of {grids.size(game, ref.name)} slots, not {len(ids)}", pos)
            game.pile(state, ref)[:] = ids
            _lay(state, ids, game.zones[ref.name].face)
        going_home: dict[ZoneRef, list[int]] = {}
        for card in displaced:
            home = _home(game, ctx.table[card])
            if home is not None and home not in contents:
                going_home.setdefault(home, []).append(card)
        for home, cards in going_home.items():
            game.pile(state, home)[:0] = cards
            _lay(state, cards, game.zones[home.name].face)
    return change


def _home(game: Any, card: Card) -> ZoneRef | None:
    """The zone a card's deck starts in (the owner's, for a zone per seat)."""
    zone = game.spec.data["decks"][card.attrs["deck"]].get("zone")
    if zone is None:
        return None
    owner = card.attrs["owner"]
    return ZoneRef(zone, owner.index if owner is not None and game.zones[zone].per == "seat" else None)


def _lay(state: State, ids: list[int], face: str) -> None:
    (state.face_up.update if face == "up" else state.face_up.difference_update)(ids)


# ---------------------------------------------------------------- small helpers

def _lookup(holder: Any, name: str) -> Any:
    return holder.get(name, MISSING) if isinstance(holder, dict) else MISSING


def _kind(value: Any) -> str | None:
    return next((word for types, word in KINDS if isinstance(value, types)), None)


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, str) else str(value)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _listing(what: str, names: Any) -> str:
    names = list(names)
    return f"the {what} are: {', '.join(names)}" if names else f"there are no {what}"
