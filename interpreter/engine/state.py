"""The state of one game in progress: plain, compact data, cheap to clone, exact in JSON.

Cards are integers (ids into the game's card table); zones are lists of piles of ids; face-up
cards are a set of ids; variables hold stored values (see ``values.to_json``). The flow position
(round, phase, whose turn) lives here too, so a state alone says what happens next.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import PresetError
from .values import copy_value, from_json, to_json

if TYPE_CHECKING:
    from .values import ZoneRef

STATE_FORMAT = 1


@dataclass
class Presets:
    """Outcomes a test fixes in advance, consulted before the random generator: stacked zones
    (card ids, first = top) for the shuffles that set up a game, the values of the next rolls,
    and for a variable the outcomes of its next ``choose_random`` effects, in order."""

    stacks: dict = field(default_factory=dict)
    rolls: list[list[int]] = field(default_factory=list)
    choices: dict[str, list] = field(default_factory=dict)
    stacked: set = field(default_factory=set)     # the stacked zones a shuffle has reached

    @property
    def unused(self) -> bool:
        return bool(self.rolls) or any(self.choices.values())

    def next_choice(self, target: str, options: list) -> int | None:
        """The index in ``options`` of the next fixed outcome for ``target``, or None when none is
        left. A fixed outcome is a value or its text (``P3`` for a seat, a card's label)."""
        fixed = self.choices.get(target)
        if not fixed:
            return None
        wanted = fixed.pop(0)
        for i, option in enumerate(options):
            if _same(option, wanted):
                return i
        shown = ", ".join(str(o) for o in options[:8]) + (", ..." if len(options) > 8 else "")
        raise PresetError(f"choose_random: the fixed outcome {wanted} for {target} is not one of the choices ({shown})")

    def stack_on_top(self, zone: ZoneRef, pile: list[int], cards_table: list) -> None:
        """After a shuffle of ``zone``: its stacked cards on top, the rest in their order under them."""
        cards = self.stacks.get(zone)
        if cards is None:
            return
        missing = [cards_table[c].label for c in cards if c not in pile]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            raise PresetError(f"stack: {', '.join(missing)} {verb} not in {zone} when it is shuffled")
        pile[:] = [c for c in pile if c not in cards] + cards[::-1]
        self.stacked.add(zone)

    def next_roll(self, thrown: int) -> list[int] | None:
        """The values of the next fixed roll of ``thrown`` dice, or None when none is left."""
        if not self.rolls:
            return None
        values = self.rolls.pop(0)
        if len(values) != thrown:
            raise PresetError(f"roll: the next fixed roll has {len(values)} values, but {thrown} dice are thrown")
        return list(values)


def _same(option: Any, wanted: Any) -> bool:
    if isinstance(option, bool) or isinstance(wanted, bool):
        return type(option) is type(wanted) and option == wanted
    if isinstance(option, (int, float, str, type(None))) or type(option) is type(wanted):
        return option == wanted
    return str(option) == str(wanted)    # a seat, card or zone and its text


@dataclass
class State:
    players: int
    rng: int
    vars: dict[str, Any] = field(default_factory=dict)
    seat_vars: list[dict[str, Any]] = field(default_factory=list)
    team_vars: list[dict[str, Any]] = field(default_factory=list)
    zones: dict[str, list[list[int]]] = field(default_factory=dict)
    face_up: set[int] = field(default_factory=set)
    dice: list = field(default_factory=list)        # the values; with dice per seat, a list of cups
    dice_shown: list[int] = field(default_factory=list)     # the seats whose cups were revealed since thrown
    round: int = 0
    phase: int = 0
    current: int | None = None
    turns: int = 0
    moves: int = 0
    over: bool = False
    stop_reason: str | None = None
    # Never cloned, serialised or compared: a state without presets is an ordinary state.
    presets: Presets | None = field(default=None, repr=False)
    # Where each moved card was put, as (pile, whether it is a grid's): a hint that ``Game.place`` checks
    # before it trusts it (a card taken out by other means is then looked for in every pile).
    # Never cloned, serialised or compared.
    places: dict = field(default_factory=dict, repr=False)
    # Values worked out from the state that cannot differ while what they read is the same, keyed
    # by what they read (tricks.py: a card's effective suit and rank). Never cloned, serialised or
    # compared.
    derived: dict = field(default_factory=dict, repr=False)
    # Each seat's legal moves found so far, with copies of what they read (``listing_cache``).
    # Never cloned, serialised or compared.
    listings: Any = field(default=None, repr=False)
    # Who hears this very state's log lines and round ends (a table), not the copies a bot plays
    # on while it thinks: ``watcher.heard(ctx, text)``, ``watcher.round_ended(state)``. Kept on the
    # state, not the game, so that one game serves any number of tables. Never cloned, serialised
    # or compared.
    watcher: Any = field(default=None, repr=False)

    def clone(self) -> "State":
        return State(
            players=self.players, rng=self.rng,
            vars=copy_value(self.vars),
            seat_vars=copy_value(self.seat_vars),
            team_vars=copy_value(self.team_vars),
            zones={name: [list(pile) for pile in piles] for name, piles in self.zones.items()},
            face_up=set(self.face_up), dice=list(self.dice), dice_shown=list(self.dice_shown),
            round=self.round, phase=self.phase, current=self.current, turns=self.turns,
            moves=self.moves, over=self.over, stop_reason=self.stop_reason,
        )

    def to_json(self) -> dict:
        return {
            "format": STATE_FORMAT, "players": self.players, "rng": str(self.rng),
            "vars": to_json(self.vars), "seat_vars": to_json(self.seat_vars),
            "team_vars": to_json(self.team_vars), "zones": self.zones,
            "face_up": sorted(self.face_up), "dice": self.dice, "dice_shown": self.dice_shown,
            "round": self.round, "phase": self.phase, "current": self.current, "turns": self.turns,
            "moves": self.moves, "over": self.over, "stop_reason": self.stop_reason,
        }

    @classmethod
    def from_json(cls, data: dict, cards: list) -> "State":
        return cls(
            players=data["players"], rng=int(data["rng"]),
            vars=from_json(data["vars"], cards), seat_vars=from_json(data["seat_vars"], cards),
            team_vars=from_json(data["team_vars"], cards),
            zones={name: [list(p) for p in piles] for name, piles in data["zones"].items()},
            face_up=set(data["face_up"]), dice=list(data["dice"]), dice_shown=list(data.get("dice_shown", [])),
            round=data["round"], phase=data["phase"], current=data["current"], turns=data["turns"],
            moves=data["moves"], over=data["over"], stop_reason=data["stop_reason"],
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()
