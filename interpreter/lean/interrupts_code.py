"""Interrupts written for one game, as ``engine/interrupts.py`` runs them: some seats each make one
move of a listed few before play goes on.

The lean state keeps the stack of interrupts going on in ``s.intr`` (None when there is none),
each a list ``[seats, moves, resume, after, acting]``: the seats still to act, in order; the
index of the interrupt's list of moves among the game's (``interrupt_lists``); the seat whose
turn it was; the flow signals held meanwhile; whether the seat at the front is making its move.
"""
from __future__ import annotations

from typing import Any


def interrupt_lists(game: Any) -> list[tuple[str, ...]]:
    """Each list of moves an ``interrupt`` effect of the game names, once, in the file's order."""
    found: list[tuple[str, ...]] = []

    def visit(value: Any) -> None:
        if isinstance(value, dict):
            if "interrupt" in value and isinstance(value.get("moves"), list):
                moves = tuple(value["moves"])
                if moves not in found:
                    found.append(moves)
            for item in value.values():
                visit(item)
        elif isinstance(value, list):
            for item in value:
                visit(item)
    visit(game.spec.data)
    return found


def write_advance(m: Any) -> list[str]:
    """``interrupts.advance``: after a move (or at its start) the innermost interrupt moves on;
    True while one of its seats is to move, else False with its held signals given back."""
    if not m.interrupts:
        return []
    return ["def intr_advance(s, sig):",
            "    rec = s.intr[-1]",
            "    if rec[4]:",                # the seat at the front has made its move
            "        del rec[0][0]",
            "        rec[4] = False",
            "    rec[3] += sig",
            "    sig.clear()",
            "    while rec[0]:",
            "        s.current = rec[0][0]",
            "        if any_legal(s):",
            "            rec[4] = True",
            "            return True",
            "        del rec[0][0]",
            "    s.intr.pop()",
            "    if not s.intr:",
            "        s.intr = None",
            "    s.current = rec[2]",
            "    sig += rec[3]",
            "    return False", ""]


def to_ref(m: Any, stack: list | None) -> list[dict] | None:
    """The reference's record of the interrupts going on (``$interrupts``), or None."""
    if not stack:
        return None
    return [{"seats": list(seats), "moves": list(m.interrupts[moves]), "resume": resume, "after": list(after),
             "acting": acting} for seats, moves, resume, after, acting in stack]


def from_ref(m: Any, records: list[dict] | None) -> list | None:
    """``to_ref`` backwards."""
    if not records:
        return None
    return [[list(r["seats"]), m.interrupts.index(tuple(r["moves"])), r["resume"], list(r["after"]), r["acting"]]
            for r in records]
