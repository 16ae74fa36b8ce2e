"""Signals that stop a game the way Ctrl-C does, and writes they cannot cut in half.

SIGTERM (a ``kill``, a service stopping) and SIGHUP (the terminal closed) raise ``Stopped``, a
``KeyboardInterrupt``, in the main thread: every front end already stops on Ctrl-C by keeping the
record so far, so each of these signals keeps it too. While a record is being rewritten
(``signals_held``) the three signals wait, then arrive as soon as the write is whole.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from types import FrameType

STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
HELD = (signal.SIGINT, *STOPPING)


class Stopped(KeyboardInterrupt):
    """The process was asked to stop by ``signum``."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """128 + the signal, as a shell reports it: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + getattr(interrupt, "signum", signal.SIGINT)


def stop_reason(interrupt: KeyboardInterrupt) -> str:
    """``interrupted`` (Ctrl-C), or ``stopped by SIGTERM``."""
    signum = getattr(interrupt, "signum", signal.SIGINT)
    return "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise ``Stopped``; the old handlers come back after it."""
    with handlers_kept():
        if _in_main_thread():      # only the main thread may set handlers (a test's thread plays)
            for signum in STOPPING:
                signal.signal(signum, _stop)
        yield


@contextlib.contextmanager
def handlers_kept() -> Iterator[None]:
    """The handlers of SIGTERM and SIGHUP as they were before the block, after it (an event loop
    that takes them over leaves them to the system's default when it closes)."""
    previous = {signum: signal.getsignal(signum) for signum in STOPPING} if _in_main_thread() else {}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP wait: each is handled as it would have been
    (by the handler it had) when the block ends. Python runs every handler in the main thread
    between two steps, so holding them there holds them whichever thread the system chose."""
    if not _in_main_thread():
        yield
        return
    came: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: came.append(signum)) for signum in HELD}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(came):
            _deliver(signum, previous[signum])


def _deliver(signum: int, handler: Any) -> None:
    """A held signal, handled now as its handler would have (the system's default: sent again)."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)
