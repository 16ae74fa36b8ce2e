"""Playing a game in a terminal: people type moves, bots answer, a record is kept.

Works with a pipe on standard input, so a game can be scripted. A bad entry gets a reason and a
new prompt; end of input or Ctrl-C stops the game with a message and keeps the record.

In free play (a phase without turns) the bots act at their speed on the clock while the person
thinks: when a line is typed, every bot action due before that moment happens first, then the
person's move, at the moment it was entered. A move that lost its race is refused and nothing
else changes. The clock is the real one, or a fake one (each typed line takes a fixed time) that
makes a game exactly reproducible.
"""
from __future__ import annotations

import random
import time
from typing import Any, Callable

import click

from ..bots.agents import make_bot
from ..engine import find_move
from ..engine.loaded import LoadedGame, load_game
from ..errors import IllegalMove, OptionError, RulesError
from .realtime import Action, Table
from .records import Record, RecordWriter
from .render import render_moves, render_view

HELP = """Type the number of a move, or the move itself (a unique beginning is enough).
  board   show the table again (an empty line too, in free play)
  moves   list your legal moves
  help    this text
  quit    stop the game (the record so far is kept)"""


def parse_seats(text: str, players: int) -> set[int]:
    """``"1,3"`` -> {0, 2}; ``"none"`` -> no human."""
    if text.strip().lower() in ("none", "0", ""):
        return set()
    seats = set()
    for part in text.split(","):
        try:
            seat = int(part)
        except ValueError:
            raise OptionError(f"--human takes seat numbers like 1,3 or 'none', not '{text}'") from None
        if not 1 <= seat <= players:
            raise OptionError(f"--human: there is no seat {seat} in a game of {players}")
        seats.add(seat - 1)
    return seats


def final_table(loaded: LoadedGame, state: Any) -> str:
    scores, results, places = loaded.scores(state), loaded.results(state), loaded.ranking(state)
    lines = ["seat  place  score  result"]
    for seat in sorted(range(state.players), key=lambda s: places[s]):
        result = results[seat]
        shown = f"{result:+g}" if isinstance(result, (int, float)) else str(result)
        lines.append(f"P{seat + 1:<4} {places[seat]:>5}  {scores[seat]:>5}  {shown:>6}")
    if state.stop_reason:
        lines.append(f"note: {state.stop_reason}")
    return "\n".join(lines)


class Clock:
    """Seconds since the game started: the real clock, or a fake one that advances ``step`` seconds
    for each line a person types."""

    def __init__(self, step: float | None = None):
        self.step = step
        self.started = time.monotonic()
        self.fake = 0.0

    def line_typed(self) -> float:
        if self.step is None:
            return time.monotonic() - self.started
        self.fake += self.step
        return self.fake


