"""What generated lean code calls: the language's operations where Python's differ, and the
effects on the lean state (``ref_values`` converts lean values to the reference's, ``budget``
counts the work not bounded at load).

Any exception raised here or in generated code only says that the step failed: the lean engine
then replays the game in the reference engine, which raises the exact error at its place.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..engine.rng import below, belows, shuffled
from ..engine.templates import show as show_in_line
from ..engine.values import stored_copy
from ..expr.ops import (COMPARISONS, add, divide, floor_divide, inclusive_range, map_key, modulo, multiply, negate,
                        subtract, text_of)
from ..expr.function_values import FunctionValue
from ..limits import MAX_COLLECTION, MAX_INT, MAX_PLAYERS, MAX_ROUNDS, MAX_VALUE_DEPTH


class Failed(Exception):
    """A check of the language failed in generated code (the reference says which, and where)."""


def fail(*_: Any) -> Any:
    raise Failed


def truth(value: Any) -> bool:
    """``value`` as a condition: a bool, else the step fails."""
    if value is True or value is False:
        return value
    raise Failed


LOWEST = -MAX_INT      # made once: ``number`` is called at every checked operation


def number(value: Any) -> Any:
    """An int or float within the language's magnitude, else the step fails. The generated code
    hands it what arithmetic and sums make, which Python never makes a bool."""
    if LOWEST <= value <= MAX_INT:
        return value
    raise Failed


def divide_by(a: Any, b: int) -> Any:
    """``a / b`` of a number and a positive int, as the language divides: an int when exact."""
    if type(a) is int and a % b == 0:
        return a // b
    return a / b


def add_up(numbers: list) -> Any:
    """A list of numbers added in order (a float's sum as the language's ``sum`` makes it)."""
    total = 0
    for number in numbers:
        total += number
    return total


def sized(items: Any) -> Any:
    """A list or string made by an expression, within the size limit."""
    if len(items) > MAX_COLLECTION:
        raise Failed
    return items


def function(run: Any, params: int = 1) -> FunctionValue:
    """A lambda of generated code as the value the built-ins take."""
    if params == 1:
        return FunctionValue(("x",), lambda args: run(args[0]))
    return FunctionValue(tuple(f"x{i}" for i in range(params)), lambda args: run(*args))


def index(value: Any) -> int:
    """An index or a slice's bound: an int (Python takes a bool for one; the language does not)."""
    if type(value) is int:
        return value
    raise Failed


def top(pile: list) -> int | None:
    return pile[-1] if pile else None


def bottom(pile: list) -> int | None:
    return pile[0] if pile else None


def seat(value: Any) -> int:
    """The acting seat where there may be none (the setup): none fails."""
    if value is None:
        raise Failed
    return value


def seat_of(value: Any, players: int) -> int:
    """A flow step's seat: a seat's index, or a number taken round the table."""
    if value is None or value is True or value is False:
        raise Failed
    return value % players


# The language's own comparisons, for operands that may be bools (``True < 2`` holds in Python,
# and fails in the language).
compared = COMPARISONS

__all__ = ["Failed", "fail", "truth", "number", "divide_by", "add_up", "sized", "function", "divide", "inclusive_range", "text_of",
           "negate", "add", "subtract", "multiply", "floor_divide", "modulo", "compared", "map_key",
           "index", "top", "bottom", "seat", "seat_of", "below", "shuffled",
           "grid_cards", "grid_top", "grid_bottom", "grid_size", "grid_empty", "slots", "rows", "cols", "lines",
           "grid_put", "grid_put_at"]


# -- grids (``engine/grids.py``): a grid's pile holds a card id or None in each slot, in reading
# order; slots past the list's end are empty. What expressions read skips the empty slots.

def grid_cards(pile: list) -> list[int]:
    return [c for c in pile if c is not None]


def grid_top(pile: list) -> int | None:
    for c in reversed(pile):
        if c is not None:
            return c
    return None


def grid_bottom(pile: list) -> int | None:
    for c in pile:
        if c is not None:
            return c
    return None


def grid_size(pile: list) -> int:
    return len(pile) - pile.count(None)


def grid_empty(pile: list) -> bool:
    return pile.count(None) == len(pile)


def slots(pile: list, size: int) -> list:
    """Every slot, in reading order: a card or None."""
    return pile + [None] * (size - len(pile))


def rows(pile: list, size: int, cols: int) -> list[list]:
    every = slots(pile, size)
    return [every[r:r + cols] for r in range(0, size, cols)]


