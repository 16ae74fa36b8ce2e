"""Playing a game in a terminal: people type moves, bots answer, a record is kept.

Works with a pipe on standard input, so a game can be scripted. A bad entry gets a reason and a
new prompt; end of input or Ctrl-C stops the game with a message and keeps the record.
"""
from __future__ import annotations

import random
from typing import Any, Callable

import click

from .agents import make_bot
from .api import LoadedGame, load_game
from .engine import find_move
from .errors import IllegalMove, OptionError, RulesError
from .records import Record, RecordWriter
from .render import render_moves, render_view

HELP = """Type the number of a move, or the move itself (a unique beginning is enough).
  board   show the table again
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


class TerminalGame:
    def __init__(self, loaded: LoadedGame, players: int, seed: int, bot_kind: str,
                 record: RecordWriter | None, read_line: Callable[[str], str] = input):
        self.loaded = loaded
        self.players = players
        self.seed = seed
        self.state = loaded.new_state(players, seed)
        self.bots = {s: make_bot(bot_kind, loaded.game, s, seed) for s in range(players)}
        self.humans: set[int] = {0}
        self.record = record
        self.read_line = read_line

    @classmethod
    def open(cls, file: str, options: dict, players: int | None, seed: int | None, bot_kind: str,
             record_path: str | None) -> "TerminalGame":
        loaded = load_game(file, options)
        players = players or loaded.game.default_players
        seed = random.SystemRandom().randrange(1, 10**9) if seed is None else seed
        writer = None
        if record_path:
            try:
                stream = open(record_path, "w", encoding="utf-8")
            except OSError as error:
                raise RulesError(f"cannot write the record {record_path}: {error.strerror}") from None
            writer = RecordWriter(stream, Record(loaded.name, loaded.digest(), file, loaded.options, seed, players))
        return cls(loaded, players, seed, bot_kind, writer)

    def run(self) -> int:
        click.echo(f"{self.loaded.name}: {self.players} players, seed {self.seed}. Type 'help' for help.")
        try:
            while not self.state.over:
                seat = self.loaded.acting_seats(self.state)[0]
                if seat in self.humans:
                    if not self._human_turn(seat):
                        return self._stopped("game stopped")
                else:
                    self._play(seat, self.bots[seat].choose(self.state, self.loaded.legal_moves(self.state, seat)))
        except EOFError:
            return self._stopped("input ended; game stopped")
        except KeyboardInterrupt:
            self._stopped("interrupted; game stopped")
            return 130
        click.echo(render_view(self.loaded.view(self.state, None)))
        click.echo(final_table(self.loaded, self.state))
        return 0

    def _stopped(self, why: str) -> int:
        kept = f"; the record so far is in {self.record.stream.name}" if self.record else ""
        click.echo(f"\n{why}{kept}.")
        return 0

    def _play(self, seat: int, move: Any) -> None:
        self.loaded.apply(self.state, move, seat)
        if self.record:
            self.record.add(seat, move.text)
        click.echo(f"P{seat + 1}: {move.text}")

    def _human_turn(self, seat: int) -> bool:
        """Ask until a legal move is played; False when the player quits."""
        self._show(seat)
        while True:
            moves = self.loaded.legal_moves(self.state, seat)
            entry = self.read_line(f"P{seat + 1}> ").strip()
            if not entry:
                continue
            word = entry.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                click.echo(HELP)
            elif word == "board":
                self._show(seat)
            elif word == "moves":
                click.echo(render_moves([m.text for m in moves]))
            else:
                move = self._pick(entry, moves, seat)
                if move is not None:
                    self._play(seat, move)
                    return True

    def _pick(self, entry: str, moves: list, seat: int) -> Any:
        if entry.isdigit():
            number = int(entry)
            if 1 <= number <= len(moves):
                return moves[number - 1]
            click.echo(f"error: there is no move {number}; choose 1 to {len(moves)}")
            return None
        try:
            return find_move(self.loaded.game, self.state, entry, seat)
        except IllegalMove as error:
            click.echo(f"error: {error.message}" + (f"\nhint: {error.hint}" if error.hint else ""))
            return None

    def _show(self, seat: int) -> None:
        click.echo(render_view(self.loaded.view(self.state, seat)))
        click.echo(f"Your moves (P{seat + 1}):")
        click.echo(render_moves([m.text for m in self.loaded.legal_moves(self.state, seat)]))
