"""The starting position of a scenario read and checked: flow position, dice, variables typed as
the game holds them, zones, cards face up or down, a stacked deck, fixed rolls and choices.

A part of ``ScenarioReader`` (``scenario_reader``), which gives the names and their errors."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..engine.values import Seat, ZoneRef
from ..errors import did_you_mean
from ..load.spec import start_value
from ..load.yamlio import Document
from .scenario_context import ScenarioContext, cup_setter, face_setter, merge, owner_merge, setter, zone_setter
from .scenario_model import OWNER, Start, listing


class StartReader:
    """The ``start:`` of a scenario (a mixin of ``ScenarioReader``)."""

    doc: Document
    ctx: ScenarioContext   # the scenario being read

    if TYPE_CHECKING:   # given by ScenarioReader
        def error(self, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None: ...
        def seat(self, path: tuple, text: Any) -> int | None: ...
        def owner(self, path: tuple, text: Any, letter: str, count: int | None, key: bool = False) -> int | None: ...
        def piles(self, path: tuple, given: dict, what: str) -> dict[ZoneRef, tuple[tuple, Any]]: ...
        def cards(self, path: tuple, labels: list, taken: dict[str, int]) -> list[int]: ...
        def variables(self, path: tuple, given: dict, declared: dict, what: str, typed: bool = False) -> dict: ...

    def typed_value(self, path: tuple, value: Any, start: Any) -> Any:
        """A value as the game holds it. The start value is the declaration: text stays text where
        the variable starts as text (or as a list of texts); elsewhere ``P2`` is a seat and a card's
        label is that card (its first copy), in lists and maps too."""
        if isinstance(start, str) or isinstance(start, list) and any(isinstance(s, str) for s in start):
            return value
        if isinstance(value, list):
            return [self.typed_value(path + (i,), v, None) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {k: self.typed_value(path + (k,), v, None) for k, v in value.items()}
        if not isinstance(value, str):
            return value
        match = OWNER.fullmatch(value)
        if match and match.group(1) == "P":
            index = self.seat(path, value)
            return value if index is None else Seat(index)
        copies = self.ctx.by_label.get(value)
        return self.ctx.table[copies[0]] if copies else value

    # -- the starting position ---------------------------------------------------------------------
    def start(self, path: tuple, data: dict) -> Start:
        start = Start()
        game = self.ctx.game
        if "round" in data:
            start.changes.append(setter("round", int(data["round"])))
        if "phase" in data:
            start.changes += self.phase_change(path + ("phase",), data["phase"])
        if "current" in data:
            seat = None if data["current"] in (None, "none") else self.seat(path + ("current",), data["current"])
            start.changes.append(setter("current", seat))
        if "dice" in data:
            start.changes += self.dice_changes(path + ("dice",), data["dice"])
        if "vars" in data:
            values = self.variables(path + ("vars",), data["vars"], game.variables.get("game", {}), "game variable",
                                    typed=True)
            start.changes.append(lambda state: merge(state.vars, values))
        for level, letter in (("seat", "P"), ("team", "T")):
            if f"{level}_vars" in data:
                start.changes += self.owner_variables(path + (f"{level}_vars",), data[f"{level}_vars"], level, letter)
        if "zones" in data:
            given = self.piles(path + ("zones",), data["zones"], "cards")
            taken: dict[str, int] = {}
            contents = {ref: self.cards(where, cards, taken) for ref, (where, cards) in given.items()}
            start.changes.append(zone_setter(self.ctx, contents, self.doc.pos(path + ("zones",))))
        for face in ("face_up", "face_down"):
            if face in data:
                ids = self.cards(path + (face,), data[face], {})
                start.changes.append(face_setter(ids, face == "face_up"))
        if "stack" in data:
            given = self.piles(path + ("stack",), data["stack"], "stacked cards")
            start.stack = {ref: self.cards(where, cards, {}) for ref, (where, cards) in given.items()}
            start.stack_pos = self.doc.key_pos(path + ("stack",))
        if "choices" in data:
            self.choices(path + ("choices",), data["choices"], start)
        if "rolls" in data:
            start.rolls = [self.dice(path + ("rolls", i), roll, exact=False) for i, roll in enumerate(data["rolls"])]
            start.rolls_pos = self.doc.key_pos(path + ("rolls",))
        return start

    def choices(self, path: tuple, given: dict, start: Start) -> None:
        """The outcomes of the next ``choose_random`` of each variable named, from the setup on."""
        targets = self.ctx.game.choice_targets
        start.choices_key_pos = self.doc.key_pos(path)
        for name, outcomes in given.items():
            if name not in targets:
                self.error(f"no choose_random effect sets '{name}'", path + (name,), key=True,
                           hint=did_you_mean(name, targets) or listing("variables choose_random sets", sorted(targets)))
                continue
            values = outcomes if isinstance(outcomes, list) else [outcomes]
            start.choices[name] = [start_value(v) for v in values]
            start.choices_pos[name] = self.doc.pos(path + (name,))

    def phase_change(self, path: tuple, name: str) -> list[Callable]:
        names = self.ctx.game.phase_names
        if name not in names:
            self.error(f"unknown phase '{name}'", path, hint=did_you_mean(name, names) or listing("phases", names))
            return []
        return [setter("phase", names.index(name))]

    def dice_changes(self, path: tuple, given: Any) -> list[Callable]:
        """The table's dice set (a list), or some seats' cups (``{P1: [3, 4], P2: [1, 5]}``)."""
        game = self.ctx.game
        cups = self.cups(path, given)
        if cups is None:
            return [setter("dice", self.dice(path, given, sort=game.dice_sorted))] if isinstance(given, list) else []
        return [cup_setter(owner, values) for owner, _, values in cups]

    def cups(self, path: tuple, given: Any) -> list[tuple[int, str, list[int]]] | None:
        """With dice per seat, the cups given by seat, checked; else None (a form given for the
        other kind of dice is an error)."""
        game = self.ctx.game
        if game.dice_per != "seat":
            if isinstance(given, dict):
                self.error("this game's dice are the table's: give their values as a list", path,
                           hint="dice: [6, 6, 2, 4, 1]")
            return None
        if not isinstance(given, dict):
            self.error("this game's dice are in cups, one per seat: give them by seat", path,
                       hint="dice: {P1: [3, 4], P2: [1, 5]}")
            return []
        out = []
        for owner_text, values in given.items():
            owner = self.owner(path + (owner_text,), owner_text, "P", self.ctx.players, key=True)
            checked = self.dice(path + (owner_text,), values, sort=game.dice_sorted)
            if owner is not None:
                out.append((owner, owner_text, checked))
        return out

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
            checked = self.variables(path + (owner_text,), values, declared, f"{level} variable", typed=True)
            if owner is not None:
                pos = self.doc.key_pos(path + (owner_text,))
                changes.append(owner_merge(level, owner, owner_text, checked, pos))
        return changes
