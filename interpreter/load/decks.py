"""Checks of the decks that need no expression: each deck's zone exists, each card's count is a
whole number, and all the cards in play stay within the limit (``limits.MAX_CARDS``), counted
before a single card is made."""
from __future__ import annotations

from typing import Any

from .. import limits
from ..errors import SpecError, did_you_mean
from .yamlio import Document


def check_decks(doc: Document) -> list[SpecError]:
    data = doc.data
    zones = data.get("zones", {})
    most_players = data["players"]["max"]
    errors: list[SpecError] = []
    total = 0
    for name, deck in data.get("decks", {}).items():
        errors += _check_zone(doc, name, deck, zones)
        copies = most_players if deck.get("per_seat") else 1
        total += copies * (52 * bool(deck.get("standard")) + deck.get("jokers", 0))
        for i, entry in enumerate(deck.get("cards", [])):
            count = entry.get("count", 1)
            path = ("decks", name, "cards", i, "count")
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                errors.append(SpecError(f"a card's count must be a whole number of at least 1, not {count!r}",
                                        doc.pos(path)))
                continue
            total += copies * count
            if total > limits.MAX_CARDS:
                seats = f" (the deck is copied for each of up to {most_players} seats)" if copies > 1 else ""
                errors.append(SpecError(f"the decks hold more than {limits.MAX_CARDS} cards{seats}",
                                        doc.pos(path), hint=f"the limit is {limits.MAX_CARDS} cards in play"))
                return errors
    if total > limits.MAX_CARDS:      # standard decks and jokers only: many per-seat copies
        errors.append(SpecError(f"the decks hold {total} cards with {most_players} players; "
                                f"the limit is {limits.MAX_CARDS}", doc.key_pos(("decks",))))
    return errors


def _check_zone(doc: Document, name: str, deck: dict, zones: dict[str, Any]) -> list[SpecError]:
    zone = deck.get("zone")
    if zone is None or zone in zones:
        return []
    hint = did_you_mean(zone, zones) or (f"the zones are: {', '.join(zones)}" if zones else "declare it under zones:")
    return [SpecError(f"deck '{name}' starts in the zone '{zone}', which is not declared",
                      doc.pos(("decks", name, "zone")), hint=hint)]
