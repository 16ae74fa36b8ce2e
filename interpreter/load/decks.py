"""The printed cards a deck declaration asks for, beyond writing each one out: a standard deck
kept to some ranks (``ranks: [9, 10, J, Q, K, A]``), and custom cards generated as every
combination of some attributes' values (``each: {rank: 1..12, colour: [red, blue]}``).

The checks here report a mistake with its place, and count the cards in play before a single
card is made (``limits.MAX_CARDS``); the engine then expands the same declarations
(``standard_ranks``, ``expand_entry``) without checking again.
"""
from __future__ import annotations

import itertools
import math
import re
from typing import Any, cast

from .. import limits
from ..errors import SpecError, did_you_mean
from ..limits import MAX_COLLECTION
from .yamlio import Document

RANK_NAMES = {"A": 1, "J": 11, "Q": 12, "K": 13}
RANGE = re.compile(r"\s*(-?[0-9]+)\s*\.\.\s*(-?[0-9]+)\s*")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def standard_ranks(ranks: list) -> set[int]:
    """The rank numbers of ``ranks:`` (``A`` is 1, ``J`` 11, ``Q`` 12, ``K`` 13)."""
    return {cast(int, RANK_NAMES.get(r, r)) if isinstance(r, str) else r for r in ranks}     # checked: A, J, Q, K


def each_values(value: Any) -> list:
    """The values one attribute of ``each:`` takes: a list as written, or ``a..b`` (both ends in)."""
    if isinstance(value, str):
        match = cast(re.Match[str], RANGE.fullmatch(value))     # checked as the file was read
        low, high = int(match.group(1)), int(match.group(2))
        return list(range(low, high + 1))
    return list(value)


def expand_entry(entry: dict) -> list[dict]:
    """The printed attributes of one ``cards:`` entry, without its ``count``: the entry itself, or
    with ``each:`` one card per combination of the values, the first attribute varying slowest.
    A generated card's ``label`` may name its attributes in braces (``'{colour}{rank}'``)."""
    fixed = {k: v for k, v in entry.items() if k not in ("count", "each")}
    if "each" not in entry:
        return [fixed]
    names = list(entry["each"])
    cards = []
    for values in itertools.product(*(each_values(entry["each"][n]) for n in names)):
        attrs = {**fixed, **dict(zip(names, values))}
        if isinstance(fixed.get("label"), str):
            attrs["label"] = PLACEHOLDER.sub(lambda m: str(attrs[m.group(1)]), fixed["label"])
        cards.append(attrs)
    return cards


def check_decks(doc: Document) -> list[SpecError]:
    errors: list[SpecError] = []
    zones = doc.data.get("zones") or {}
    for name, deck in (doc.data.get("decks") or {}).items():
        path = ("decks", name)
        errors += _check_zone(doc, name, deck, zones)
        if "ranks" in deck and not deck.get("standard"):
            errors.append(SpecError("'ranks:' keeps some ranks of the standard deck, and this deck is not one",
                                    doc.key_pos(path + ("ranks",)), hint="add 'standard: true'"))
        for i, entry in enumerate(deck.get("cards") or []):
            if "each" in entry:
                errors += _check_each(doc, path + ("cards", i), entry)
    return errors or _check_size(doc)


def _check_size(doc: Document) -> list[SpecError]:
    """All the cards in play within ``limits.MAX_CARDS``, counted from the declarations; each
    count that is not a whole number of at least 1 is an error of its own."""
    most_players = doc.data["players"]["max"]
    errors: list[SpecError] = []
    total = 0
    for name, deck in (doc.data.get("decks") or {}).items():
        copies = most_players if deck.get("per_seat") else 1
        standard = 4 * len(standard_ranks(deck["ranks"])) if "ranks" in deck else 52
        total += copies * (standard * bool(deck.get("standard")) + deck.get("jokers", 0))
        for i, entry in enumerate(deck.get("cards") or []):
            count = entry.get("count", 1)
            path = ("decks", name, "cards", i, "count")
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                errors.append(SpecError(f"a card's count must be a whole number of at least 1, not {count!r}",
                                        doc.pos(path)))
                continue
            total += copies * count * _generated(entry)
            if total > limits.MAX_CARDS:
                seats = f" (the deck is copied for each of up to {most_players} seats)" if copies > 1 else ""
                return errors + [SpecError(f"the decks hold more than {limits.MAX_CARDS} cards{seats}",
                                           doc.pos(path if "count" in entry else path[:-1]),
                                           hint=f"the limit is {limits.MAX_CARDS} cards in play")]
    if total > limits.MAX_CARDS and not errors:     # standard decks and jokers only: many per-seat copies
        errors.append(SpecError(f"the decks hold {total} cards with {most_players} players; "
                                f"the limit is {limits.MAX_CARDS}", doc.key_pos(("decks",))))
    return errors


def _generated(entry: dict) -> int:
    """How many cards one ``cards:`` entry prints (``each:`` makes one per combination; its
    ranges are already checked, and their product bounded)."""
    return math.prod(len(each_values(value)) for value in (entry.get("each") or {}).values())


def _check_zone(doc: Document, name: str, deck: dict, zones: dict[str, Any]) -> list[SpecError]:
    zone = deck.get("zone")
    if zone is None or zone in zones:
        return []
    hint = did_you_mean(zone, zones) or (f"the zones are: {', '.join(zones)}" if zones else "declare it under zones:")
    return [SpecError(f"deck '{name}' starts in the zone '{zone}', which is not declared",
                      doc.pos(("decks", name, "zone")), hint=hint)]


def _check_each(doc: Document, path: tuple, entry: dict) -> list[SpecError]:
    errors = []
    total = 1
    for attr, value in entry["each"].items():
        where = path + ("each", attr)
        if attr in entry:
            errors.append(SpecError(f"'{attr}' is given both in 'each:' and beside it", doc.key_pos(where)))
        if isinstance(value, str):
            match = RANGE.fullmatch(value)
            if match is None:
                errors.append(SpecError(f"'{value}' is not a range", doc.pos(where),
                                        hint="write a range as 1..12, or give a list of values"))
                continue
            count = int(match.group(2)) - int(match.group(1)) + 1
            if count < 1:
                errors.append(SpecError(f"the range {value.strip()} is empty", doc.pos(where),
                                        hint="write the lower end first, as 1..12"))
                continue
        else:
            count = len(value)
        total *= max(count, 1)
        if total > MAX_COLLECTION:
            errors.append(SpecError(f"'each:' makes more than {MAX_COLLECTION} cards", doc.key_pos(path + ("each",))))
            return errors
    label = entry.get("label")
    if isinstance(label, str):
        known = set(entry["each"]) | set(entry) - {"count", "each", "label"}
        for placeholder in PLACEHOLDER.findall(label):
            if placeholder not in known:
                errors.append(SpecError(f"the label names '{{{placeholder}}}', which is not an attribute of these cards",
                                        doc.pos(path + ("label",)),
                                        hint="the attributes are: " + ", ".join(sorted(known))))
    return errors