def cols(pile: list, size: int, cols: int) -> list[list]:
    return [list(column) for column in zip(*rows(pile, size, cols))]


def lines(pile: list, size: int, cols_: int) -> list[list]:
    return rows(pile, size, cols_) + cols(pile, size, cols_)


def grid_put(pile: list, card: int, size: int) -> None:
    """A card in the first empty slot (``grids.put_in``): none empty fails."""
    pile[:] = slots(pile, size)
    try:
        pile[pile.index(None)] = card
    except ValueError:
        raise Failed from None


def grid_put_at(pile: list, at: Any, card: int, size: int) -> int | None:
    """A card at a slot (``grids.put_at``); the card that was there, or None."""
    if type(at) is not int or not 0 <= at < size:
        raise Failed
    pile[:] = slots(pile, size)
    displaced, pile[at] = pile[at], card
    return displaced


# -- effects on the lean state ------------------------------------------------------------------
# ``s.zones`` holds every zone's piles, in the zones' order.

def lift(s: Any, card: int) -> None:
    """Take a card out of whichever pile holds it (its pile was not known where it was read)."""
    if type(card) is not int:
        raise Failed
    for zone in s.zones:
        for pile in zone:
            if card in pile:
                pile.remove(card)
                return


def lift_in_grids(s: Any, card: int, grids: tuple[int, ...]) -> None:
    """``lift`` in a game with grids: a card taken out of a grid leaves its slot empty."""
    if type(card) is not int:
        raise Failed
    for z, zone in enumerate(s.zones):
        for pile in zone:
            if card in pile:
                if z in grids:
                    pile[pile.index(card)] = None
                else:
                    pile.remove(card)
                return


def put_in_place(s: Any, place: int, card: int, bottom: bool, grid_sizes: dict[int, int]) -> None:
    """A card onto a place (``zone << 14 | pile``): in a grid, to its first empty slot."""
    zone = place >> 14
    pile = s.zones[zone][place & 16383]
    if zone in grid_sizes:
        grid_put(pile, card, grid_sizes[zone])
    elif bottom:
        pile.insert(0, card)
    else:
        pile.append(card)


def card_slot(s: Any, card: Any, grids: tuple[int, ...]) -> int | None:
    """A card's slot in the grid that holds it, or None (``grids.card_slot``)."""
    if type(card) is not int:
        raise Failed
    for z in grids:
        for pile in s.zones[z]:
            if card in pile:
                return pile.index(card)
    return None


def deal(s: Any, source: list, zone: int, per_owner: int, first: int, rounds: int, face: int,
         grid_size: int | None = None) -> None:
    """``Game.deal``: the top card of ``source`` to each seat's pile of ``zone`` in turn from
    ``first``, ``rounds`` times; onto a grid zone (``grid_size`` slots), to its first empty slot."""
    piles, up, players = s.zones[zone], s.up, s.players
    count = rounds * players
    if grid_size is None and 0 < count <= len(source):      # enough cards: each seat's taken at once
        dealt = source[:-count - 1:-1]      # the top card first
        del source[-count:]
        for k in range(players):
            piles[(first + k) % players * per_owner] += dealt[k::players]
        for card in dealt:
            up[card] = face
        return
    for _ in range(rounds):
        for k in range(players):
            if not source:
                raise Failed
            card = source.pop()
            pile = piles[(first + k) % players * per_owner]
            if grid_size is None:
                pile.append(card)
            else:
                grid_put(pile, card, grid_size)
            up[card] = face


def flip(s: Any, cards: list, face: int | None) -> None:
    for card in cards:
        if type(card) is not int:
            raise Failed
        s.up[card] = (1 - s.up[card]) if face is None else face


def roll(s: Any, which: Any, faces: int, keep_sorted: bool) -> None:
    """``roll`` of the table's dice."""
    s.dice = thrown(s, s.dice, which, faces, keep_sorted)


def roll_cup(s: Any, owner: int, which: Any, faces: int, keep_sorted: bool) -> None:
    """``roll`` of a seat's cup: the cup replaced (clones share the old one), and no longer shown."""
    s.dice[owner] = thrown(s, s.dice[owner], which, faces, keep_sorted)
    if owner in s.dice_shown:
        s.dice_shown = [seat for seat in s.dice_shown if seat != owner]


