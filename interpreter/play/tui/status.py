"""The status bar: the game, the round and phase, whose turn it is, the clock in free play, and
the scores as this seat may see them (``scores.py``: live when the score reads nothing the seat
cannot see, else as the last hand ended)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ..scores import ScoreWatch, number_text, scores_line
from .controller import BETWEEN, OVER

if TYPE_CHECKING:
    from ..session import Session


def status_text(view: dict, session: Session, now: float, mode: str, watch: ScoreWatch | None = None,
                width: int | None = None) -> Text:
    """The bar's text; when it is wider than ``width``, without the game's name first."""
    parts = [view["game"], f"round {view['round']}", session.words.phase(view["phase"])]
    if mode == OVER:
        scores = session.loaded.scores(session.state)
        parts[1:] = ["game over", "scores " + " ".join(f"P{i + 1} {s}" for i, s in enumerate(scores))]
    elif mode == BETWEEN:
        parts[1:] = [f"round {view['round'] - 1} is over", "hand over"]
    elif view["current"] is not None:
        who = view["current"]
        parts.append("your turn" if who == view["seat"] else f"P{who + 1} to play")
    else:
        parts.append(f"all play {now:.1f} s")
    if view["seat"] is not None:
        parts.append(f"you are P{view['seat'] + 1}")
    if watch is not None and mode != OVER:
        if mode == BETWEEN and session.hand_end is not None:
            shown = [number_text(s) for s in session.loaded.scores(session.hand_end)]
        else:
            shown = watch.shown(view, session.state, session.hand_end)
        parts.append(scores_line(view, shown))
    line = " " + " · ".join(parts)
    if width and len(line) > width:
        line = " " + " · ".join(parts[1:])
    return Text(line, no_wrap=True, overflow="ellipsis")
