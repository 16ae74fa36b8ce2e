"""Which front end plays a game: the full-screen table on a terminal, else the line mode (a pipe,
a script, or ``--plain``)."""
from __future__ import annotations

import os
import sys
from typing import Callable

from .terminal import Clock, TerminalGame, open_session


def wants_color(no_color: bool) -> bool:
    """Colour unless ``--no-color`` or the NO_COLOR convention (https://no-color.org) says not."""
    return not no_color and not os.environ.get("NO_COLOR")


def on_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def play(file: str, options: dict, players: int | None, seed: int | None, bot_kind: str | None,
         record_path: str | None, human: Callable[[int], set[int]], bot_speed: float = 2.0,
         fake_clock: float | None = None, plain: bool = False, no_color: bool = False) -> int:
    """Play the game; the exit code. Raises RulesError for a bad file, option or seat."""
    session = open_session(file, options, players, seed, bot_kind, record_path, human, bot_speed)
    color = wants_color(no_color)
    if plain or not on_terminal():
        return TerminalGame(session, Clock(fake_clock), color=color, handover_blank=on_terminal()).run()
    from .tui.app import TableApp       # Textual is loaded only for the full-screen table
    return TableApp(session, color=color, fake_clock=fake_clock).play()
