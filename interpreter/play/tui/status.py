"""The status bar: the game, the round and phase, whose turn it is, and the clock in free play.

Scores are shown when the game is over (a game's score may read cards some seats cannot see;
during play the game's own ``view:`` values and the seats' variables show what is public)."""
from __future__ import annotations

from typing import Any

from rich.text import Text

from .controller import BETWEEN, OVER


def status_text(view: dict, session: Any, now: float, mode: str) -> Text:
    parts = [view["game"], f"round {view['round']}", view["phase"]]
    if mode == OVER:
        scores = session.loaded.scores(session.state)
        parts[1:] = ["game over", "scores " + " ".join(f"P{i + 1} {s}" for i, s in enumerate(scores))]
    elif mode == BETWEEN:
        parts[1:] = [f"round {view['round'] - 1} is over", "hand over"]
    elif view["current"] is not None:
        who = view["current"]
        parts.append("your turn" if who == view["seat"] else f"P{who + 1} to play")
    else:
        parts.append(f"everyone plays  {now:5.1f} s")
    if view["seat"] is not None:
        parts.append(f"you are P{view['seat'] + 1}")
    return Text(" " + "  ·  ".join(parts), no_wrap=True, overflow="ellipsis")
