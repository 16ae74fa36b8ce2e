"""How a game reads to its players: the words the game file gives its moves, parameters' values,
zones, phases and variables, the variables it does not show, its rules summary and legend.

Every front end writes what it draws through ``Words``, so that no engine identifier reaches a
screen where the game gave a word for it. Without a word, a name is shown with its underscores as
spaces (``dealer_discard`` reads "dealer discard"). The notation (``dealer_discard 3D``) stays
what is typed and recorded; a move's words are also accepted when typed (``find_typed``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.values import Card, ZoneRef
from ..engine.views import public_word
from ..load.words_check import PLACEHOLDER
from .card_text import card_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..engine.game import Game
    from ..engine.moves import Move

MORE = "…"      # a parameter not chosen yet, in a move's words


def rules_text(words: "Words") -> list[str]:
    """The game's rules in brief and its legend, as lines (none when the game gives neither)."""
    lines = ["", "The rules in brief:", words.summary] if words.summary else []
    if words.legend:
        lines += ["", "On the table:"] + [f"  {mark}  {meaning}" for mark, meaning in words.legend.items()]
    return lines


def plain_words(name: str) -> str:
    """An identifier as words: ``trump_color`` -> ``trump color``."""
    return name.replace("_", " ")


class Names:
    """The words for a game's phases, zones and variables, and the variables not shown: what a
    view is drawn with. ``Words`` has them from the game file; a front end without it (``rules
    join``) from what the table sends (``Names.sent``, of ``Words.for_players``)."""

    def __init__(self, phases: dict, zones: dict, variables: dict, not_shown: Iterable[str] | None,
                 held: dict | None = None):
        self._phases, self._zones, self._variables = phases, zones, variables
        self.not_shown = frozenset(not_shown or ())
        self._held = dict(held or {})      # words for the texts variables hold (``view: values``)

    @classmethod
    def sent(cls, words: dict) -> "Names":
        return cls(words.get("phases") or {}, words.get("zones") or {}, words.get("variables") or {},
                   words.get("not_shown"), words.get("values"))

    def phase(self, name: str) -> str:
        return self._phases.get(name) or plain_words(name)

    def zone(self, name: str) -> str:
        return self._zones.get(name) or plain_words(name)

    def variable(self, name: str) -> str:
        return self._variables.get(name) or plain_words(name)

    def shown(self, name: str) -> bool:
        """Whether a variable is drawn (bookkeeping ones are not)."""
        return name not in self.not_shown

    def values(self, variables: dict) -> dict:
        """A map of variables as drawn: those shown, under their words, in order, the texts they
        hold (and the keys of their maps) in the game's words for them."""
        return {self.variable(k): self.held(v) for k, v in variables.items() if self.shown(k)}

    def held(self, value: Any) -> Any:
        """A plain value with its texts in the game's words (``two_pairs`` -> ``two pairs``)."""
        if isinstance(value, str):
            return self._held.get(value, value)
        if isinstance(value, list):
            return [self.held(v) for v in value]
        if isinstance(value, dict):
            return {self.held(k): self.held(v) for k, v in value.items()}
        return value


