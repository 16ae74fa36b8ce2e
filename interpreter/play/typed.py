"""A move typed by a person: its notation (``dealer_discard 3D``) or a unique beginning of it, its
words as the table shows them (``discard 3♦``), or a card alone (``6H``) when one legal move uses
that card; cards may be typed as shown (``5♠``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import find_move, legal_moves
from ..engine.values import Card
from ..errors import IllegalMove
from .card_text import typed_text
from .words import Words

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.moves import Move
    from ..engine.state import State

SHOWN_AT_MOST = 6      # candidates named in a refusal


def find_typed(game: Game, state: State, seat: int, entry: str, words: Words) -> Move:
    text = typed_text(entry)
    try:
        return find_move(game, state, text, seat)
    except IllegalMove as refusal:
        moves = legal_moves(game, state, seat)
        wanted = _normal(text)
        said = [m for m in moves if _normal(typed_text(words.move(m, seat))) == wanted]
        if len(said) == 1:
            return said[0]
        if said:             # two moves that read alike: their notations tell them apart
            raise IllegalMove(f"'{entry}' could be any of: {', '.join(m.text for m in said)}",
                              hint="type one of them as written") from None
        using = [m for m in moves if any(card.label.lower() == wanted for card in cards_of(m.args))]
        if len(using) == 1:
            return using[0]
        if using:
            shown = ", ".join(words.move(m, seat) for m in using[:SHOWN_AT_MOST])
            raise IllegalMove(f"'{entry}' could be any of: {shown}" + (", ..." if len(using) > SHOWN_AT_MOST else ""),
                              hint="type the whole move, or choose it from the list") from None
        # The refusal names the entry as it was typed (``play 5♦``, not ``play 5D``), the moves as read.
        message = refusal.message.replace(f"'{text}'", f"'{entry}'", 1)
        hint = refusal.hint
        if moves and hint and hint.startswith("legal now:"):
            hint = "legal now: " + ", ".join(dict.fromkeys(words.move_name(m.name) for m in moves))
        raise IllegalMove(message, hint=hint) from None


def _normal(text: str) -> str:
    return " ".join(text.split()).lower()


def cards_of(args: tuple) -> list[Card]:
    """The cards among a move's arguments, those in lists too, in order."""
    out = []
    for arg in args:
        for value in (arg if isinstance(arg, (list, tuple)) else (arg,)):
            if isinstance(value, Card):
                out.append(value)
    return out
