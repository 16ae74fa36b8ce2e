"""Zones and cards named as people write them, for fixing chance from Python: ``stock``,
``hand[P2]``, ``won[T1]``, ``work[P1]#3`` for a zone's pile, ``AS`` or a custom card's label for a
card. Every name is checked; a mistake is an ``OptionError`` with a did-you-mean."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import OptionError, did_you_mean
from .state import Presets
from .values import ZoneRef

if TYPE_CHECKING:
    from .game import Game

ZONE_NAME = re.compile(r"(?P<name>[^\[\]#]+)(?:\[(?P<letter>[PT])(?P<owner>[1-9][0-9]*)\])?(?:#(?P<pile>[1-9][0-9]*))?")


def zone_named(game: Game, players: int, name: str | ZoneRef) -> ZoneRef:
    """The pile a name (or a ``ZoneRef``) stands for."""
    if isinstance(name, ZoneRef):
        return name
    match = ZONE_NAME.fullmatch(str(name).strip())
    zone = game.zones.get(match.group("name")) if match else None
    if zone is None:
        base = match.group("name") if match else str(name)
        raise OptionError(f"unknown zone '{name}'", hint=did_you_mean(base, game.zones) or
                          "the zones are: " + ", ".join(game.zones))
    assert match is not None        # a zone was found by the name it matched
    owner = None if match.group("owner") is None else int(match.group("owner")) - 1
    per = zone.per
    letter = {"seat": "P", "team": "T"}.get(per)
    if (owner is None) != (letter is None) or (letter is not None and match.group("letter") != letter):
        example = f"{zone.name}[{letter}1]" if letter else zone.name
        raise OptionError(f"'{name}': zone '{zone.name}' is {'one per ' + per if letter else 'shared'}; "
                          f"write it as {example}")
    if per == "seat":
        assert owner is not None    # a zone per seat is named with its seat (checked above)
        if owner >= players:
            raise OptionError(f"there is no seat P{owner + 1}: the game has {players} players")
    index = 0 if match.group("pile") is None else int(match.group("pile")) - 1
    if index and zone.piles is None:
        raise OptionError(f"'{name}': zone '{zone.name}' is a single pile, it has no pile #{index + 1}")
    return ZoneRef(zone.name, owner, index)


def cards_named(game: Game, players: int, cards: list, taken: dict[str, int]) -> list[int]:
    """The card ids of ``cards`` (labels, or ids); a label named again takes its next copy."""
    table = game.card_table(players)
    by_label: dict[str, list[int]] = {}
    for card in table:
        by_label.setdefault(card.label, []).append(card.id)
    ids = []
    for card in cards:
        if isinstance(card, int) and not isinstance(card, bool):
            if not 0 <= card < len(table):
                raise OptionError(f"there is no card {card}: the game has {len(table)} cards")
            ids.append(card)
            continue
        label = str(card)
        copies = by_label.get(label)
        if copies is None:
            raise OptionError(f"unknown card '{label}'",
                              hint=did_you_mean(label, by_label) or "cards are named by their labels, as AS or 10H")
        used = taken.get(label, 0)
        if used >= len(copies):
            raise OptionError(f"card '{label}' is named {used + 1} times, but the game has "
                              f"{len(copies)} such card{'s' if len(copies) != 1 else ''}")
        taken[label] = used + 1
        ids.append(copies[used])
    return ids


def presets_named(game: Game, players: int, stack: dict | None = None, choices: dict | None = None) -> Presets:
    """Presets from names: ``stack`` maps zones to cards (first = top), ``choices`` a variable to
    the outcomes of its next ``choose_random`` effects (one value, or a list of them in order)."""
    taken: dict[str, int] = {}
    stacks = {zone_named(game, players, zone): cards_named(game, players, list(cards), taken)
              for zone, cards in (stack or {}).items()}
    fixed = {}
    for name, outcomes in (choices or {}).items():
        if name not in game.choice_targets:
            raise OptionError(f"no choose_random effect sets '{name}'",
                              hint=did_you_mean(name, game.choice_targets) or _targets(game))
        fixed[name] = list(outcomes) if isinstance(outcomes, (list, tuple)) else [outcomes]
    return Presets(stacks=stacks, choices=fixed)


def _targets(game: Game) -> str:
    targets = sorted(game.choice_targets)
    return "choose_random sets: " + ", ".join(targets) if targets else "the game has no choose_random effect"
