"""Reading a game file: safe YAML, the structure check, options, and the normalised model.

``read_spec`` gives a ``Spec``: the validated data with its document (for positions) and the
options resolved against the game's declarations. The semantic checks that need expressions
(names, types) happen when the spec is compiled into a ``Game`` (``game.py``).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import ErrorList, OptionError, RulesError, SpecError, did_you_mean
from ..expr import BUILTINS
from .decks import check_decks
from .schema_check import YAML11_BOOLEANS, check_structure, describe_value
from .sizes import size_components
from .variants import resolve_extends
from .words_check import check_words
from .yamlio import Document, load_yaml, load_yaml_file

if TYPE_CHECKING:
    from ..errors import Position

# The Python type of each kind of option's values, and how to say it.
OPTION_KINDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "bool": (bool, "true or false"), "int": (int, "a whole number"),
    "choice": ((str, int), "text or a whole number"), "text": (str, "text"),
}
DEFINE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # a definition's name, before any (params)
# Names the engine gives every game's expressions (see names.flow_bindings).
FLOW_NAMES = frozenset({"me", "current", "players", "player_count", "round", "turn", "phase", "dice"})
ZONE_DEFAULTS = {"per": "game", "face": "up", "visible_to": "all", "top_only": False}


@dataclass(frozen=True)
class ZoneDef:
    name: str
    per: str
    face: str
    visible_to: str
    top_only: bool
    piles: Any = None          # None: one pile per owner; else a count or an expression of one
    grid: Any = None           # None, or {rows, cols}: each pile is a grid of fixed slots


@dataclass
class Spec:
    doc: Document
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def data(self) -> dict:
        return self.doc.data

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def file(self) -> str:
        return self.doc.source.name

    def zones(self) -> dict[str, ZoneDef]:
        return {name: ZoneDef(name, **{**ZONE_DEFAULTS, **{k: v for k, v in z.items() if k not in ("description", "label")}})
                for name, z in self.data.get("zones", {}).items()}

    def variables(self) -> dict[str, dict[str, Any]]:
        """Start values of the game, seat and team variables; the word ``none`` is the none value."""
        return {level: start_value(block) for level, block in self.data.get("variables", {}).items()}

    def players(self) -> tuple[int, int, int]:
        p = self.data["players"]
        return p["min"], p["max"], p.get("default", p["min"])

    def digest(self) -> str:
        """A hash of the resolved spec and options, stored in records to detect a changed game."""
        blob = json.dumps({"spec": self.data, "options": self.options}, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def param_kind(param: dict) -> str:
    """How a move's parameter ranges: ``from`` (one value of a list) or ``subset_of``."""
    return "from" if "from" in param else "subset_of"


def start_value(value: Any) -> Any:
    if value == "none":
        return None
    if isinstance(value, list):
        return [start_value(v) for v in value]
    if isinstance(value, dict):
        return {k: start_value(v) for k, v in value.items()}
    return value


def read_spec(source: str | Path, options: dict[str, str] | None = None, *, text: str | None = None) -> Spec:
    """Load, check the structure of, and resolve the options of one game file."""
    doc = load_yaml(text, str(source)) if text is not None else load_yaml_file(source)
    doc = resolve_extends(doc, load_yaml_file)
    errors: Sequence[RulesError] = check_structure(doc)
    if not errors:
        errors = check_declarations(doc)
    if errors:
        raise ErrorList(errors)
    spec = Spec(doc)
    spec.options = resolve_options(spec, options or {})
    errors = [*size_components(doc, spec.options), *check_decks(doc)]    # the options known: sizes written out
    if errors:
        raise ErrorList(errors)
    return spec


def check_declarations(doc: Document) -> list[SpecError]:
    """Checks of the declarations that need no expression: counts, defaults, duplicates."""
    data = doc.data
    errors: list[SpecError] = []
    low, high = data["players"]["min"], data["players"]["max"]
    if low > high:
        errors.append(SpecError(f"players: min ({low}) is greater than max ({high})", doc.pos(("players", "min"))))
    default = data["players"].get("default")
    if default is not None and not low <= default <= high:
        errors.append(SpecError(f"players: default {default} is outside {low}..{high}", doc.pos(("players", "default"))))
    for name, option in data.get("options", {}).items():
        errors += _check_option(doc, name, option)
    errors += _check_name_clashes(doc)
    errors += check_words(doc)
    return errors


