"""What an editor shows while a game file is written (``rules lsp``): every error ``rules
validate`` reports, with its place; the words under the cursor explained (a built-in function, a
built-in name, an effect or a section, the game's own options, variables, zones, moves and
functions); and the names that may complete the word being typed.

Nothing here knows the editor's protocol (``lsp.py`` speaks it): places are 1-based lines and
columns, as in every message of the project.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from ..engine.loaded import load_game
from ..engine.game_types import flow_bindings
from ..engine.tricks import registry as trick_registry
from ..errors import RulesError, flatten
from ..expr import BUILTINS
from ..expr.types import ObjectType
from ..load.schema_check import game_schema
from ..load.yamlio import load_yaml

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Entry:
    """A name an author may write, and what it is."""
    name: str
    kind: str          # "function", "name", "option", "variable", "zone", "move", "effect", "section"...
    detail: str        # one line: a signature, a type, a start value
    doc: str = ""


def problems(path: str, text: str) -> list[RulesError]:
    """Every error of the file as ``rules validate`` reports them (none: the game loads)."""
    try:
        load_game(path, text=text)
    except RulesError as error:
        return flatten([error])
    return []


def entries(text: str, path: str = "game.yaml") -> dict[str, Entry]:
    """Every name an expression of this file may use: the language's, then the game's own (which
    hide them)."""
    known = dict(_builtin_entries())
    try:
        data = load_yaml(text, path).data
    except RulesError:
        return known
    if isinstance(data, dict):
        known.update(_game_entries(data))
    return known


def word_at(text: str, line: int, column: int) -> str | None:
    """The name under the cursor (``line`` and ``column`` from 1), if any."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    for match in WORD.finditer(lines[line - 1]):
        if match.start() + 1 <= column <= match.end():
            return match.group()
    return None


def prefix_at(text: str, line: int, column: int) -> str:
    """The part of a name typed just before the cursor (``column``: the cursor's, from 1)."""
    lines = text.splitlines()
    before = lines[line - 1][:column - 1] if 1 <= line <= len(lines) else ""
    match = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", before)
    return match.group() if match else ""


def hover(text: str, line: int, column: int, path: str = "game.yaml") -> str | None:
    """What the name under the cursor is, as Markdown; None over nothing known."""
    word = word_at(text, line, column)
    if word is None:
        return None
    lines = text.splitlines()
    is_key = re.match(rf"\s*(- )?{word}\s*(:|$)", lines[line - 1]) is not None
    # A key names a section or an effect (or a game's own name declared there); else an expression's name.
    found = [_keyword_entries(), entries(text, path)] if is_key else [entries(text, path)]
    entry = next((known[word] for known in found if word in known), None)
    if entry is None:
        return None
    lines = [f"**{entry.name}** ({entry.kind}): `{entry.detail}`" if entry.detail else f"**{entry.name}** ({entry.kind})"]
    if entry.doc:
        lines += ["", entry.doc]
    return "\n".join(lines)


def completions(text: str, line: int, column: int, path: str = "game.yaml") -> list[Entry]:
    """The names that start with what is typed before the cursor, the game's own first."""
    typed = prefix_at(text, line, column)
    found = [e for e in entries(text, path).values() if e.name.startswith(typed)]
    order = {"option": 0, "variable": 0, "zone": 0, "function defined": 0, "move": 1, "phase": 1}
    return sorted(found, key=lambda e: (order.get(e.kind, 2), e.name))


# -- the language's own names -------------------------------------------------------------------

@functools.cache        # the language's names do not change while the server runs: made once
def _builtin_entries() -> dict[str, Entry]:
    known: dict[str, Entry] = {}
    for registry in (BUILTINS, trick_registry()):
        for builtin in registry.all():
            params = ", ".join(p.name + ("?" if p.optional else "") for p in builtin.params)
            doc = builtin.doc + (f"\n\n`{builtin.example}`" if builtin.example else "")
            known[builtin.name] = Entry(builtin.name, "function", f"{builtin.name}({params})", doc)
    for name, binding in flow_bindings(None, ObjectType("seat")).items():
        known[name] = Entry(name, "name", str(binding.type), binding.doc)
    known["dice"] = Entry("dice", "name", "list of int", "the dice, as their values (a game with dice:)")
    for name in ("true", "false", "none"):
        known[name] = Entry(name, "value", name, "the two bools and the none value")
    return known


@functools.cache
def _keyword_entries() -> dict[str, Entry]:
    """The effects and the sections of a game file, with the schema's words for them."""
    schema = game_schema()
    known: dict[str, Entry] = {}
    for name, spec in schema["$defs"]["game"]["properties"].items():
        known[name] = Entry(name, "section", f"{name}:", spec.get("description", ""))
    for branch in schema["$defs"]["effect"]["oneOf"]:
        for name in (branch.get("required") or [])[:1] or branch.get("enum", []):
            known[name] = Entry(name, "effect", f"- {name}" + (": ..." if "required" in branch else ""),
                                branch.get("description", ""))
    return known


# -- the game's own names -----------------------------------------------------------------------

def _game_entries(data: dict) -> dict[str, Entry]:
    known: dict[str, Entry] = {}
    for name, option in _mapping(data.get("options")).items():
        option = option if isinstance(option, dict) else {}
        detail = f"{option.get('type', '?')}, default {option.get('default')!r}"
        known[name] = Entry(name, "option", detail, str(option.get("description", "")))
    for level, block in _mapping(data.get("variables")).items():
        for name, start in _mapping(block).items():
            known[name] = Entry(name, "variable", f"{level} variable, starts at {start!r}",
                                _level_doc(level))
    for name, zone in _mapping(data.get("zones")).items():
        zone = zone if isinstance(zone, dict) else {}
        detail = f"zone, one per {zone.get('per', 'game')}, face {zone.get('face', 'up')}"
        known[name] = Entry(name, "zone", detail, str(zone.get("description", zone.get("label", ""))))
    for name, body in _mapping(data.get("define")).items():
        signature = name if "(" in name else f"{name}"
        known[name.split("(")[0]] = Entry(name.split("(")[0], "function defined", signature, str(body))
    for name, move in _mapping(data.get("moves")).items():
        move = move if isinstance(move, dict) else {}
        params = ", ".join(_mapping(move.get("params")))
        known[name] = Entry(name, "move", f"{name} {params}".strip(), str(move.get("description", "")))
    for phase in (_mapping(data.get("flow")).get("phases") or []):
        if isinstance(phase, dict) and isinstance(phase.get("name"), str):
            known[phase["name"]] = Entry(phase["name"], "phase", "phase", str(phase.get("label", "")))
    return known


def _level_doc(level: str) -> str:
    return {"game": "One for the game.",
            "seat": "One per seat: named alone it is the acting seat's; another seat's is p.NAME.",
            "team": "One per team: named alone it is the acting seat's team's."}.get(level, "")


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


