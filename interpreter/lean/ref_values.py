"""Lean values as the reference's, and back: a card's id and the card, a seat's index and the
seat, a pile's number and its zone's pile, in lists and maps of them."""
from __future__ import annotations

from typing import Any, cast

from ..engine.values import Card, Seat, ZoneRef
from ..engine.values import seat as seat_value
from .ltypes import CARD, SEAT, LType, ListT, MapT, Opt, Zone


def to_ref(value: Any, kind: LType, cards: list[Card], zone_refs: Any = None) -> Any:
    """The reference's value of a lean value of type ``kind``: a card's id becomes the card, a
    seat's index the seat; ``zone_refs(name, pile)`` names a zone's pile."""
    if value is None:
        return None
    if isinstance(kind, Opt):
        kind = kind.of
    if kind == CARD:
        return cards[value]
    if kind == SEAT:
        return seat_value(value)
    if isinstance(kind, Zone):
        return zone_refs(kind.name, value)
    if isinstance(kind, ListT):
        return [to_ref(v, kind.elem, cards, zone_refs) for v in value]
    if isinstance(kind, MapT):
        return {to_ref(k, kind.key, cards, zone_refs): to_ref(v, kind.value, cards, zone_refs)
                for k, v in value.items()}
    return value


def from_ref(value: Any, kind: LType, zone_pile: Any = None) -> Any:
    """The lean value of a reference value (``to_ref`` backwards); ``zone_pile(ref, any_zone)`` is a zone's
    pile number (its place where ``kind`` is a pile of any zone)."""
    if isinstance(value, Card):
        return value.id
    if isinstance(value, Seat):
        return value.index
    if isinstance(value, ZoneRef):
        return zone_pile(value, cast(Zone, kind.of if isinstance(kind, Opt) else kind).name is None)
    inner = kind.of if isinstance(kind, Opt) else kind
    if isinstance(value, list):
        elem = inner.elem if isinstance(inner, ListT) else kind
        return [from_ref(v, elem, zone_pile) for v in value]
    if isinstance(value, dict):
        key = inner.key if isinstance(inner, MapT) else kind
        item = inner.value if isinstance(inner, MapT) else kind
        return {from_ref(k, key, zone_pile): from_ref(v, item, zone_pile) for k, v in value.items()}
    return value