class TerminalGame:
    def __init__(self, loaded: LoadedGame, players: int, seed: int, bot_kind: str, record: RecordWriter | None,
                 humans: set[int], bot_speed: float = 2.0, clock: Clock | None = None,
                 read_line: Callable[[str], str] = input):
        self.loaded = loaded
        self.players = players
        self.seed = seed
        self.state = loaded.new_state(players, seed)
        self.humans = humans
        bots = {s: make_bot(bot_kind, loaded.game, s, seed) for s in range(players) if s not in humans}
        self.table = Table(loaded.game, self.state, bots, {s: bot_speed for s in bots}, seed)
        self.record = record
        self.clock = clock or Clock()
        self.read_line = read_line
        self.seen: list[str] = []          # the legal moves at the person's last look

    @classmethod
    def open(cls, file: str, options: dict, players: int | None, seed: int | None, bot_kind: str | None,
             record_path: str | None, human: Callable[[int], set[int]], bot_speed: float = 2.0,
             fake_clock: float | None = None) -> "TerminalGame":
        loaded = load_game(file, options)
        bot_kind = bot_kind or ("priority" if loaded.game.bot_priority else "greedy")
        players = players or loaded.game.default_players
        humans = human(players)
        seed = random.SystemRandom().randrange(1, 10**9) if seed is None else seed
        writer = None
        if record_path:
            try:
                stream = open(record_path, "w", encoding="utf-8")
            except OSError as error:
                raise RulesError(f"cannot write the record {record_path}: {error.strerror}") from None
            writer = RecordWriter(stream, Record(loaded.name, loaded.digest(), file, loaded.options, seed, players))
        return cls(loaded, players, seed, bot_kind, writer, humans, bot_speed, Clock(fake_clock))

    def run(self) -> int:
        click.echo(f"{self.loaded.name}: {self.players} players, seed {self.seed}. Type 'help' for help.")
        try:
            while not self.state.over:
                seat = self._human_to_act()
                if seat is None:
                    self._note(self.table.next_bot_action())
                elif not self._human_turn(seat):
                    return self._stopped("game stopped")
        except EOFError:
            return self._stopped("input ended; game stopped")
        except KeyboardInterrupt:
            self._stopped("interrupted; game stopped")
            return 130
        click.echo(render_view(self.loaded.view(self.state, None), color=True))
        click.echo(final_table(self.loaded, self.state))
        return 0

    def _human_to_act(self) -> int | None:
        """The person to ask now: the one whose turn it is, or in free play the first person at
        the table; None when a bot is to move."""
        if self.state.current is not None:
            return self.state.current if self.state.current in self.humans else None
        return min(self.humans) if self.humans else None

    def _stopped(self, why: str) -> int:
        kept = f"; the record so far is in {self.record.stream.name}" if self.record else ""
        click.echo(f"\n{why}{kept}.")
        return 0

    def _note(self, action: Action | None) -> None:
        if action is None:
            return
        if self.record:
            self.record.add(action.seat, action.move.text, action.time)
        click.echo(f"P{action.seat + 1}: {action.move.text}")

    def _human_turn(self, seat: int) -> bool:
        """Ask until the person plays a move; False when they quit."""
        self._show(seat)
        while not self.state.over:
            entry = self.read_line(f"P{seat + 1}> ").strip()
            moment = self.clock.line_typed()
            if self.state.current is None:
                self._catch_up(moment)
            word = entry.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                click.echo(HELP)
            elif word in ("board", ""):
                if word or self.state.current is None:
                    self._show(seat)
            elif word == "moves":
                click.echo(render_moves(self._legal(seat)))
            elif self._try(seat, entry, moment):
                return True
        return True

    def _catch_up(self, moment: float) -> None:
        """Every bot action due before ``moment`` happens, shown as 'since your last look'."""
        while not self.state.over:
            action = self.table.next_bot_action(until=moment)
            if action is None:
                return
            self._note(action)

    def _try(self, seat: int, entry: str, moment: float) -> bool:
        moves = self.loaded.legal_moves(self.state, seat)
        try:
            move = self._pick(entry, moves, seat)
        except IllegalMove as error:
            click.echo(self._refusal(entry, error))
            return False
        if move is None:
            return False
        action = self.table.play(seat, move, moment if self.state.current is None else self.table.now)
        if self.record:
            self.record.add(seat, action.move.text, action.time)
        click.echo(f"P{seat + 1}: {action.move.text}")
        return True

    def _refusal(self, entry: str, error: IllegalMove) -> str:
        wanted = " ".join(entry.split()).lower()
        if any(text.lower().startswith(wanted) for text in self.seen) and self.state.current is None:
            return f"too slow: '{entry}' was possible when you looked, but the others moved first"
        return f"error: {error.message}" + (f"\nhint: {error.hint}" if error.hint else "")

    def _pick(self, entry: str, moves: list, seat: int) -> Any:
        if entry.isdigit():
            number = int(entry)
            if 1 <= number <= len(self.seen):
                return find_move(self.loaded.game, self.state, self.seen[number - 1], seat)
            click.echo(f"error: there is no move {number}; choose 1 to {len(self.seen)}")
            return None
        return find_move(self.loaded.game, self.state, entry, seat)

    def _legal(self, seat: int) -> list[str]:
        self.seen = [m.text for m in self.loaded.legal_moves(self.state, seat)]
        return self.seen

    def _show(self, seat: int) -> None:
        click.echo(render_view(self.loaded.view(self.state, seat), color=True))
        moves = self._legal(seat)
        click.echo(f"Your moves (P{seat + 1}):" if moves else "You have no move now; press Enter to look again.")
        if moves:
            click.echo(render_moves(moves))
