"""Text of standard playing cards for the terminal: suit symbols, red suits in colour, hands
sorted by suit with the trump suit first and marked, the trick with who played each card, and the
teams' variables.

Only labels of the standard deck (``QH``, ``10S``, ``Jk``) are changed; any other label is shown
as it is. Colour is ANSI escapes, which ``click.echo`` removes when the output is not a terminal.
"""
from __future__ import annotations

import re
from typing import Any

from ..engine.values import SUIT_SYMBOLS

STANDARD = re.compile(r"^(A|[2-9]|10|J|Q|K)([CDHS])$")
JOKER = re.compile(r"^Jk\d*$")
SUIT_OF_LETTER = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RED = ("\x1b[31m", "\x1b[0m")
TRUMP_MARK = "*"


def card_text(label: str, color: bool = False) -> str:
    """``QH`` -> ``Q♥`` (red when ``color``); a joker ``Jk`` -> ``Jk★``; other labels unchanged."""
    match = STANDARD.match(label)
    if match:
        rank, letter = match.groups()
        text = rank + SUIT_SYMBOLS[SUIT_OF_LETTER[letter]]
        return f"{RED[0]}{text}{RED[1]}" if color and letter in "DH" else text
    if JOKER.match(label):
        return label + SUIT_SYMBOLS["joker"]
    return label


WRITTEN_CARD = re.compile(r"(?<![\w♠♥♦♣])(A|[2-9]|10|J|Q|K)([CDHS])(?![\w])")


def cards_in_text(text: str) -> str:
    """A line of text with the standard cards written in it (``QH``) as they are drawn (``Q♥``):
    the game's own log lines hold cards as the notation writes them."""
    return WRITTEN_CARD.sub(lambda m: card_text(m.group(0)), text)


LETTER_OF_SYMBOL = {symbol: letter for letter, suit in SUIT_OF_LETTER.items() for symbol in [SUIT_SYMBOLS[suit]]}
SHOWN_CARD = re.compile(r"\b(A|[2-9]|10|J|Q|K)([" + "".join(LETTER_OF_SYMBOL) + r"])")


def typed_text(entry: str) -> str:
    """A move typed with cards as they are shown (``5♠``, ``Jk★``) written as the notation has
    them (``5S``, ``Jk``)."""
    entry = SHOWN_CARD.sub(lambda m: m.group(1) + LETTER_OF_SYMBOL[m.group(2)], entry)
    return entry.replace(SUIT_SYMBOLS["joker"], "")


def suit_text(suit: Any, color: bool = False) -> str:
    symbol = SUIT_SYMBOLS.get(suit) if isinstance(suit, str) else None
    if symbol is None:
        return str(suit)
    return f"{RED[0]}{symbol}{RED[1]}" if color and suit in ("hearts", "diamonds") else symbol


def hand_text(labels: list, tricks: dict, color: bool = False) -> str:
    """A hand grouped by effective suit, the trump suit first and marked, high cards first."""
    known = [c for c in labels if c is not None]
    hidden = len(labels) - len(known)
    cards = tricks["cards"]
    trump = tricks["trump"]
    suits: list = []
    for label in known:
        suit = cards.get(label, [None])[0]
        if suit not in suits:
            suits.append(suit)
    suits.sort(key=lambda s: (s != trump, str(s)))
    groups = []
    for suit in suits:
        members = sorted((c for c in known if cards.get(c, [None])[0] == suit),
                         key=lambda c: -_number(cards.get(c, [None, 0])[1]))
        mark = TRUMP_MARK if suit == trump and trump is not None else ""
        groups.append(f"{suit_text(suit, color)}{mark} " + " ".join(card_text(c, color) for c in members))
    if hidden:
        groups.append(f"{hidden} face down")
    return " | ".join(groups) if groups else "(empty)"


def trick_lines(tricks: dict, names: list[str], color: bool = False) -> list[str]:
    """The trump, the suit led, and each card of the trick with the seat that played it."""
    facts = [] if tricks["trump"] is None else [f"trump: {suit_text(tricks['trump'], color)}"]   # no trump: not shown
    if tricks["led"] is not None:
        leader = names[tricks["leader"]] if tricks["leader"] is not None else "?"
        facts.append(f"led: {suit_text(tricks['led'], color)} by {leader}")
    plays = [f"{names[seat] if seat is not None else '?'} {'##' if label is None else card_text(label, color)}"
             for seat, label in tricks["plays"]]
    played = "played: " + (", ".join(plays) if plays else "(no card yet)")
    return (["  ".join(facts)] if facts else []) + [played]


def team_lines(team_vars: list[dict], teams: list[int], names: list[str]) -> list[str]:
    """One line per team: its members and its variables (already written as text)."""
    lines = []
    for number, values in enumerate(team_vars):
        members = " ".join(names[s] for s, t in enumerate(teams) if t == number)
        shown = "  ".join(f"{k}: {v}" for k, v in values.items())
        lines.append(f"T{number + 1} ({members})  {shown}".rstrip())
    return lines


def _number(value: Any) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0
