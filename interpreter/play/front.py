"""Which front end plays a game: the full-screen table on a terminal, else the line mode (a pipe,
a script, or ``--plain``)."""
from __future__ import annotations

import os
import sys
from typing import Callable

from .session import Session
from .signals import exit_code, stop_on_signals, stop_reason
from .terminal import Clock, TerminalGame, open_session, tell


def wants_color(no_color: bool) -> bool:
    """Colour unless ``--no-color`` or the NO_COLOR convention (https://no-color.org) says not."""
    return not no_color and not os.environ.get("NO_COLOR")


def on_terminal() -> bool:
    """Both ends are a terminal (no standard input at all, or a closed one, is not)."""
    streams = (sys.stdin, sys.stdout)
    return all(stream is not None and not stream.closed and stream.isatty() for stream in streams)


def play(file: str, options: dict, players: int | None, seed: int | None, bot_kind: str | None,
         record_path: str | None, human: Callable[[int], set[int]], bot_speed: float = 2.0,
         fake_clock: float | None = None, plain: bool = False, no_color: bool = False,
         full_record: bool = True) -> int:
    """Play the game; the exit code (0 at the end or on quit, 1 when it did not finish, 130 on
    Ctrl-C, 128 + the signal on SIGTERM or SIGHUP: the record so far is kept on each). Raises
    RulesError for a bad file, option, seat or record target."""
    with stop_on_signals():
        session = None
        try:
            session = open_session(file, options, players, seed, bot_kind, record_path, human, bot_speed,
                                   full_record)
            return _front_end(session, fake_clock, plain, wants_color(no_color))
        except KeyboardInterrupt as interrupt:     # before the game began, or as it ended
            kept = ""
            if session is not None:
                session.close_record()
                kept = f"{session.kept_text()}.\n{session.seed_line()}"
            tell(f"\n{stop_reason(interrupt)}{kept}")
            return exit_code(interrupt)


def _front_end(session: Session, fake_clock: float | None, plain: bool, color: bool) -> int:
    if plain or not on_terminal():
        return TerminalGame(session, Clock(fake_clock), color=color, handover_blank=on_terminal()).run()
    from .tui.app import TableApp  # Textual is loaded only for the full-screen table
    return TableApp(session, color=color, fake_clock=fake_clock).play()
