"""Grid zones: piles whose cards lie in fixed slots, in rows and columns; a slot may be empty.

A zone declared with ``grid: {rows: R, cols: C}`` keeps each of its piles as a list of slot
contents in reading order (row by row): a card id, or ``None`` for an empty slot. Slots past the
end of the list are empty too, so a new grid is an empty list. Taking a card out of a grid
leaves its slot empty; a card put in without a slot fills the first empty one; a card put at a
slot displaces the card that was there. Expressions read a grid through the zone members below
(``slots``, ``rows``, ``cols``, ``lines``) and a card's ``slot``.
"""
from __future__ import annotations

from typing import Any, cast

from ..errors import EvalError
from ..expr import ANY, INT, ListOf, Member, ObjectType
from ..expr.ops import show
from .context import active_game, active_state
from .values import Card, ZoneRef


def shape(game: Any, zone: str) -> tuple[int, int] | None:
    """(rows, cols) of a grid zone, None for any other zone."""
    grid = game.zones[zone].grid
    return None if grid is None else (grid["rows"], grid["cols"])


def size(game: Any, zone: str) -> int:
    """How many slots a grid zone has."""
    rows, cols = cast("tuple[int, int]", shape(game, zone))
    return rows * cols


def cards_in(pile: list) -> list[int]:
    """The card ids of a pile, in order, without the empty slots of a grid."""
    return [c for c in pile if c is not None]


def slot_contents(game: Any, zone: str, pile: list) -> list:
    """Every slot of a grid pile, in reading order: a card id or None."""
    return list(pile) + [None] * (size(game, zone) - len(pile))


# -- changing a grid ---------------------------------------------------------------------------------

def without(pile: list, card_ids: set, is_grid: bool) -> list:
    """A pile without these cards; in a grid their slots stay, empty."""
    if is_grid:
        return [None if c in card_ids else c for c in pile]
    return [c for c in pile if c not in card_ids]


def take_out(pile: list, card_id: int, is_grid: bool) -> None:
    """Remove a card from a pile; in a grid its slot stays, empty."""
    if is_grid:
        pile[pile.index(card_id)] = None
    else:
        pile.remove(card_id)


def put_in(game: Any, ref: ZoneRef, pile: list, card_id: int) -> None:
    """Put a card in the first empty slot of a grid pile."""
    slots = slot_contents(game, ref.name, pile)
    if None not in slots:
        raise EvalError(f"{ref} has no empty slot")
    slots[slots.index(None)] = card_id
    pile[:] = slots


def put_at(game: Any, ref: ZoneRef, pile: list, slot: Any, card_id: int) -> int | None:
    """Put a card at a slot of a grid pile; the card that was there (or None) is returned."""
    if shape(game, ref.name) is None:
        raise EvalError(f"move: {ref} is not a grid, so it has no slots")
    slots = slot_contents(game, ref.name, pile)
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(slots):
        raise EvalError(f"{ref} has slots 0 to {len(slots) - 1}, not {show(slot)}")
    displaced, slots[slot] = slots[slot], card_id
    pile[:] = slots
    return displaced


# -- what expressions read ------------------------------------------------------------------------

def _slots(ref: Any) -> list:
    game, state = active_game(), active_state()
    if not isinstance(ref, ZoneRef) or shape(game, ref.name) is None:
        raise EvalError(f"{ref} is not a grid (declare the zone with grid: {{rows: ..., cols: ...}})")
    table = game.card_table(state.players)
    return [None if c is None else table[c] for c in slot_contents(game, ref.name, game.pile(state, ref))]


def _rows(ref: Any) -> list[list]:
    slots = _slots(ref)
    cols = cast("tuple[int, int]", shape(active_game(), ref.name))[1]     # a grid: _slots checked it
    return [slots[r * cols:(r + 1) * cols] for r in range(len(slots) // cols)]


def _cols(ref: Any) -> list[list]:
    rows = _rows(ref)
    return [list(column) for column in zip(*rows)]


def _lines(ref: Any) -> list[list]:
    return _rows(ref) + _cols(ref)


def _dimension(index: int):
    def read(ref: Any) -> int:
        grid = shape(active_game(), ref.name)
        return 0 if grid is None else grid[index]
    return read


def zone_members(card: ObjectType) -> dict[str, Member]:
    """The members every zone has for reading grids (an error on a zone that is not a grid)."""
    cards = ListOf(card)
    return {
        "slots": Member(cards, _slots, "a grid's slots in reading order: a card, or none when empty"),
        "rows": Member(ListOf(cards), _rows, "a grid's rows, top first, each a list of slots"),
        "cols": Member(ListOf(cards), _cols, "a grid's columns, left first, each a list of slots"),
        "lines": Member(ListOf(cards), _lines, "a grid's rows then its columns"),
        "row_count": Member(INT, _dimension(0), "how many rows a grid has (0 for any other zone)"),
        "col_count": Member(INT, _dimension(1), "how many columns a grid has (0 for any other zone)"),
    }


def card_slot(card: Card) -> int | None:
    """The slot a card lies in, in the grid that holds it, or None when no grid holds it."""
    game, state = active_game(), active_state()
    for name, piles in state.zones.items():
        if game.zones[name].grid is None:
            continue
        for pile in piles:
            if card.id in pile:
                return pile.index(card.id)
    return None


def card_members() -> dict[str, Member]:
    return {"slot": Member(ANY, card_slot, "the card's slot in the grid that holds it, or none")}
