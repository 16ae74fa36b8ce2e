"""Who may act and which moves are legal: the listing of each move's parameter values, the
move a text names.

Listing changes nothing: each move's conditions are checked as soon as the choices they read
are made, and the move's text is built as the choices are made.
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ..errors import IllegalMove
from ..expr.runtime import MEMO, STEPS, fault
from ..limits import MAX_EVAL_STEPS, MAX_MOVE_CHOICES
from . import interrupts, listing_cache
from .choices import choices_of
from .context import Ctx, evaluating
from .moves import Move, show
from .state import State
from .where import in_game, seat_name

if TYPE_CHECKING:
    from .game_parts import MoveDef


class _Enough(Exception):
    """Raised when the one legal move asked for is found: the listing stops at once."""


def acting_seats(game: Any, state: State) -> list[int]:
    """The seats that may move now: the seat whose turn it is, or every seat in free play."""
    if state.over:
        return []
    if state.current is not None:
        return [state.current]
    evaluating.pairs.append((game, state))
    try:
        return [s for s in range(state.players) if _legal(game, state, s, first_only=True)]
    finally:
        evaluating.pairs.pop()


def has_move(game: Any, state: State, seat: int) -> bool:
    """Whether ``seat`` has a legal move now: the listing stops at the first one found."""
    if state.over:
        return False
    evaluating.pairs.append((game, state))
    try:
        return bool(_legal(game, state, seat, first_only=True))
    finally:
        evaluating.pairs.pop()


def legal_moves(game: Any, state: State, seat: int | None = None) -> list[Move]:
    """The moves ``seat`` (default: the seat to act) may play now, unique, in a fixed order: the
    order of the phase's move list, then of each parameter's list of values."""
    if state.over:
        return []
    if seat is None:
        seats = acting_seats(game, state)
        if not seats:
            return []
        seat = seats[0]
    evaluating.pairs.append((game, state))      # ``with active(game, state)``, without its object
    try:
        return _legal(game, state, seat)
    finally:
        evaluating.pairs.pop()


def legal_moves_as_asked(game: Any, state: State, seat: int) -> list[Move]:
    """``legal_moves(game, state, seat)`` right after ``acting_seats(game, state)`` asked every
    seat, nothing having changed since (the table: the seat that acts next is listed). The same
    moves; the parts of the state the seat's cached listings read are not compared again."""
    if state.over:
        return []
    evaluating.pairs.append((game, state))
    try:
        return _legal(game, state, seat, compared=True)
    finally:
        evaluating.pairs.pop()


def _legal(game: Any, state: State, seat: int, first_only: bool = False, compared: bool = False) -> list[Move]:
    """The legal moves of ``seat``; with ``first_only``, only the first one found (or none).
    ``compared``: see ``legal_moves_as_asked``."""
    if state.current is not None and seat != state.current:
        return []
    mode = listing_cache.MODE.get()     # listing_cache.enabled, written out: asked on every listing
    if mode == "all" or mode == "free" and state.current is None:
        try:
            return _cached(game, state, seat, first_only, compared)
        except Exception:
            # The moves listed afresh ran with fewer results remembered than in a whole listing,
            # so spent more of the work budget, and called defined functions deeper: a limit met
            # here may not be met there. The whole listing says what happens.
            pass
    return _uncached(game, state, seat, first_only)


def _uncached(game: Any, state: State, seat: int, first_only: bool) -> list[Move]:
    found: dict[str, Move] = {}
    listing = _Listing(seat, Ctx(game, state, seat), found, first_only)
    # Nothing changes while the moves are listed: each defined function's result for the same
    # arguments is worked out once (`pairs`, `open_rows`...), whatever move or parameter asks.
    # One env serves every move: each listing leaves it as it found it (a parameter's value is
    # taken out after its loop) and refills the budget before each evaluation.
    env = {MEMO: {}, STEPS: [MAX_EVAL_STEPS]}
    move = None
    try:
        for name in _names(game, state, first_only):
            move = game.moves[name]
            listing.start(name, move)
            _choose(listing, env, 0, (), name, None)
    except _Enough:
        pass
    except Exception as error:
        raise _placed(error, game, state, seat, move) from None
    return list(found.values())


def _cached(game: Any, state: State, seat: int, first_only: bool, compared: bool = False) -> list[Move]:
    """``_legal`` through the seat's cache (listing_cache.py): in the same order, each move's
    moves found before are taken while what they read is unchanged, the others listed. (The
    texts of two moves never meet: each begins with its move's name.)"""
    cache = listing_cache.for_seat(game, state, seat, compare=not compared)
    entries = cache.entries
    listing = None
    out: list[Move] = []
    for name in _names(game, state, first_only):
        entry = entries.get(name)       # ``cache.get``, written out: asked for every move name
        moves = None if entry is None or not (entry[0] or first_only) else entry[1]
        if moves is None:
            if listing is None:
                listing = _Listing(seat, Ctx(game, state, seat), {}, first_only)
                env = {MEMO: {}, STEPS: [MAX_EVAL_STEPS]}
            found = listing.found = {}
            move = game.moves[name]
            listing.start(name, move)
            try:
                _choose(listing, env, 0, (), name, None)
            except _Enough:
                cache.put(name, list(found.values()), complete=False)
                return list(found.values())
            moves = list(found.values())
            cache.put(name, moves, complete=True)
        if first_only and moves:
            return moves[:1]
        out += moves
    return out


