"""What happens at a table that the players are told of, worked out from the game's states: the
trick a move completed (who played what, who took it) and a hand's named score parts (the log's
lines at its end)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.context import Ctx, active
from ..engine.tricks import play_to_trick, played_by, trick_winner
from ..engine.values import Card
from ..engine.views import card_visible
from .render import cell_text

if TYPE_CHECKING:
    from ..engine.moves import Move
    from ..engine.state import State
    from ..engine.values import Seat


def hand_summary(parts: dict, hand: int, teams: list[int] | None) -> list[str]:
    """The log's lines for a hand's named score parts: one per seat (per team where there are
    teams), ``T1: high 1, low 0, game 1``."""
    if not parts:
        return []
    owners = hand_owners(len(next(iter(parts.values()))), teams)
    lines = [f"Hand {hand}:"]
    for name, seat in owners:
        lines.append(f"  {name}: " + ", ".join(f"{label} {cell_text(values[seat])}" for label, values in parts.items()))
    return lines


def hand_owners(players: int, teams: list[int] | None) -> list[tuple[str, int]]:
    """Who a hand's parts are shown for: each seat, or each team by its first seat."""
    if teams is None:
        return [(f"P{seat + 1}", seat) for seat in range(players)]
    firsts: dict[int, int] = {}
    for seat, team in enumerate(teams):
        firsts.setdefault(team, seat)
    return [(f"T{team + 1}", seat) for team, seat in sorted(firsts.items())]


def finished_trick(game: Any, before: State, after: State, move: Move) -> dict | None:
    """The trick ``move`` completed (``before`` and ``after`` the game's states): who played
    which card (as a spectator sees them) and who took it by the game's rules once the card
    played joins it; None when no trick was completed, or the move played no card."""
    trick = game.tricks.trick_ref
    had = game.pile(before, trick)
    if not had or all(card in game.pile(after, trick) for card in had):
        return None
    played = next((arg for arg in move.args if isinstance(arg, Card)), None)
    if played is None:
        return None
    with active(game, before):
        ctx = Ctx(game, before, move.seat)
        play_to_trick(ctx, played)
        winner = trick_winner(ctx)
        pile, table = game.pile(before, trick), game.card_table(before.players)
        plays = [[_index(played_by(ctx, table[card])),
                  table[card].label if card_visible(game, before, trick.name, None, pile, k, None) else None]
                 for k, card in enumerate(pile)]
    return {"plays": plays, "winner": None if winner is None else winner.index}


def _index(seat: Seat | None) -> int | None:
    return None if seat is None else seat.index