def _check_option(doc: Document, name: str, option: dict) -> list[SpecError]:
    path = ("options", name)
    kind, default = option["type"], option["default"]
    expected, words = OPTION_KINDS[kind]
    if isinstance(default, bool) and kind != "bool" or not isinstance(default, expected):
        hint = (f"'{default}' is text here; write true or false"
                if kind == "bool" and str(default).lower() in YAML11_BOOLEANS else None)
        return [SpecError(f"option '{name}': the default must be {words} (type: {kind}), "
                          f"not {describe_value(default)}", doc.pos(path + ("default",)), hint=hint)]
    if kind != "choice" and "choices" in option:
        return [SpecError(f"option '{name}': 'choices' is only for options of type: choice",
                          doc.key_pos(path + ("choices",)))]
    if kind == "int":
        return _check_int_range(doc, name, option)
    if kind == "choice":
        choices = option.get("choices")
        if not choices:
            return [SpecError(f"option '{name}': a choice option needs 'choices'", doc.key_pos(path))]
        if default not in choices:
            return [SpecError(f"option '{name}': the default {default!r} is not one of its choices",
                              doc.pos(path + ("default",)))]
    return []


def _check_int_range(doc: Document, name: str, option: dict) -> list[SpecError]:
    low, high, default = option.get("min"), option.get("max"), option["default"]
    path = ("options", name)
    if low is not None and high is not None and low > high:
        return [SpecError(f"option '{name}': min ({low}) is greater than max ({high})", doc.pos(path + ("min",)))]
    if (low is not None and default < low) or (high is not None and default > high):
        return [SpecError(f"option '{name}': the default {default} is outside {low}..{high}",
                          doc.pos(path + ("default",)))]
    return []


def _check_reserved(name: str, pos: Position | None) -> SpecError | None:
    if name in FLOW_NAMES:
        return SpecError(f"'{name}' is a name every game has already", pos,
                         hint="the flow's own names are " + ", ".join(sorted(FLOW_NAMES)) + "; choose another")
    if name in BUILTINS.names():
        return SpecError(f"'{name}' is the name of a built-in function", pos, hint="choose another name")
    return None


def _check_name_clashes(doc: Document) -> list[SpecError]:
    """Variables, zones, options and definitions share one namespace in expressions."""
    data = doc.data
    places: list[tuple[tuple[str, ...], list]] = [(("options",), list(data.get("options", {}))),
                                                  (("zones",), list(data.get("zones", {})))]
    for level in ("game", "seat", "team"):
        places.append((("variables", level), list(data.get("variables", {}).get(level, {}))))
    places.append((("define",), list(data.get("define", {}))))
    # In file order, so the second declaration is the one reported, whatever the sections' order.
    declared = sorted(((cast(re.Match[str], DEFINE_NAME.match(key)).group(), doc.key_pos(prefix + (key,)))
                       for prefix, keys in places for key in keys), key=lambda d: (d[1].line, d[1].col))
    seen: dict[str, int] = {}
    errors = []
    for name, pos in declared:
        reserved = _check_reserved(name, pos)
        if reserved is not None:
            errors.append(reserved)
        elif name in seen:
            errors.append(SpecError(f"the name '{name}' is declared twice (first at line {seen[name]})", pos,
                                    hint="options, zones, variables and definitions share one set of names"))
        else:
            seen[name] = pos.line
    return errors


def resolve_options(spec: Spec, given: dict[str, str]) -> dict[str, Any]:
    """The game's options with their defaults, overridden by ``--option name=value`` texts."""
    declared = spec.data.get("options", {})
    values = {name: o["default"] for name, o in declared.items()}
    for name, text in given.items():
        if name not in declared:
            hint = did_you_mean(name, declared) or (
                "this game has options: " + ", ".join(declared) if declared else "this game has no options")
            raise OptionError(f"unknown option '{name}'", hint=hint)
        values[name] = _parse_option(name, declared[name], text)
    return values


def _parse_option(name: str, option: dict, text: Any) -> Any:
    kind = option["type"]
    text = str(text).strip()
    if kind == "bool":
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option '{name}' is true or false, not '{text}'")
    if kind == "int" or (kind == "choice" and all(isinstance(c, int) for c in option["choices"])):
        try:
            value = int(text)
        except ValueError:
            raise OptionError(f"option '{name}' is a whole number, not '{text}'") from None
    else:
        value = text
    if kind == "choice" and value not in option["choices"]:
        choices = ", ".join(str(c) for c in option["choices"])
        raise OptionError(f"option '{name}' is one of {choices}, not '{text}'")
    if kind == "int":
        low, high = option.get("min"), option.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            raise OptionError(f"option '{name}' must be between {low} and {high}, not {value}")
    return value
