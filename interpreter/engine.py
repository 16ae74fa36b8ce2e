"""The engine: who may act, which moves are legal, applying a move, scores and ranking.

Every entry point makes the state ``active`` so that members of seats and zones read it.
A move is checked against the legal moves before anything changes, so an illegal move leaves
the state exactly as it was.
"""
from __future__ import annotations

from typing import Any

from . import flow, interrupts, rng
from .context import Ctx, active
from .expr.compile import MEMO, STEPS
from .errors import EvalError, IllegalMove, LimitError
from .limits import MAX_EVAL_STEPS, MAX_MOVES_PER_GAME
from .moves import Move, show, sub_collections
from .state import Presets, State
from .values import ZoneRef, copy_value


def new_state(game: Any, players: int | None = None, seed: int = 0, stack: dict | None = None) -> State:
    """A game at its start: variables set, decks in their zones, setup effects done.

    ``stack`` (for tests) maps zones (``ZoneRef``) to card ids, first = top: after each shuffle of
    such a zone while the game is set up, these cards lie on top in this order."""
    players = game.default_players if players is None else players
    if not game.min_players <= players <= game.max_players:
        raise IllegalMove(f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}")
    state = State(players=players, rng=rng.seed_state(seed), presets=Presets(stacks=stack) if stack else None)
    variables = game.variables
    state.vars = copy_value(variables.get("game", {}))
    state.seat_vars = [copy_value(variables.get("seat", {})) for _ in range(players)]
    state.dice = [1] * game.dice_count
    with active(game, state):
        game.allocate_zones(state, ("game", "seat"))
        _place_teams(game, state)
        _place_decks(game, state)
        flow.start_match(game, state)
    if stack:
        unshuffled = [str(zone) for zone in stack if zone not in state.presets.stacked]
        if unshuffled:
            verb = "is" if len(unshuffled) == 1 else "are"
            raise EvalError(f"stack: {', '.join(unshuffled)} {verb} not shuffled while the game is set up")
    state.presets = None
    return state


def _place_teams(game: Any, state: State) -> None:
    """Teams from the game's ``teams.of``; without it, each seat is a team of its own."""
    if game.teams is not None:
        ctx = Ctx(game, state)
        state.vars["$teams"] = [int(game.teams(ctx, {"seat": i})) for i in range(state.players)]
    count = max(game.team_of(state, s) for s in range(state.players)) + 1
    state.team_vars = [copy_value(game.variables.get("team", {})) for _ in range(count)]
    game.allocate_zones(state, ("team",))


def _place_decks(game: Any, state: State) -> None:
    table = game.card_table(state.players)
    for card in table:
        deck = game.spec.data["decks"][card.attrs["deck"]]
        zone = deck.get("zone")
        if zone is None:
            continue
        owner = card.attrs["owner"]
        seat = owner.index if owner is not None and game.zones[zone].per == "seat" else None
        game.pile(state, ZoneRef(zone, seat)).append(card.id)
        if game.zones[zone].face == "up":
            state.face_up.add(card.id)


def acting_seats(game: Any, state: State) -> list[int]:
    """The seats that may move now: the seat whose turn it is, or every seat in free play."""
    if state.over:
        return []
    if state.current is not None:
        return [state.current]
    with active(game, state):
        return [s for s in range(state.players) if _legal(game, state, s, first_only=True)]


def has_move(game: Any, state: State, seat: int) -> bool:
    """Whether ``seat`` has a legal move now: the listing stops at the first one found."""
    if state.over:
        return False
    with active(game, state):
        return bool(_legal(game, state, seat, first_only=True))


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
    with active(game, state):
        return _legal(game, state, seat)


def _legal(game: Any, state: State, seat: int, first_only: bool = False) -> list[Move]:
    """The legal moves of ``seat``; with ``first_only``, only the first one found (or none)."""
    if state.current is not None and seat != state.current:
        return []
    ctx = Ctx(game, state, seat)
    found: dict[str, Move] = {}
    # Nothing changes while the moves are listed: each defined function's result for the same
    # arguments is worked out once (`pairs`, `open_rows`...), whatever move or parameter asks.
    memo: dict = {}
    names = interrupts.move_names(game, state)
    if first_only:      # any move will do: those without parameters are the quickest to check
        names = sorted(names, key=lambda name: len(game.moves[name].params))
    try:
        for name in names:
            move = game.moves[name]
            env = {MEMO: memo, STEPS: [MAX_EVAL_STEPS]}
            _choose(_Listing(name, seat, move.params, move.stages, ctx, found, first_only), env, 0, (), name, None)
    except _Enough:
        pass
    return list(found.values())


