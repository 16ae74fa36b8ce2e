"""Taking back a person's move in turn play against bots, where nothing since was news to them.

Before each move of the one person at the table (in a phase with turns), the session keeps the
position: the state, the bots' generators, the table's clock, how long the log and the record
were. ``undo`` goes back to the last such position (the person's move and the bots' answers
taken back), but only when nothing since then told the person something they did not know:

- a chance event: the game's generator was used (a shuffle, a throw of the dice, a random
  choice), so playing again could turn out otherwise;
- a card they had never seen came into their sight (drawn into their hand, turned face up,
  played face up by a bot), or another seat's cup of dice was lifted.

Going back further undoes the moves before, by the same rule. Not in free play (everyone moves
at once), nor with several people at the table (one would take back another's information),
nor when the game forbids it (``play: {undo: false}`` in its file). The record keeps only the
moves that stand: it replays to the same end as the game on the screen.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.state import State
from ..engine.values import Seat
from ..engine.views import card_visible, cup_visible
from .card_text import card_text

if TYPE_CHECKING:
    from ..engine.game import Game
    from .realtime import Table

NOT_KEPT = ("places", "presets", "watcher")      # a state's hints and its table, not its position


@dataclass
class Kept:
    """One position to go back to: before the person's move ``text``."""
    state: State
    table: tuple
    bots: dict
    log: int
    record: int
    hand_end: Any
    stamp: int          # how many actions had been made


class UndoLog:
    def __init__(self, game: Game, state: State, seat: int | None, allowed: str | None):
        self.game = game
        self.state = state
        self.seat = seat                  # the one person, or None (no undo)
        self.refusal = allowed            # why undo is never possible here, or None
        self.kept: list[Kept] = []
        self.stamp = 0                    # actions made so far
        self.news: tuple[int, str] | None = None   # the last action that told the person something
        self.known: set[int] = self._visible() if seat is not None else set()
        self.cups: set[int] = self._cups_seen() if seat is not None else set()
        self.rng: int | None          # the position's random state the person has seen, or None
        self.rng, self.dice = state.rng, list(state.dice)

    def _visible(self) -> set[int]:
        game, state = self.game, self.state
        out: set[int] = set()
        for zone, piles in state.zones.items():
            for i, pile in enumerate(piles):
                owner = game.pile_owner(state, zone, i)
                out.update(c for k, c in enumerate(pile)
                           if c is not None and card_visible(game, state, zone, owner, pile, k, self.seat))
        return out

    def _cups_seen(self) -> set[int]:
        """The seats whose cup of dice the person sees (none when the dice are the table's)."""
        game, state = self.game, self.state
        if game.dice_per != "seat":
            return set()
        return {owner for owner in range(state.players) if cup_visible(game, state, owner, self.seat)}

    def keep(self, table: Table, log: int, record: int, hand_end: State | None) -> None:
        """The position before the person's move (in turns)."""
        if self.refusal is not None:
            return
        bots = {seat: getattr(bot, "rng", None) for seat, bot in table.bots.items()}
        clock = table.clock
        self.kept.append(Kept(self.state.clone(), (clock.now, dict(clock.due), clock.rng, table.last,
                                                   table._turn_moves), bots, log, record, hand_end, self.stamp))

    def made(self) -> None:
        """After each action: was it news to the person?"""
        if self.refusal is not None:
            return
        self.stamp += 1
        state = self.state
        if state.current is None:          # free play (or the end): no going back past it
            self.kept.clear()
            self.rng = None                # what was seen meanwhile is read afresh in turns
            return
        if self.rng is None:
            self.known |= self._visible()
            self.cups = self._cups_seen()
            self.rng, self.dice = state.rng, list(state.dice)
            return
        why = None
        if state.rng != self.rng:
            why = "the dice were thrown since" if state.dice != self.dice else \
                "something was left to chance since (a shuffle or a random draw)"
        seen = self._visible()
        new = seen - self.known
        if new and why is None:
            label = self.game.card_table(state.players)[min(new)].label
            why = f"a card came into sight since ({card_text(label)})"
        self.known |= new
        cups = self._cups_seen()
        if cups - self.cups and why is None:
            why = f"dice came into sight since ({Seat(min(cups - self.cups))}'s cup)"
        self.cups = cups
        self.rng, self.dice = state.rng, list(state.dice)
        if why is not None:
            self.news = (self.stamp, why)

    def why_not(self) -> str | None:
        """Why the last move cannot be taken back now, or None when it can."""
        if self.refusal is not None:
            return self.refusal
        if self.state.current is None and not self.state.over:
            return "cannot undo in free play: everyone moves at once"
        if not self.kept:
            return "nothing to undo"
        last = self.kept[-1]
        if self.news is not None and self.news[0] > last.stamp:
            return f"cannot undo: {self.news[1]}"
        if last.state.round != self.state.round:
            return "cannot undo: the hand is over"
        return None

    def take_back(self, table: Table) -> Kept:
        """Go back to the last position kept (``why_not`` said it may); the position returned."""
        last = self.kept.pop()
        fresh = last.state.clone()
        for f in dataclasses.fields(State):
            if f.name not in NOT_KEPT:
                setattr(self.state, f.name, getattr(fresh, f.name))
        self.state.places = {}
        clock = table.clock
        clock.now, due, clock.rng, table.last, table._turn_moves = last.table
        clock.due = dict(due)
        for seat, generator in last.bots.items():
            if generator is not None:
                table.bots[seat].rng = generator
        self.stamp = last.stamp
        self.rng, self.dice = self.state.rng, list(self.state.dice)
        self.cups = self._cups_seen()
        return last
