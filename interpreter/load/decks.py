"""The printed cards a deck declaration asks for, beyond writing each one out: a standard deck
kept to some ranks (``ranks: [9, 10, J, Q, K, A]``), and custom cards generated as every
combination of some attributes' values (``each: {rank: 1..12, colour: [red, blue]}``).

The checks here report a mistake with its place; the engine then expands the same declarations
(``standard_ranks``, ``expand_entry``) without checking again.
"""
from __future__ import annotations

import itertools
import re
from typing import Any

from ..errors import SpecError
from ..limits import MAX_COLLECTION
from .yamlio import Document

RANK_NAMES = {"A": 1, "J": 11, "Q": 12, "K": 13}
RANGE = re.compile(r"\s*(-?[0-9]+)\s*\.\.\s*(-?[0-9]+)\s*")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def standard_ranks(ranks: list) -> set[int]:
    """The rank numbers of ``ranks:`` (``A`` is 1, ``J`` 11, ``Q`` 12, ``K`` 13)."""
    return {RANK_NAMES.get(r, r) if isinstance(r, str) else r for r in ranks}


def each_values(value: Any) -> list:
    """The values one attribute of ``each:`` takes: a list as written, or ``a..b`` (both ends in)."""
    if isinstance(value, str):
        match = RANGE.fullmatch(value)
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
    for name, deck in (doc.data.get("decks") or {}).items():
        path = ("decks", name)
        if "ranks" in deck and not deck.get("standard"):
            errors.append(SpecError("'ranks:' keeps some ranks of the standard deck, and this deck is not one",
                                    doc.key_pos(path + ("ranks",)), hint="add 'standard: true'"))
        for i, entry in enumerate(deck.get("cards") or []):
            if "each" in entry:
                errors += _check_each(doc, path + ("cards", i), entry)
    return errors


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