class Words(Names):
    """One game's words for people, read once from its file; every method answers for a viewer
    where the words depend on who reads them (``your work pile 2``, another's private move)."""

    def __init__(self, game: Game):
        data = game.spec.data
        self.summary: str = data.get("summary", "")
        self.legend: dict[str, str] = dict(data.get("legend") or {})
        moves = data.get("moves") or {}
        self._moves = {name: move.get("label") for name, move in moves.items()}
        self._params = {name: list(move.get("params") or {}) for name, move in moves.items()}
        self._values = {(name, param): {_key(k): v for k, v in (spec.get("labels") or {}).items()}
                        for name, move in moves.items() for param, spec in (move.get("params") or {}).items()}
        view = data.get("view") or {}
        super().__init__({p["name"]: p.get("label") for p in data["flow"]["phases"]},
                         {name: zone.get("label") for name, zone in (data.get("zones") or {}).items()},
                         dict(view.get("labels") or {}), view.get("not_shown"), view.get("values"))
        self._declared = [name for block in (data.get("variables") or {}).values() for name in (block or {})]
        self._private = {name: {p.name for p in move.params if p.private} for name, move in game.moves.items()}
        self._per = {name: zone.per for name, zone in game.zones.items()}

    # -- names ---------------------------------------------------------------------------------------
    def pile(self, zone: str, owner: str, number: str, viewer: int | None) -> str:
        """A pile's words: ``your work pile 2``, ``P2's work pile 2``, ``foundation 3``."""
        words = self.zone(zone) + (f" {number}" if number else "")
        if not owner:
            return words
        if viewer is not None and owner == f"P{viewer + 1}":
            return "your " + words
        return f"{owner}'s {words}"

    def for_players(self) -> dict:
        """The words a front end without the game file needs (the browser table): every zone's,
        phase's and variable's words, the variables not shown, the summary and the legend."""
        return {"zones": {name: self.zone(name) for name in self._zones},
                "phases": {name: self.phase(name) for name in self._phases},
                "variables": {name: self.variable(name) for name in self._declared},
                "not_shown": sorted(self.not_shown), "values": dict(self._held), "summary": self.summary,
                "legend": self.legend}

    # -- moves -----------------------------------------------------------------------------------------
    def move(self, move: Move, viewer: int | None) -> str:
        """A move as ``viewer`` reads it (None: a spectator): the others' private values in the
        form everyone saw (``3 cards``, ``a card``)."""
        params = self._params.get(move.name, [])
        private = self._private.get(move.name, set()) if viewer != move.seat else set()
        texts = {p: "" if v is None else public_word(v)[1:-1] if p in private else self.value(move.name, p, v, viewer)
                 for p, v in zip(params, move.args)}     # a none value is left out, as in the notation
        return self._filled(move.name, texts)

    def move_choice(self, name: str, chosen: dict | None = None) -> str:
        """A move being chosen: its words with the values chosen so far, ``…`` for the others."""
        chosen = chosen or {}
        return self._filled(name, {p: chosen.get(p, MORE) for p in self._params.get(name, [])})

    def params(self, name: str) -> list[str]:
        return self._params.get(name, [])

    def move_name(self, name: str) -> str:
        """A move before any value is chosen: its words with each value as ``…``."""
        return self.move_choice(name)

    def _filled(self, name: str, texts: dict[str, str]) -> str:
        label = self._moves.get(name)
        if label is None:
            return " ".join([plain_words(name)] + [t for t in texts.values() if t not in ("", MORE)])
        words = PLACEHOLDER.sub(lambda m: texts.get(m.group(1), MORE), label).split()
        # Values not chosen yet side by side read as one "…".
        return " ".join(w for k, w in enumerate(words) if not (w == MORE and k and words[k - 1] == MORE))

    def value(self, move: str | None, param: str | None, value: Any, viewer: int | None) -> str:
        """One value as a person reads it: the game's words for it, a card as ``J♥``, a pile as
        its words, a seat as ``P2``."""
        words = self._values.get((move, param), {})
        if isinstance(value, (list, tuple)):
            return " ".join(self.value(move, param, v, viewer) for v in value)
        if words and _key(value) in words:
            return words[_key(value)]
        return self.plain_value(value, viewer)

    def plain_value(self, value: Any, viewer: int | None = None) -> str:
        """A value without words of its own: a card as ``J♥``, a pile as its words, a seat as ``P2``."""
        if isinstance(value, Card):
            return card_text(value.label)
        if isinstance(value, ZoneRef):
            prefix = "T" if self._per.get(value.name) == "team" else "P"
            owner = "" if value.owner is None else f"{prefix}{value.owner + 1}"
            number = str(value.index + 1) if value.numbered or value.index else ""
            return self.pile(value.name, owner, number, viewer)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return "none"
        if isinstance(value, (list, tuple)):
            return " ".join(self.plain_value(v, viewer) for v in value)
        return str(value)


def _key(value: Any) -> str:
    """A value as the keys of ``labels`` are compared: its text (``true``, ``3``, ``hearts``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
