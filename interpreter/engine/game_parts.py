"""The parts of a compiled game that its compiler makes and the engines read (a move, its
parameters, a phase), and the readers of a game file's sections that others share: its
definitions' names and parameters, a deck's printed cards."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, cast

from ..errors import Position
from ..expr.parse import parse_expression
from ..load.decks import expand_entry, standard_ranks
from .values import standard_cards

DEFINE_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$")


def defined_functions(data: dict) -> dict[str, tuple[list[str], Any]]:
    """The game file's definitions by name: their parameters and body as written."""
    found = {}
    for key, body in (data.get("define") or {}).items():
        name, params = define_head(key)
        found[name] = (params, body)
    return found


def parsed_definitions(data: dict) -> dict[str, tuple[list[str], Any]]:
    """``defined_functions`` with each body's syntax tree (a body written as a bool read as the
    language writes it)."""
    return {name: (params, parse_expression(str(body).lower() if isinstance(body, bool) else str(body)))
            for name, (params, body) in defined_functions(data).items()}


def define_head(key: str) -> tuple[str, list[str]]:
    """A definition's name and parameters, from its key (``f(a, b)``; one the load checked)."""
    name, params = cast(re.Match[str], DEFINE_KEY.match(key)).groups()
    return name, [p.strip() for p in params.split(",")] if params and params.strip() else []


@dataclass
class Param:
    name: str
    kind: str                # "from" or "subset_of"
    domain: Callable
    # Seen only by the seat that plays the move; the others see its public form ("3 cards").
    private: bool = False


@dataclass
class MoveDef:
    name: str
    index: int
    params: list[Param]
    run: Callable
    # The clauses of `when` (a chain of `and`s) staged by the parameters they need: stage k runs
    # once the first k parameters are chosen, so a move is dropped as early as possible.
    stages: list[list[Callable]]
    pos: Position | None = None     # the move's name in the file, for errors of its listing

    def __post_init__(self) -> None:
        self.param_names = tuple(p.name for p in self.params)     # the env of its effects, by name


@dataclass
class PhaseDef:
    name: str
    moves: list[str]
    turns: dict | None
    first: Callable | None
    next: Callable | None
    until: Callable | None
    start: Callable
    end: Callable
    turn_start: Callable
    turn_end: Callable
    pos: Position | None = None     # the phase's name in the file, for a stalled game


def deck_cards(deck: dict) -> list[dict]:
    """The printed cards of one deck declaration, each with a label."""
    printed = standard_cards(deck.get("jokers", 0))
    cards = printed if deck.get("standard") else printed[52:]
    if "ranks" in deck:
        kept = standard_ranks(deck["ranks"])
        cards = [card for card in cards if card["joker"] or card["rank"] in kept]
    for entry in deck.get("cards", []):
        for attrs in expand_entry(entry):
            attrs.setdefault("label", str(attrs.get("name", "/".join(str(v) for v in attrs.values()))))
            cards.extend(dict(attrs) for _ in range(int(entry.get("count", 1))))
    return cards
