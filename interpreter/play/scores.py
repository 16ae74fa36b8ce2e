"""Which scores a seat may see during play.

A game's score expression may read cards (the points of the cards in a hand): shown live, it
would tell the others what is in that hand. What the expression reads is worked out once, at
load, by the engine's walk of it and of every defined function it calls (``engine/reads.py``,
the same walk that keeps free play's listings):

- ``public``: it reads no pile (only variables, dice, seats, options...), which every seat
  sees: every seat's score is shown live;
- ``own``: it reads only the scored seat's own piles, or shared ones: a seat's score is shown
  live to a viewer whose view shows every card of those piles (a seat sees its own hand;
  nobody sees a face-down grid);
- ``hidden``: it may read another seat's piles (``p.hand``), or something the walk cannot bound
  (a name of the tricks such as ``playable``): no score is shown live.

A score not shown live is the score as the last hand ended (announced at the end of the hand,
as at a real table), or ``?`` before the first hand ends.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.reads import ANY, EVERYTHING, expression_reads

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.loaded import LoadedGame
    from ..engine.state import State

PUBLIC, OWN, HIDDEN = "public", "own", "hidden"


def score_reads(game: Game) -> tuple[str, frozenset]:
    """How the game's score reads cards (``public``, ``own`` or ``hidden``) and the zones it names,
    from what the engine works out the expression reads (``engine/reads.py``)."""
    if game.score is None:
        return PUBLIC, frozenset()
    keys = expression_reads(game, game.score)
    zones = frozenset(key[1] for key in keys if key[0] == "pile")
    if EVERYTHING in keys or ("allpiles",) in keys or any(k[0] == "pile" and k[2] == ANY for k in keys):
        return HIDDEN, zones
    return (OWN if zones else PUBLIC), zones


class ScoreWatch:
    """The scores one viewer may see now: live where allowed, else as the last hand ended."""

    def __init__(self, loaded: LoadedGame):
        self.loaded = loaded
        self.kind, self.zones = score_reads(loaded.game)

    def live(self, view: dict, seat: int) -> bool:
        """Whether ``seat``'s score, worked out now, tells the viewer of ``view`` nothing new."""
        if self.kind == PUBLIC:
            return True
        if self.kind == HIDDEN:
            return False
        for zone in self.zones:
            owner = self._owner_label(view, zone, seat)
            for label, pile in zip(view["pile_names"][zone], view["zones"][zone]):
                prefix = label.split("#")[0]
                if prefix in ("", owner) and any(card is None for card in pile):
                    return False
        return True

    def shown(self, view: dict, state: State, hand_end: State | None) -> list[str]:
        """Each seat's score as the viewer may see it (``?``: not yet known to them)."""
        now = self.loaded.scores(state)
        ended = self.loaded.scores(hand_end) if hand_end is not None and self.kind != PUBLIC else None
        out = []
        for seat in range(view["players"]):
            if self.live(view, seat):
                out.append(number_text(now[seat]))
            else:
                out.append(number_text(ended[seat]) if ended is not None else "?")
        return out

    def _owner_label(self, view: dict, zone: str, seat: int) -> str:
        """How the piles of ``zone`` that ``seat``'s score reads are labelled (shared: "")."""
        per = self.loaded.game.zones[zone].per
        if per == "team":
            return f"T{view['teams'][seat] + 1}"
        return f"P{seat + 1}" if per == "seat" else ""


def scores_line(view: dict, shown: list[str]) -> str:
    """``scores P1 3 P2 ?``; in a game of teams whose members share a score, ``T1 3 T2 5``."""
    teams = view.get("teams")
    if teams is not None:
        by_team: dict[int, set] = {}
        for seat, team in enumerate(teams):
            by_team.setdefault(team, set()).add(shown[seat])
        if all(len(values) == 1 for values in by_team.values()):
            return "scores " + " ".join(f"T{t + 1} {next(iter(v))}" for t, v in sorted(by_team.items()))
    return "scores " + " ".join(f"P{seat + 1} {value}" for seat, value in enumerate(shown))


def number_text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
