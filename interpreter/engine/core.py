"""The engine's operations: a new game, applying a move, scores and ranking (who may act and
which moves are legal: ``legal``).

Every entry point makes the state ``active`` so that members of seats and zones read it.
A move is checked against the legal moves before anything changes, so an illegal move leaves
the state exactly as it was.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import EvalError, IllegalMove, LimitError, OptionError, PresetError
from ..expr.ops import show
from ..limits import MAX_MOVES_PER_GAME, MAX_PLAYERS
from . import flow, rng
from .context import Ctx, active, evaluating
from .legal import acting_seats, find_move, has_move, legal_moves
from .moves import Move
from .state import Presets, State
from .values import ZoneRef, copy_value
from .where import in_game, seat_name

if TYPE_CHECKING:
    from .game import Game


def new_state(game: Game, players: int | None = None, seed: int = 0, stack: dict | None = None,
              presets: Presets | None = None) -> State:
    """A game at its start: variables set, decks in their zones, setup effects done.

    ``stack`` (for tests) maps zones (``ZoneRef``) to card ids, first = top: after each shuffle of
    such a zone while the game is set up, these cards lie on top in this order. ``presets`` fixes
    chance from the setup on (its ``stacks`` are the same as ``stack``); the fixed rolls and
    choices the setup leaves stay with the state."""
    players = game.default_players if players is None else players
    check_players(game, players)
    if stack:
        presets = presets or Presets()
        presets.stacks = {**presets.stacks, **stack}
    stack = presets.stacks if presets is not None else None
    if stack:
        _check_stack(game, players, stack)
    state = started(game, State(players=players, rng=rng.seed_state(seed), presets=presets))
    with active(game, state):
        try:
            place_zones(game, state)
            _place_decks(game, state)
            flow.start_match(game, state)
        except Exception as error:
            raise in_game(error, game, state, "the game was set up", "") from None
    if stack:
        assert state.presets is not None        # the stack came with presets
        unshuffled = [str(zone) for zone in stack if zone not in state.presets.stacked]
        if unshuffled:
            verb = "is" if len(unshuffled) == 1 else "are"
            raise PresetError(f"stack: {', '.join(unshuffled)} {verb} not shuffled while the game is set up")
    if presets is not None:
        presets.stacks = {}     # a stack is for the shuffles of the setup only
    state.presets = presets if presets is not None and presets.unused else None
    return state


def check_piles(game: Game) -> None:
    """The piles ``new_state`` makes, counted at load for every number of players the game
    allows: before a card is placed they depend only on the number of players, the options and
    the start values, so ``rules validate`` refuses too many (``limits.MAX_PILES``) at the
    ``piles:`` that passes the limit. A failure of another kind is left to ``new_state``."""
    for players in range(game.min_players, game.max_players + 1):
        state = started(game, State(players=players, rng=rng.seed_state(0)))
        with active(game, state):
            try:
                place_zones(game, state)
            except LimitError:
                raise
            except Exception:   # noqa: BLE001 - reported by new_state, with where it happened
                return


def started(game: Game, state: State) -> State:
    """``state`` with the start values of the variables and the dice."""
    variables = game.variables
    state.vars = copy_value(variables.get("game", {}))
    state.seat_vars = [copy_value(variables.get("seat", {})) for _ in range(state.players)]
    state.dice = ([[1] * game.dice_count for _ in range(state.players)] if game.dice_per == "seat"
                  else [1] * game.dice_count)
    state.dice_shown = []
    return state


def place_zones(game: Game, state: State) -> None:
    """Every zone's empty piles, and the teams (a zone per team has piles for each)."""
    game.allocate_zones(state, ("game", "seat"))
    _place_teams(game, state)


