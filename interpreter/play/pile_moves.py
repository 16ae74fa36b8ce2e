"""The moves a pile stands for when it is picked itself: a move without choices is played on the
pile its rules name first (turning the stock names the stock; drawing a card, the pile drawn from).
Read from the game file, so it knows no game: the first zone named in the move's ``when``, then
its ``do``."""
from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State


def first_zones(data: dict) -> dict[str, str]:
    """For each move without parameters whose rules name a zone: the zone they name first."""
    zones = list(data.get("zones") or {})
    out = {}
    for name, move in (data.get("moves") or {}).items():
        if move.get("params"):
            continue
        rules = json.dumps([move.get("when"), move.get("do")])
        found = [(m.start(), zone) for zone in zones for m in [re.search(rf"\b{zone}\b", rules)] if m]
        if found:
            out[name] = min(found)[1]
    return out


def own_pile(game: Game, state: State, zone: str, seat: int | None) -> int | None:
    """The index (in the state's piles of ``zone``) of the one pile of it that is ``seat``'s, or
    the shared one; None for a zone of several piles each, or of teams."""
    per = game.zones[zone].per
    piles = state.zones[zone]
    if per == "team" or len(piles) != game.owners(state, zone):
        return None
    if per == "game":
        return 0
    return seat if seat is not None else None