def _names(game: Any, state: State, first_only: bool) -> list[str] | tuple[str, ...]:
    names = interrupts.move_names(game, state)
    if first_only:      # any move will do: those without parameters are the quickest to check
        return _quickest_first(game, tuple(names))
    return names


# For each game, its lists of moves in that order (a phase's list, or an interrupt's).
_orders: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def _quickest_first(game: Any, names: tuple[str, ...]) -> tuple[str, ...]:
    orders = getattr(game, "move_orders", None)     # a Game keeps them; another host, here
    if orders is None:
        orders = _orders.get(game)
        if orders is None:
            orders = _orders[game] = {}
    order = orders.get(names)
    if order is None:
        order = orders[names] = tuple(sorted(names, key=lambda name: len(game.moves[name].params)))
    return order


def _placed(error: Exception, game: Any, state: State, seat: int, move: MoveDef | None) -> Exception:
    # An error of its own (a parameter's list too long...) is placed at the move.
    error = fault(error, move.pos if move is not None else None)
    return in_game(error, game, state, f"the legal moves of {seat_name(seat)} were listed")


class _Listing:
    """What one move's enumeration needs at every depth, gathered once; one serves the moves of
    a listing in turn (``start``)."""

    __slots__ = ("name", "seat", "params", "stages", "ctx", "found", "first_only", "left")

    def __init__(self, seat: int, ctx: Ctx, found: dict, first_only: bool = False):
        self.seat, self.ctx, self.found, self.first_only = seat, ctx, found, first_only

    def start(self, name: str, move: Any) -> None:
        self.name, self.params, self.stages = name, move.params, move.stages
        self.left = MAX_MOVE_CHOICES        # parameter values that may still be tried


def _choose(listing: _Listing, env: dict, depth: int, args: tuple, text: str, word: str | None) -> None:
    """Add to ``listing.found`` every assignment of the parameters from ``depth`` on for which
    the move's conditions hold; each domain is computed with the earlier choices, and each
    condition checked as soon as it can be. One ``env`` is filled in place: no dict is copied
    per candidate, and the values chosen so far are also kept in order in ``args``. Its work
    budget is refilled before each evaluation, which then runs the expression's bare ``body``.

    The move's text is built as the choices are made (``notation`` of the move's name and
    ``args``): ``text`` has the choices before the last, ``word`` the last one shown, when known."""
    ctx, budget = listing.ctx, env[STEPS]
    for check in listing.stages[depth]:
        budget[0] = MAX_EVAL_STEPS
        if not check.body(ctx, env):
            return
    if depth and args[-1] is not None:
        word = show(args[-1]) if word is None else word
        if word:
            text = text + " " + word
    params = listing.params
    if depth == len(params):
        if text not in listing.found:
            listing.found[text] = Move(listing.seat, listing.name, args, text)
            if listing.first_only:
                raise _Enough
        return
    param = params[depth]
    budget[0] = MAX_EVAL_STEPS
    values, shown = choices_of(listing, param, param.domain.body(ctx, env))
    key = param.name
    for i, value in enumerate(values):
        env[key] = value
        _choose(listing, env, depth + 1, args + (value,), text, None if shown is None else shown[i])
    env.pop(key, None)


def find_move(game: Any, state: State, text: str, seat: int | None = None) -> Move:
    """The legal move written as ``text`` (exactly, or by a unique prefix)."""
    moves = legal_moves(game, state, seat)
    wanted = " ".join(text.split()).lower()
    exact = [m for m in moves if m.text.lower() == wanted]
    if exact:
        return exact[0]
    prefixed = [m for m in moves if _begins(m.text.lower(), wanted)] if wanted else []
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        shown = ", ".join(m.text for m in prefixed[:6]) + (", ..." if len(prefixed) > 6 else "")
        raise IllegalMove(f"'{text}' could be any of: {shown}", hint="type more of the move")
    if not moves:
        raise IllegalMove(f"'{text}' is not legal: there is no move to make now")
    names = sorted({m.name for m in moves})
    hint = "legal now: " + ", ".join(names)
    raise IllegalMove(f"'{text}' is not a legal move now", hint=hint)


def _begins(text: str, wanted: str) -> bool:
    """Is ``wanted`` a beginning of ``text`` that cuts no number (``bid 18`` never means ``bid 180``)?"""
    cut = len(wanted)
    return text.startswith(wanted) and not (wanted[-1].isdigit() and text[cut:cut + 1].isdigit())


__all__ = ["acting_seats", "has_move", "legal_moves", "legal_moves_as_asked", "find_move"]