def check_players(game: Game, players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        raise OptionError(f"{game.name} is for {players_text(game)}, not {players}")


def players_text(game: Game) -> str:
    """How many play a game: ``1 player``, ``2 players``, ``2 to 8 players``."""
    low, high = game.min_players, game.max_players
    if low == high:
        return f"{low} player{'s' if low != 1 else ''}"
    return f"{low} to {high} players"


def _check_stack(game: Game, players: int, stack: dict) -> None:
    """A card is stacked once: named twice (in one zone or two), it would be in two places."""
    table = game.card_table(players)
    seen: set[int] = set()
    for zone, cards in stack.items():
        for card in cards:
            if card in seen:
                raise OptionError(f"stack: {table[card].label} is stacked twice",
                                  hint="each card is in one place; name another copy, or the card once")
            seen.add(card)


def _place_teams(game: Game, state: State) -> None:
    """Teams from the game's ``teams.of``; without it, each seat is a team of its own."""
    if game.teams is not None:
        ctx = Ctx(game, state)
        state.vars["$teams"] = [_team_number(game, int(game.teams(ctx, {"seat": i})), i) for i in range(state.players)]
    count = max(game.team_of(state, s) for s in range(state.players)) + 1
    state.team_vars = [copy_value(game.variables.get("team", {})) for _ in range(count)]
    game.allocate_zones(state, ("team",))


def _team_number(game: Any, team: int, seat: int) -> int:
    """A seat's team number, refused at ``teams.of`` when no table has so many teams (one is
    kept for each number up to the largest)."""
    if not 0 <= team < MAX_PLAYERS:
        raise LimitError(f"teams.of gives team {team} to {seat_name(seat)}; teams are numbered from 0 "
                         f"to {MAX_PLAYERS - 1}", game.teams.pos,
                         hint="number the teams from 0, as 'seat % 2' does for two teams")
    return team


def _place_decks(game: Game, state: State) -> None:
    table = game.card_table(state.players)
    for card in table:
        deck = game.spec.data["decks"][card.attrs["deck"]]
        zone = deck.get("zone")
        if zone is None:
            continue
        owner = card.attrs["owner"]
        seat = owner.index if owner is not None and game.zones[zone].per == "seat" else None
        pile = game.pile(state, ZoneRef(zone, seat))
        pile.append(card.id)
        # noted as Game.place notes it: the first deal then finds each card without a search
        state.places[card.id] = (pile, game.zones[zone].grid is not None)
        if game.zones[zone].face == "up":
            state.face_up.add(card.id)


def apply_move(game: Game, state: State, move: Move | str, seat: int | None = None, *, checked: bool = True) -> Move:
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
    definition = game.moves[move.name]
    names = definition.param_names
    ctx = Ctx(game, state, move.seat)
    env = dict(zip(names, move.args)) if names else {}
    number = state.moves + 1
    evaluating.pairs.append((game, state))      # ``with active(game, state)``, without its object
    try:
        definition.run(ctx, env)
        state.moves += 1
        flow.settle(ctx)
    except Exception as error:
        raise in_game(error, game, state, f"{seat_name(move.seat)} played '{move.text}'",
                      f"move {number}") from None
    finally:
        evaluating.pairs.pop()
    return move


def scores(game: Game, state: State) -> list:
    """Each seat's score (the game's ``scoring.score``), in seat order."""
    if game.score is None:
        return [0] * state.players
    with active(game, state):
        try:
            points = [game.score(Ctx(game, state, s), {}) for s in range(state.players)]
        except Exception as error:
            raise in_game(error, game, state, "the scores were counted") from None
    for seat, value in enumerate(points):
        if not _is_number(value):
            raise in_game(EvalError(f"the score of {seat_name(seat)} must be a number, not {show(value)}",
                                    game.score.pos), game, state, "the scores were counted")
    return points


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def results(game: Game, state: State) -> list:
    """Each seat's result (``scoring.result``, e.g. relative to the average), else its score."""
    points = scores(game, state)
    if game.result is None:
        return points
    with active(game, state):
        try:
            return [game.result(Ctx(game, state, s), {"score": points[s], "scores": points})
                    for s in range(state.players)]
        except Exception as error:
            raise in_game(error, game, state, "the results were counted") from None


def ranking(game: Game, state: State, points: list | None = None) -> list[int]:
    """Each seat's place, from 1; seats that tie on score and every tie-break share a place.
    ``points``: the seats' scores when the caller has them already (they are not worked out again)."""
    points = scores(game, state) if points is None else points
    with active(game, state):
        try:
            keys = [_rank_key(game, state, s, points[s]) for s in range(state.players)]
        except Exception as error:
            raise in_game(error, game, state, "the seats were ranked") from None
    places = []
    for s in range(state.players):
        places.append(1 + sum(1 for other in keys if other > keys[s]))
    return places


def _rank_key(game: Game, state: State, seat: int, score: float) -> tuple:
    sign = 1 if game.score_order == "high" else -1
    ctx = Ctx(game, state, seat)
    breaks = []
    for tiebreak in game.tiebreaks:
        value = tiebreak(ctx, {})
        if not _is_number(value):
            raise EvalError(f"the tie-break of {seat_name(seat)} must be a number, not {show(value)}", tiebreak.pos)
        breaks.append(sign * value)
    return (sign * score, *breaks)


def winners(game: Game, state: State) -> list[int]:
    return [s for s, place in enumerate(ranking(game, state)) if place == 1]


def evaluate_hint(game: Any, state: State, seat: int) -> Any:
    with active(game, state):
        try:
            return game.hint(Ctx(game, state, seat), {})
        except Exception as error:
            raise in_game(error, game, state, f"the bot hint was weighed for {seat_name(seat)}") from None


__all__ = ["new_state", "check_players", "acting_seats", "has_move", "legal_moves", "find_move", "apply_move", "scores", "results",
           "ranking", "winners", "evaluate_hint", "Move"]
