"""What a move would score now, shown beside the choice that makes it (``score full house +28``).

Worked out for any game by playing the move on a copy of the game and reading the mover's score
before and after; only where that tells the mover nothing new: the score is one the mover may
watch live (``scores.py``), the move draws on no chance (the copy's random generator is where
it was) and brings no card into the mover's sight. Otherwise no preview is shown.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RulesError
from .scores import ScoreWatch, number_text

if TYPE_CHECKING:
    from ..engine.loaded import LoadedGame
    from ..engine.moves import Move
    from ..engine.state import State
    from .session import Session


def score_preview(session: Session, watch: ScoreWatch, view: dict, seat: int, move: Move) -> str | None:
    """``+28``, ``-3`` or ``+0``: how ``move`` changes ``seat``'s score now; None when that would
    tell more than the seat may know, or the move cannot be tried."""
    if not watch.live(view, seat):
        return None
    loaded, state = session.loaded, session.state
    copy = state.clone()
    try:
        before = loaded.scores(state)[seat]
        loaded.apply(copy, move, seat)
        after = loaded.scores(copy)[seat]
    except RulesError:
        return None
    if copy.rng != state.rng or _newly_seen(loaded, state, copy, seat):
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (before, after)):
        return None
    change = after - before
    return ("+" if change >= 0 else "") + number_text(change)


def move_previews(session: Session, watch: ScoreWatch, view: dict, seat: int, moves: list) -> list[str | None]:
    """``score_preview`` of each move, or all None when they would all score the same nothing
    (``+0``: a bid, a draw) and so tell the player nothing."""
    shown = [score_preview(session, watch, view, seat, move) for move in moves]
    return [None] * len(moves) if all(p in (None, "+0") for p in shown) else shown


def _newly_seen(loaded: LoadedGame, before: State, after: State, seat: int) -> bool:
    """Whether the seat would see a card after the move that it does not see now."""
    seen = _cards_seen(loaded.view(before, seat))
    return not _cards_seen(loaded.view(after, seat)) <= seen


def _cards_seen(view: dict) -> set:
    return {card for piles in view["zones"].values() for pile in piles for card in pile if card}
