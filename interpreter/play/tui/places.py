"""The places of the board (``board.py``: cards, piles, seats, dice) and the values of moves
they stand for, both ways, read from one seat's view. A card's place comes from the session
(``Session.card_places``), only where the view shows that card."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.values import Card, Seat, ZoneRef, seat
from ...engine.views import dice_cups

if TYPE_CHECKING:
    from rich.text import Text


def _owners(view: dict, zone: str) -> int:
    return len({label.split("#")[0] for label in view["pile_names"][zone]}) or 1


def pile_ref(view: dict, zone: str, i: int) -> ZoneRef:
    """The pile number ``i`` of a zone (in the view's flat list) as moves name it."""
    labels = view["pile_names"][zone]
    per = len(labels) // _owners(view, zone)
    owner = None if labels[i].split("#")[0] == "" else i // per
    return ZoneRef(zone, owner, i % per)


def pile_place(view: dict, ref: ZoneRef) -> tuple | None:
    labels = view["pile_names"].get(ref.name)
    if labels is None:
        return None
    per = len(labels) // _owners(view, ref.name)
    i = (ref.owner or 0) * per + ref.index
    return ("pile", ref.name, i) if 0 <= i < len(labels) else None


def candidates(place: tuple, view: dict, cards: dict[tuple, Any]) -> list:
    """What picking ``place`` may mean, most likely first: a card, then the pile it lies in."""
    kind = place[0]
    if kind == "card":
        pile = pile_ref(view, place[1], place[2])
        return [cards[place], pile] if place in cards else [pile]
    if kind == "pile":
        return [pile_ref(view, place[1], place[2])]
    if kind == "seat":
        return [seat(place[1])]
    if kind == "die":
        return [_dice_of(view, place[2] if len(place) > 2 else None)[place[1]]]
    return []


def _dice_of(view: dict, owner: int | None) -> list:
    """The table's dice, or ``owner``'s cup where each seat has one (none without an owner)."""
    cups = dice_cups(view["dice"])
    if cups is None:
        return view["dice"]
    return cups[owner] if owner is not None else []


def _die_place(view: dict, k: int) -> tuple:
    """The place of the die ``k`` of the viewer's dice (``_dice_of``)."""
    return ("die", k) if dice_cups(view["dice"]) is None else ("die", k, view["seat"])


def places_of(values: list, view: dict, cards: dict[tuple, Any]) -> frozenset:
    """The places that show ``values`` (a die's value as often as it is among them)."""
    card_place = {card.id: place for place, card in cards.items()}
    places = set()
    # A die's value stands for a die of the viewer's own dice: the table's, or the seat's cup.
    dice_left = list(enumerate(_dice_of(view, view["seat"])))
    for value in values:
        if isinstance(value, Card):
            if value.id in card_place:
                places.add(card_place[value.id])
        elif isinstance(value, ZoneRef):
            found = pile_place(view, value)
            if found is not None:
                places.add(found)
        elif isinstance(value, Seat):
            places.add(("seat", value.index))
        elif isinstance(value, int) and not isinstance(value, bool):
            for n, (k, die) in enumerate(dice_left):
                if die == value:
                    places.add(_die_place(view, k))
                    del dice_left[n]
                    break
    return frozenset(places)


def spot_positions(text: Text) -> dict[int, tuple[int, int, int]]:
    """Where each place was drawn in the board's text: its number -> (line, column, width)."""
    plain = text.plain
    found: dict[int, tuple[int, int, int]] = {}
    for span in text.spans:
        style = span.style
        meta = getattr(style, "meta", None) if not isinstance(style, str) else None
        if meta and "spot" in meta and meta["spot"] not in found:
            line = plain.count("\n", 0, span.start)
            column = span.start - (plain.rfind("\n", 0, span.start) + 1)
            found[meta["spot"]] = (line, column, span.end - span.start)
    return found


def without_spots(text: Text) -> None:
    """Take the places' marks out of the text once their positions are known: the screen draws
    fewer pieces (a click is found from the positions)."""
    text.spans = [span for span in text.spans
                  if isinstance(span.style, str) or not span.style._meta or "spot" not in span.style.meta]


def spot_at(positions: dict[int, tuple[int, int, int]], x: int, y: int) -> int | None:
    """The place drawn at column ``x`` of line ``y``, if any."""
    for number, (line, column, width) in positions.items():
        if line == y and column <= x < column + width:
            return number
    return None


def step(positions: dict[int, tuple[int, int, int]], at: int | None, dx: int, dy: int) -> int | None:
    """The place next to ``at``: the next or previous one drawn (``dx``), or the nearest one on
    the next line above or below that has places (``dy``)."""
    if not positions:
        return None
    order = sorted(positions, key=lambda n: positions[n])
    if at not in positions:
        return order[0]
    if dx:
        return order[(order.index(at) + dx) % len(order)]
    line, col = positions[at][:2]
    lines = sorted({p[0] for p in positions.values() if (p[0] - line) * dy > 0}, key=lambda l: abs(l - line))
    if not lines:
        return at
    row = [n for n in order if positions[n][0] == lines[0]]
    return min(row, key=lambda n: abs(positions[n][1] - col))
