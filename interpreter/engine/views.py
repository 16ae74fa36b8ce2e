"""What one seat may see.

A view is plain JSON-ready data: the flow position, the variables, the dice (with dice per seat,
each seat's cup, a die not seen being ``None``), and each zone with the cards this seat may see (a
hidden card is ``None``, so counts stay known; an empty slot of a grid is ``""``, and ``grids``
gives each grid zone's rows and columns). Nothing in a view depends on a card or die the seat may
not see.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from . import grids, tricks
from .context import Ctx, active
from .legal import legal_moves
from .moves import show
from .state import State
from .values import Card, ZoneRef, check_depth, to_json
from .where import in_game

if TYPE_CHECKING:
    from ..expr.runtime import Compiled
    from .game import Game
    from .moves import Move

EMPTY_SLOT = ""      # an empty slot of a grid, where a hidden card is None


def card_visible(game: Game, state: State, zone: str, owner: int | None, pile: list[int], at: int,
                 seat: int | None) -> bool:
    """May ``seat`` (None: a spectator) see the card at position ``at`` of this pile?"""
    rules = game.zones[zone]
    if state.over and zone in shown_at_showdown(game, state):
        return pile[at] is not None
    if pile[at] not in state.face_up or rules.visible_to == "none":
        return False
    if rules.top_only and at != len(pile) - 1:
        return False
    if rules.visible_to in ("owner", "others"):
        return seat_sees(game, state, rules.per, rules.visible_to, owner, seat)
    return True


def hidden_in_pile(game: Game, state: State, zone: str, owner: int | None, pile: list[int],
                   seat: int | None) -> list[int]:
    """The positions of the pile's cards that ``seat`` may not see (``card_visible`` false; an empty
    slot of a grid holds none), in order: what the zone's rules say worked out once for the pile."""
    rules = game.zones[zone]
    if state.over and zone in shown_at_showdown(game, state):
        return []
    if rules.visible_to == "none" or rules.visible_to in ("owner", "others") and not seat_sees(
            game, state, rules.per, rules.visible_to, owner, seat):
        return [k for k, card in enumerate(pile) if card is not None]
    face_up = state.face_up
    if rules.top_only:
        last = len(pile) - 1
        return [k for k, card in enumerate(pile) if card is not None and (k != last or card not in face_up)]
    return [k for k, card in enumerate(pile) if card is not None and card not in face_up]


def seat_sees(game: Game, state: State, per: str, visible_to: str, owner: int | None, seat: int | None) -> bool:
    """May ``seat`` see an owned pile seen by its owner only (``visible_to: owner``) or by every
    seat but its owner (``others``)? A spectator (None) sees neither: it is what every seat sees."""
    if seat is None or owner is None:
        return False
    owns = owner == (game.team_of(state, seat) if per == "team" else seat)
    return owns if visible_to == "owner" else not owns


def view(game: Game, state: State, seat: int | None, *, with_moves: bool = True) -> dict:
    """Everything ``seat`` may see now (``None``: what every seat may see); with ``with_moves``,
    the texts of its legal moves too (``moves``)."""
    table = game.card_table(state.players)
    zones: dict[str, list[list]] = {}
    for name, piles in state.zones.items():
        zones[name] = []
        for i, pile in enumerate(piles):        # what the seat may not see, worked out once a pile
            hidden = hidden_in_pile(game, state, name, game.pile_owner(state, name, i), pile, seat)
            if len(hidden) == len(pile):
                shown_pile: list[str | None] = [None] * len(pile)
            else:
                shown_pile = [EMPTY_SLOT if c is None else None if k in hidden else table[c].label
                              for k, c in enumerate(pile)]
            zones[name].append(shown_pile)
    out = {
        "game": game.name, "seat": seat, "players": state.players, "round": state.round,
        "phase": game.phase_names[state.phase], "current": state.current, "over": state.over,
        "vars": to_json({k: v for k, v in state.vars.items() if not k.startswith("$")}),
        "seat_vars": to_json(state.seat_vars), "team_vars": to_json(state.team_vars),
        "zones": zones, "pile_names": {name: pile_names(game, state, name) for name in state.zones},
        "dice": dice_seen(game, state, seat),
        "grids": {name: list(cast("tuple[int, int]", grids.shape(game, name)))
                  for name in state.zones if grids.shape(game, name)},
    }
    out["shown"] = shown(game, state)
    out["marks"] = seat_marks(game, state)
    # The labels of the cards that variables and view lines hold (public values, as the variables are).
    out["card_labels"] = {str(c): table[c].label
                          for c in _held_cards([out["vars"], out["seat_vars"], out["team_vars"], out["shown"]])}
    out["teams"] = [game.team_of(state, s) for s in range(state.players)] if game.teams is not None else None
    if game.tricks is not None:
        def visible(zone, owner, k):
            return card_visible(game, state, zone, owner, game.pile(state, ZoneRef(zone, owner)), k, seat)
        out["tricks"] = tricks.view_of(game, state, seat, visible)
    if with_moves and seat is not None and not state.over:
        out["moves"] = [m.text for m in legal_moves(game, state, seat)]
    return out


def dice_seen(game: Game, state: State, seat: int | None) -> list:
    """The dice ``seat`` sees: the table's dice, or with dice per seat each cup, a die not seen as
    ``None`` (so each cup's size stays known)."""
    if game.dice_per != "seat":
        return list(state.dice)
    return [list(cup) if cup_visible(game, state, owner, seat) else [None] * len(cup)
            for owner, cup in enumerate(state.dice)]