class _Enough(Exception):
    """Raised when the one legal move asked for is found: the listing stops at once."""


class _Listing:
    """What one move's enumeration needs at every depth, gathered once."""

    __slots__ = ("name", "seat", "params", "stages", "ctx", "found", "first_only")

    def __init__(self, name: str, seat: int, params: list, stages: list, ctx: Ctx, found: dict,
                 first_only: bool = False):
        self.name, self.seat, self.params, self.stages, self.ctx, self.found = name, seat, params, stages, ctx, found
        self.first_only = first_only


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
    domain = param.domain.body(ctx, env)
    if not isinstance(domain, list):
        raise EvalError(f"parameter '{param.name}' must range over a list, not {domain!r}")
    values, shown = sub_collections(domain) if param.kind == "subset_of" else (domain, None)
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
    prefixed = [m for m in moves if m.text.lower().startswith(wanted)] if wanted else []
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


def apply_move(game: Any, state: State, move: Move | str, seat: int | None = None, *, checked: bool = True) -> Move:
    """Play a move (a ``Move`` or its text); an illegal one raises and changes nothing.

    ``checked=False`` skips matching a ``Move`` against the legal moves: for callers (bots
    looking ahead) that took it from ``legal_moves`` of an equal state."""
    if state.over:
        raise IllegalMove("the game is over")
    if isinstance(move, str):
        move = find_move(game, state, move, seat)
    elif checked and move not in legal_moves(game, state, move.seat):
        raise IllegalMove(f"'{move.text}' is not a legal move for P{move.seat + 1} now")
    if state.moves >= MAX_MOVES_PER_GAME:
        raise LimitError(f"the game has not ended after {MAX_MOVES_PER_GAME} moves")
    with active(game, state):
        ctx = Ctx(game, state, move.seat)
        env = {p.name: a for p, a in zip(game.moves[move.name].params, move.args)}
        game.moves[move.name].run(ctx, env)
        state.moves += 1
        flow.settle(ctx)
    return move


def scores(game: Any, state: State) -> list:
    """Each seat's score (the game's ``scoring.score``), in seat order."""
    if game.score is None:
        return [0] * state.players
    with active(game, state):
        return [game.score(Ctx(game, state, s), {}) for s in range(state.players)]


def results(game: Any, state: State) -> list:
    """Each seat's result (``scoring.result``, e.g. relative to the average), else its score."""
    points = scores(game, state)
    if game.result is None:
        return points
    with active(game, state):
        return [game.result(Ctx(game, state, s), {"score": points[s], "scores": points})
                for s in range(state.players)]


def ranking(game: Any, state: State) -> list[int]:
    """Each seat's place, from 1; seats that tie on score and every tie-break share a place."""
    points = scores(game, state)
    with active(game, state):
        keys = [_rank_key(game, state, s, points[s]) for s in range(state.players)]
    places = []
    for s in range(state.players):
        places.append(1 + sum(1 for other in keys if other > keys[s]))
    return places


def _rank_key(game: Any, state: State, seat: int, score: Any) -> tuple:
    sign = 1 if game.score_order == "high" else -1
    ctx = Ctx(game, state, seat)
    breaks = tuple(sign * t(ctx, {}) for t in game.tiebreaks)
    return (sign * score,) + breaks


def winners(game: Any, state: State) -> list[int]:
    return [s for s, place in enumerate(ranking(game, state)) if place == 1]


def evaluate_hint(game: Any, state: State, seat: int) -> Any:
    with active(game, state):
        return game.hint(Ctx(game, state, seat), {})


__all__ = ["new_state", "acting_seats", "has_move", "legal_moves", "find_move", "apply_move", "scores", "results",
           "ranking", "winners", "evaluate_hint", "Move"]
