"""Scenarios checked against their game: every seat, zone, card, variable and option they name,
each problem reported with its place, all at once."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..engine.core import players_text
from ..engine.loaded import LoadedGame
from ..engine.values import Seat, ZoneRef
from ..errors import ErrorList, OptionError, RulesError, SpecError, did_you_mean
from ..load.schema_check import describe_value
from ..load.spec import resolve_options, start_value
from ..load.yamlio import Document
from .scenario_start import StartReader
from .scenario_context import (
    RESULTS,
    GameLoader,
    ScenarioContext,
    owned,
    pile_number,
)
from .scenario_model import (
    OWNER,
    STEP_EXTRAS,
    Check,
    Scenario,
    Step,
    counted,
    kind_of,
    listing,
    lookup,
    show,
)

if TYPE_CHECKING:
    from ..load.spec import ZoneDef


class ScenarioReader(StartReader):
    """Turns the scenarios of one document into ``Scenario``s, collecting every error."""

    def __init__(self, doc: Document, games: GameLoader):
        self.doc = doc
        self.games = games
        self.errors: list[RulesError] = []

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
            self.error(f"{game.name} is for {players_text(game)}, not {players}",
                       path + ("players",))
            return None
        self.ctx = ScenarioContext(loaded, players)
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

    def zone(self, path: tuple, name: str) -> ZoneDef | None:
        zone = self.ctx.game.zones.get(name)
        if zone is None:
            self.error(f"unknown zone '{name}'", path, key=True,
                       hint=did_you_mean(name, self.ctx.game.zones) or listing("zones", self.ctx.game.zones))
        return zone

    def piles(self, path: tuple, given: dict, what: str) -> dict[ZoneRef, tuple[tuple, Any]]:
        """Each zone pile named in ``given`` (a value per shared zone, per seat or per team)."""
        found = {}
        for key, value in given.items():
            name, index = pile_number(key)
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
                owner_text, index = pile_number(owner_key)
                count = self.ctx.players if letter == "P" else None
                where = path + (key, owner_key)
                owner = self.owner(where, owner_text, letter, count, key=True)
                if owner is not None and self.one_of_piles(where, zone, owner_key, index):
                    found[ZoneRef(name, owner, index)] = (where, piece)
        return found

    def one_of_piles(self, path: tuple, zone: ZoneDef, text: str, index: int) -> bool:
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
                           f"{counted(len(copies), 'such card')}", path + (i,))
                continue
            taken[label] = used + 1
            ids.append(copies[used])
        return ids

    def variables(self, path: tuple, given: dict, declared: dict, what: str, typed: bool = False) -> dict:
        """``given`` with its names checked against ``declared`` (nested maps key by key) and its
        values of the kind of the start values; ``none`` read as the none value. ``typed``: a text
        where no text is declared is the seat (``P2``) or card (``JS``) it names (``typed_value``)."""
        checked = {}
        for name, value in given.items():
            if name not in declared:
                self.error(f"unknown {what} '{name}'", path + (name,), key=True,
                           hint=did_you_mean(name, declared) or listing(what + "s", declared))
                continue
            start = declared[name]
            if isinstance(value, dict) and isinstance(start, dict) and start:
                checked[name] = self.variables(path + (name,), value, start, f"key of '{name}'", typed)
                continue
            value = start_value(value)
            wanted = kind_of(start)
            if start is not None and value is not None and kind_of(value) != wanted:
                self.error(f"'{name}' holds {wanted} (it starts as {show(start)}), not {describe_value(value)}",
                           path + (name,))
                continue
            checked[name] = self.typed_value(path + (name,), value, start) if typed else value
        return checked

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
                checks += self.dice_checks(where, value)
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
                checks.append(self.check(where, key, value, RESULTS[key](self.ctx.loaded)))
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
            read = (lambda name: lambda state: lookup(holder(state), name))(name)
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
                holder = (lambda o: lambda state: owned(getattr(state, key), o, owner_text))(owner)
                checks += self.leaves(path + (owner_text,), f"{key}.{owner_text}", checked, holder)
        return checks

    def dice_checks(self, path: tuple, given: Any) -> list[Check]:
        """The table's dice (a list), or some seats' cups (``{P1: [3, 4]}``), as expected."""
        cups = self.cups(path, given)
        if cups is None:
            return [self.check(path, "dice", self.dice(path, given), lambda state: list(state.dice))] \
                if isinstance(given, list) else []
        return [self.check(path + (owner_text,), f"dice.{owner_text}", values,
                           (lambda o: lambda state: list(state.dice[o]))(owner))
                for owner, owner_text, values in cups]

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
