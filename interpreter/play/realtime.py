"""Seats acting on one clock: turns, and free play where every seat may act at any moment.

In a phase with turns, the seat whose turn it is acts and time does not matter. In free play
(a phase without turns) each bot has a speed, in seconds per action, spread at random by a
generator seeded from the game's seed (kept apart from the game's own, so that replaying the
moves alone gives the same game); the seat whose next action is due first acts next, so a race for
the same card or pile goes to whoever is first. This is a discrete-event simulation on a
virtual clock; ``rules play`` runs the same table against the real clock.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..engine import acting_seats, apply_move, find_move, has_move, legal_moves, rng
from ..engine.legal import legal_moves_as_asked
from ..engine.moves import Move
from ..engine.where import never_ends_turn, stalled
from ..errors import RulesError
from ..limits import MAX_MOVES_PER_TURN

if TYPE_CHECKING:
    from ..bots.bot import Bot
    from ..engine.game import Game
    from ..engine.state import State

DEFAULT_SPEED = 1.0        # seconds per action
SPREAD_STEPS = 1000        # an action takes between half and one and a half times the speed


class Action:
    """A move made at the table: the seat, the move, the time on the table's clock.

    Treated as immutable. A plain class with slots, not a frozen dataclass: one is made for
    every move, and a frozen dataclass costs three times as much to make."""

    __slots__ = ("seat", "move", "time")

    def __init__(self, seat: int, move: Move, time: float):
        self.seat, self.move, self.time = seat, move, time

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not Action:
            return NotImplemented
        return (self.seat, self.move, self.time) == (other.seat, other.move, other.time)

    def __hash__(self) -> int:
        return hash((self.seat, self.move, self.time))

    def __repr__(self) -> str:
        return f"Action(seat={self.seat!r}, move={self.move!r}, time={self.time!r})"


class Clock:
    """The table's virtual clock in free play: when each bot's next action is due. ``speeds``:
    seconds per action by seat (a seat not given, or None, takes ``DEFAULT_SPEED``)."""

    def __init__(self, speeds: dict[int, float | None], seed: int):
        self.speeds = {seat: DEFAULT_SPEED if speed is None else speed for seat, speed in speeds.items()}
        self.now = 0.0
        self.due: dict[int, float] = {}
        self.rng = rng.seed_state(seed * 7919 + 17)

    def delay(self, seat: int) -> float:
        step, self.rng = rng.below(self.rng, SPREAD_STEPS)
        return self.speeds.get(seat, DEFAULT_SPEED) * (0.5 + step / SPREAD_STEPS)

    def due_at(self, seat: int) -> float:
        if seat not in self.due:
            self.due[seat] = self.now + self.delay(seat)
        return max(self.due[seat], self.now)

    def first_due(self, seats: list[int]) -> int:
        """The seat whose next action is due first (the lowest seat of those due together)."""
        return min(seats, key=lambda s: (self.due_at(s), s))

    def next_seat(self, seats: list[int]) -> int:
        """The seat of ``seats`` that acts next, the clock moved on to its time."""
        seat = self.first_due(seats)
        self.now = self.due_at(seat)
        return seat

    def acted(self, seat: int) -> None:
        """``seat`` has acted now: its next action is due after another delay."""
        self.due[seat] = self.now + self.delay(seat)

    def restart(self, when: float) -> None:
        self.now = max(self.now, when)
        self.due = {}


class Table:
    """A game in progress with bots at some seats; people (the other seats) move through ``play``."""

    def __init__(self, game: Game, state: State, bots: dict[int, Bot], speeds: dict[int, float] | None = None,
                 seed: int = 0):
        self.game = game
        self.state = state
        self.bots = bots
        self.clock = Clock({seat: (speeds or {}).get(seat) for seat in bots}, seed)
        self.last: Action | None = None     # the last move made, named in an error's report
        self._turn_moves = 0                # moves made in the turn going on that did not end it
        # Told each move of the table's own state just before it is played, with its seat and
        # time (a served table writes its record first); when it raises, the move is not played.
        self.before_move: Callable[[int, Move, float], None] | None = None

    @property
    def now(self) -> float:
        return self.clock.now

    @now.setter
    def now(self, when: float) -> None:
        self.clock.now = when

    def next_bot_action(self, until: float | None = None) -> Action | None:
        """Play the next bot action due no later than ``until`` (any time when None), or None when
        no bot may act by then (the game is over, or it waits for a person)."""
        state = self.state
        if state.over:
            return None
        if state.current is not None:
            if state.current not in self.bots:
                return None
            return self._act(state.current, self.now)
        seats = [s for s in acting_seats(self.game, state) if s in self.bots]
        if not seats:
            if not acting_seats(self.game, state):
                raise self._after_last(stalled(self.game, state))
            return None
        seat = self.clock.first_due(seats)
        when = self.clock.due_at(seat)
        if until is not None and when > until:
            return None
        action = self._act(seat, when, asked=True)
        self.clock.acted(seat)
        return action

    def restart(self, when: float) -> None:
        """A new hand starts at ``when`` (after a pause): every bot's next action is drawn afresh."""
        self.clock.restart(when)

    def _act(self, seat: int, when: float, asked: bool = False) -> Action:
        """``seat`` moves at ``when``; ``asked``: ``acting_seats`` asked every seat just before."""
        self.now = when
        game, state = self.game, self.state
        try:
            moves = legal_moves_as_asked(game, state, seat) if asked else legal_moves(game, state, seat)
            if not moves:
                raise stalled(game, state)
            move = self.bots[seat].choose(state, moves)
        except RulesError as error:
            raise self._after_last(error) from None
        if self.before_move is not None:
            self.before_move(seat, move, when)
        current = state.current
        # The bot chose among the legal moves of this very state: no need to check it again.
        if current is None:         # free play: no turn to count (``_made`` with no turn)
            apply_move(game, state, move, seat, checked=False)
            action = self.last = Action(seat, move, when)
            self._turn_moves = 0
            return action
        turn = (state.round, state.phase, state.turns, current)     # ``_turn()``, written out
        apply_move(game, state, move, seat, checked=False)
        action = self.last = Action(seat, move, when)
        if (state.round, state.phase, state.turns, state.current) != turn:     # ``_made``: the turn ended
            self._turn_moves = 0
            return action
        return self._made(action, turn)

    def play(self, seat: int, text_or_move: str | Move, when: float) -> Action:
        """A person's move at time ``when``: every bot action due before it happens first."""
        while self.next_bot_action(until=when) is not None:
            pass
        self.now = max(self.now, when)
        turn = self._turn()
        move = text_or_move
        if self.before_move is not None:
            if isinstance(move, str):
                move = find_move(self.game, self.state, move, seat)
            self.before_move(seat, move, self.now)
        move = apply_move(self.game, self.state, move, seat)
        return self._made(Action(seat, move, self.now), turn)

    def check_stalled(self) -> None:
        """Raise when the game is not over but nobody can ever move: the seat whose turn it is has
        no legal move, or in free play no seat has one (for a table that waits for a person)."""
        state = self.state
        if state.over:
            return
        if state.current is not None and not has_move(self.game, state, state.current) \
                or state.current is None and not acting_seats(self.game, state):
            raise self._after_last(stalled(self.game, state))

    def _turn(self) -> tuple | None:
        """The turn going on: (round, phase, turns ended in the phase, seat); None in free play."""
        state = self.state
        return None if state.current is None else (state.round, state.phase, state.turns, state.current)

    def _made(self, action: Action, turn: tuple | None) -> Action:
        """Keep the move as the last one, and count the moves of a turn that did not end it (the
        turn going on before the move is ``turn``): a turn that lasts too long can never end."""
        self.last = action
        if turn is None or self._turn() != turn:
            self._turn_moves = 0
            return action
        self._turn_moves += 1
        if self._turn_moves >= MAX_MOVES_PER_TURN:
            raise self._after_last(never_ends_turn(self.game, self.state, self._turn_moves))
        return action

    def _after_last(self, error: RulesError) -> RulesError:
        """An error met between moves, with the last move made (the engine knows only the count)."""
        if self.last is not None:
            error.within(f"the last move was P{self.last.seat + 1}: {self.last.move.text}")
        return error
