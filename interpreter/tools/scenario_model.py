"""What a scenario is once read: its start, its steps and the checks after each; the notation
people use for seats, teams and piles; and the small helpers that word the checks' messages."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..engine.loaded import LoadedGame
from ..engine.state import State
from ..engine.values import ZoneRef
from ..errors import Position

if TYPE_CHECKING:
    from collections.abc import Iterable

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
    choices: dict[str, list] = field(default_factory=dict)   # a variable: its next choose_random outcomes
    stack_pos: Position | None = None
    rolls_pos: Position | None = None
    choices_key_pos: Position | None = None
    choices_pos: dict[str, Position] = field(default_factory=dict)


@dataclass
class Scenario:
    name: str
    pos: Position
    game: LoadedGame
    players: int
    seed: int
    start: Start
    steps: list[Step]


def lookup(holder: Any, name: str) -> Any:
    return holder.get(name, MISSING) if isinstance(holder, dict) else MISSING


def kind_of(value: Any) -> str | None:
    return next((word for types, word in KINDS if isinstance(value, types)), None)


def show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, str) else str(value)


def counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def listing(what: str, names: Iterable[str]) -> str:
    names = list(names)
    return f"the {what} are: {', '.join(names)}" if names else f"there are no {what}"