def dice_cups(dice: list) -> list[list] | None:
    """A view's dice as cups (one list per seat, a die not seen being None) when each seat has its
    own, else None: they are then the table's, a flat list of values."""
    return dice if dice and isinstance(dice[0], list) else None


def cup_visible(game: Game, state: State, owner: int, seat: int | None) -> bool:
    """May ``seat`` (None: a spectator) see the values of ``owner``'s cup?"""
    if game.dice_visible_to == "all" or owner in state.dice_shown:
        return True
    if seat is None:
        return False
    return seat == owner if game.dice_visible_to == "owner" else game.dice_visible_to == "others" and seat != owner


def shown_at_showdown(game: Game, state: State) -> frozenset:
    """The zones whose cards everyone sees now: once a hand is over (``state.over``: the game's
    end, or a hand's end kept to be looked at), the game's ``showdown`` zones when its ``when``
    holds there."""
    if not state.over or not game.showdown_zones:
        return frozenset()
    if game.showdown_when is not None:
        with active(game, state):
            try:
                if not game.showdown_when(Ctx(game, state), {}):
                    return frozenset()
            except Exception as error:
                raise in_game(error, game, state, "the showdown was worked out") from None
    return frozenset(game.showdown_zones)


def score_parts(game: Game, state: State) -> dict[str, list]:
    """The game's named parts of a hand's score (``scoring.parts``), each worked out for every
    seat where ``state`` stands (a hand's end), as JSON; empty when the game names none."""
    if not game.score_parts:
        return {}
    with active(game, state):
        try:
            return {label: [to_json(part(Ctx(game, state, seat), {})) for seat in range(state.players)]
                    for label, part in game.score_parts.items()}
        except Exception as error:
            raise in_game(error, game, state, "the hand's score parts were worked out") from None


def _held_cards(data: Any, out: list[int] | None = None) -> list[int]:
    """The ids of the cards in stored values written as JSON (``{"$card": id}``), in order."""
    out = [] if out is None else out
    if isinstance(data, dict) and "$card" in data:
        out.append(data["$card"])
        return out
    for item in (data.values() if isinstance(data, dict) else data):
        if isinstance(item, (list, dict)):      # a number or a text holds no card
            _held_cards(item, out)
    return out


def shown(game: Game, state: State) -> dict:
    """The game's ``view:`` lines: labelled public values, once and per seat."""
    with active(game, state):
        try:
            return {
                "game": {label: _line(label, e, Ctx(game, state)) for label, e in game.shown["game"].items()},
                "seat": {label: [_line(label, e, Ctx(game, state, s)) for s in range(state.players)]
                         for label, e in game.shown["seat"].items()},
            }
        except Exception as error:
            raise in_game(error, game, state, "the game's view lines were shown") from None


def seat_marks(game: Game, state: State) -> list[list[str]]:
    """For each seat, the game's ``view: seat_marks`` that hold for it (``dealer``), in order."""
    if not game.seat_marks:
        return [[] for _ in range(state.players)]
    with active(game, state):
        try:
            return [[mark for mark, holds in game.seat_marks.items() if holds(Ctx(game, state, seat), {})]
                    for seat in range(state.players)]
        except Exception as error:
            raise in_game(error, game, state, "the seats' marks were shown") from None


def _line(label: str, compiled: Compiled, ctx: Ctx) -> Any:
    """One view line's value as JSON, no deeper than a variable's may be (``MAX_VALUE_DEPTH``)."""
    return to_json(check_depth(compiled(ctx, {}), f"view: '{label}' nests", compiled.pos))


def pile_names(game: Game, state: State, zone: str) -> list[str]:
    """How each pile of a zone is shown: its owner (P1, T1) and its number when there are several."""
    piles = state.zones[zone]
    per_owner = len(piles) // game.owners(state, zone)
    prefix = {"game": "", "seat": "P", "team": "T"}[game.zones[zone].per]
    names = []
    for i in range(len(piles)):
        owner = f"{prefix}{i // per_owner + 1}" if prefix else ""
        number = f"#{i % per_owner + 1}" if per_owner > 1 else ""
        names.append(f"{owner}{number}")
    return names


def move_text(game: Game, move: Move, viewer: int | None) -> str:
    """A move as ``viewer`` may read it (None: a spectator): its full text for the seat that
    played it, else its public form, each private parameter replaced by what everyone saw
    (``discard (3 cards)``, ``dealer_discard (a card)``)."""
    definition = game.moves.get(move.name)
    if viewer == move.seat or definition is None or not any(p.private for p in definition.params):
        return move.text
    words = [move.name]
    for param, value in zip(definition.params, move.args):
        if value is None:
            continue
        word = public_word(value) if param.private else show(value)
        if word != "":
            words.append(word)
    return " ".join(words)


def public_word(value: Any) -> str:
    """What every seat saw of a private value: ``(3 cards)``, ``(a card)``, ``(hidden)``."""
    if isinstance(value, (list, tuple)):
        noun = "card" if value and all(isinstance(v, Card) for v in value) else "value"
        return f"({len(value)} {noun}{'' if len(value) == 1 else 's'})"
    return "(a card)" if isinstance(value, Card) else "(hidden)"