def thrown(s: Any, dice: list, which: Any, faces: int, keep_sorted: bool) -> list:
    """``dice_effects.thrown``: a new list of ``dice`` with the dice showing the values ``which``
    gives thrown again, drawing from ``s.rng`` as the reference does."""
    kept = list(dice)
    for value in (which if isinstance(which, list) else [which]):
        if value not in kept:
            raise Failed
        kept.remove(value)
    if len(kept) < len(dice):
        faces_drawn, s.rng = belows(s.rng, len(dice) - len(kept), faces)
        kept += [face + 1 for face in faces_drawn]
    return sorted(kept) if keep_sorted else kept


def seat_number(value: Any, players: int) -> int:
    """``dice_effects.seat_number`` of a value that is no seat: an int taken round the table."""
    if type(value) is not int:
        raise Failed
    return value % players


def reveal_dice(s: Any, whose: Any, numbers: bool) -> None:
    """``reveal_dice``: the cups of a seat or a list of seats shown (``numbers``: given as ints
    taken round the table, else as seats' indexes)."""
    shown = set(s.dice_shown)
    for seat in (whose if isinstance(whose, list) else [whose]):
        if type(seat) is not int:
            raise Failed
        shown.add(seat % s.players if numbers else seat)
    s.dice_shown = sorted(shown)


def choices(options: Any) -> list:
    """The list a ``choose_random`` draws from: a list, not empty."""
    if not isinstance(options, (list, tuple)) or not options:
        raise Failed
    return list(options)


def stored(value: Any, levels: int = MAX_VALUE_DEPTH) -> Any:
    """The copy of a value a variable keeps, within the limits of its size and depth."""
    if not isinstance(value, (list, dict)):
        return value
    return stored_copy(value, "", levels)


def add_to(old: Any, new: Any, levels: int = MAX_VALUE_DEPTH) -> Any:
    """What ``add`` keeps: a list with the new items, or the sum of two numbers."""
    if old is None:
        return stored(new, levels)
    if isinstance(old, list):
        return stored(old + (new if isinstance(new, list) else [new]), levels)
    if isinstance(old, bool) or not isinstance(old, (int, float)) or isinstance(new, bool):
        raise Failed
    return old + new


def set_at(container: Any, index: Any, new: Any, add: bool) -> None:
    """``set``/``add`` of one place of a list or map (``"sheet[row]"``)."""
    if isinstance(container, dict):
        old = container.get(index) if add else None
        if index not in container and len(container) >= MAX_COLLECTION:
            raise Failed
    elif isinstance(container, list) and isinstance(index, int) and -len(container) <= index < len(container):
        old = container[index]
    else:
        raise Failed
    levels = MAX_VALUE_DEPTH - 1
    container[index] = add_to(old, new, levels) if add else stored(new, levels)


def log_length(fixed: int, values: list) -> None:
    """A log line's values written as the line writes them, within its length."""
    out: list[str] = []
    left = [MAX_COLLECTION - fixed]
    if left[0] < 0:
        raise Failed
    for value in values:
        show_in_line(value, out, left)


def higher(rank: Any, best: Any) -> bool:
    """A trick card's rank against the best so far: two numbers."""
    if not (isinstance(rank, (int, float)) and isinstance(best, (int, float))) or isinstance(rank, bool) \
            or isinstance(best, bool):
        raise Failed
    return rank > best


def count_of(value: Any) -> int:
    """``flow.rounds``: an int."""
    if type(value) is not int:
        raise Failed
    return value


def rounds_cap(value: Any) -> int:
    """``flow.max_rounds``: an int from 1 to the limit."""
    if type(value) is not int or not 1 <= value <= MAX_ROUNDS:
        raise Failed
    return value


def score_of(value: Any) -> Any:
    """A score or tie-break: a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Failed
    return value


def team_number(value: Any) -> int:
    """``teams.of``: a team from 0 to 63."""
    team = int(value)
    if not 0 <= team < MAX_PLAYERS:
        raise Failed
    return team


def pile_count(value: Any) -> int:
    """A zone's ``piles:``: at least one."""
    count = int(value)
    if count < 1:
        raise Failed
    return count


def card_subsets(cards: list[int]) -> list[list[int]]:
    """Every non-empty sub-collection of distinct cards, smallest first, each in the order of the
    cards' ids: ``moves.sub_collections`` of cards, without its texts."""
    ordered = sorted(cards)
    return [list(chosen) for size in range(1, len(ordered) + 1) for chosen in combinations(ordered, size)]


SIGNAL_ORDER = ("end_game", "end_round", "end_phase", "end_turn")


def strongest(signals: list[str]) -> str:
    """The flow signal handled first of those raised (the others are dropped, as ``flow.settle``
    drops them)."""
    return min(signals, key=SIGNAL_ORDER.index)
