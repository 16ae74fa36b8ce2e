"""Playing a game in a terminal: people type moves, bots answer, a record is kept.

Works with a pipe on standard input, so a game can be scripted. A bad entry gets a reason and a
new prompt; end of input (or no standard input at all) or Ctrl-C stops the game with a message,
a non-zero exit and the record so far. The seed, from which every hidden card follows, is shown
at the end, or during the game on request with a warning.

In free play (a phase without turns) the bots act at their speed on the clock while the person
thinks: when a line is typed, every bot action due before that moment happens first, then the
person's move, at the moment it was entered. A move that lost its race is refused, naming who
took it; nothing else changes and the list is shown again, numbered afresh (a number always
refers to the list just shown). A hand's end stops play until every person has pressed Enter:
no move crosses from one hand to the next. The clock is the real one, or a fake one (each typed
line takes a fixed time) that makes a game exactly reproducible.

Several people may share the terminal in a game with turns: the screen is handed over between
them ("pass to P2, press Enter"). The other seats' private moves are shown in their public form.
"""
from __future__ import annotations

import contextlib
import random
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, cast

import click

from ..engine.loaded import LoadedGame, load_game
from ..errors import IllegalMove, OptionError, RecordError, RulesError
from ..load.bundled import resolve_game
from .record_writer import RecordWriter
from .records import Record, relative_game_path
from .render import render_moves, render_view
from .session import Session
from .signals import exit_code, stop_reason

if TYPE_CHECKING:
    from ..engine.moves import Move
    from ..engine.state import State

HELP = """Type the number of a move, or the move itself (a unique beginning is enough; cards as
shown, 5♠, or as written, 5S).
  board   show the table again (an empty line too, in free play)
  moves   list your legal moves
  undo    take back your last move (in turns against bots, when nothing was revealed since)
  seed    show the seed (it gives away every hidden card)
  help    this text; 'help NAME' describes the move NAME
  quit    stop the game (the record so far is kept)"""

EXIT_NOT_FINISHED = 1
MOVE_NUMBER = re.compile(r"[0-9]+")     # ASCII digits only: int() also reads '٣' and refuses '²'
SHOWN_DIGITS = 12                       # a longer number typed is shown cut short
MAX_ENTRY_CHARS = 1_000                 # a longer line is not a move: refused, not echoed
SEED_WARNING = "warning: with the seed anyone can work out every hidden card; the game goes on"


def read_input(prompt: str) -> str:
    """A line from standard input; end of input when there is none at all (a closed stdin) or
    it cannot be read (the terminal was closed: EIO)."""
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    try:
        if sys.stdin.isatty() and sys.stdout.isatty():
            return input(prompt)        # line editing draws the prompt again
        # Off a terminal, input() drops an error raised while it writes its prompt: a Ctrl-C
        # that came just then would be lost, and the game would wait for a line. Written here,
        # the prompt lets it through.
        sys.stdout.write(prompt)
        sys.stdout.flush()
        return input()
    except OSError:
        raise EOFError from None


def tell(text: str, err: bool = False) -> None:
    """A line printed as the game stops: a terminal that is gone (EIO once it was closed) is no
    error, the record being already kept."""
    with contextlib.suppress(OSError):
        click.echo(text, err=err)


def parse_seats(text: str, players: int) -> set[int]:
    """``"1,3"`` -> {0, 2}; ``"none"`` -> no human. Seats are numbered from 1, as the table shows them."""
    if text.strip().lower() in ("none", ""):
        return set()
    seats = set()
    for part in text.split(","):
        try:
            seat = int(part)
        except ValueError:
            raise OptionError(f"--human takes seat numbers like 1,3 or 'none', not '{text}'") from None
        if seat == 0:
            raise OptionError("--human: seats are numbered from 1 (P1 is seat 1); for bots only, give --human none")
        if not 1 <= seat <= players:
            raise OptionError(f"--human: there is no seat {seat} in a game of {players}")
        seats.add(seat - 1)
    return seats


def unfinished_line(loaded: LoadedGame, state: State) -> str:
    """What a record that stops before the game's end left: where, and that the table is so far."""
    who = "in free play" if state.current is None else f"P{state.current + 1} to play"
    phase = loaded.game.phase_names[state.phase]
    return f"unfinished: the record stops in round {state.round}, phase '{phase}', {who}; the standings so far:"


def final_table(loaded: LoadedGame, state: State) -> str:
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
    """Seconds of play since the game started: the real clock, or a fake one that advances
    ``step`` seconds for each line a person types. The time between hands (``pause`` to
    ``resume``) is not play: the real clock leaves it out."""

    def __init__(self, step: float | None = None, monotonic=time.monotonic):
        self.step = step
        self.monotonic = monotonic
        self.started = monotonic()
        self.paused_at: float | None = None
        self.fake = 0.0

    def line_typed(self) -> float:
        if self.step is None:
            moment = self.paused_at if self.paused_at is not None else self.monotonic()
            return moment - self.started
        self.fake += self.step
        return self.fake

    def pause(self) -> None:
        if self.paused_at is None:
            self.paused_at = self.monotonic()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.started += self.monotonic() - self.paused_at
            self.paused_at = None


FREE_PLAY_CROWD = ("several people cannot share one keyboard in free play, where everyone moves at "
                   "once; play together over the network (rules serve), each at their own screen, "
                   "or choose one seat with --human")
HANDOVER_LINES = 40     # blank lines that push the last player's screen out of sight


def open_session(file: str, options: dict, players: int | None, seed: int | None, bot_kind: str | None,
                 record_path: str | None, human: Callable[[int], set[int]], bot_speed: float = 2.0,
                 full_record: bool = True) -> Session:
    """A session of the game in ``file`` (or the bundled game of that name): loaded, seats given
    out, the record opened: a full record (with the seed, written when the game ends) or, with
    ``full_record`` false, a player's record (no seed)."""
    loaded = load_game(resolve_game(file), options)
    bot_kind = bot_kind or ("priority" if loaded.game.bot_priority else "greedy")
    players = players or loaded.game.default_players
    humans = human(players)
    if len(humans) > 1 and has_free_play(loaded):
        raise OptionError(FREE_PLAY_CROWD)
    seed = random.SystemRandom().randrange(1, 10**9) if seed is None else seed
    writer = None
    if record_path:
        # A player's record is the one person's; with several people (or none), a spectator's.
        owner = next(iter(humans)) if len(humans) == 1 else None
        record = Record(loaded.name, loaded.digest(), file, loaded.options, seed, players,
                        file_abs=str(Path(loaded.spec.file).resolve()), full=full_record, seat=owner,
                        file_rel=relative_game_path(loaded.spec.file, record_path))
        writer = RecordWriter.open(record_path, record, loaded.spec.file)
    return Session(loaded, players, seed, bot_kind, humans, bot_speed, writer)


def has_free_play(loaded: LoadedGame) -> bool:
    return any(phase.turns is None for phase in loaded.game.phases)


class TerminalGame:
    """The line mode: the board and the numbered moves printed, one line read per entry."""

    def __init__(self, session: Session, clock: Clock | None = None, read_line: Callable[[str], str] = read_input,
                 color: bool = True, handover_blank: bool = False):
        self.session = session
        self.loaded = session.loaded
        self.state = session.state
        self.clock = clock or Clock()
        self.read_line = read_line
        self.color = color
        self.handover_blank = handover_blank     # a terminal: push the last screen out of sight
        self.seen: list[str] = []          # the moves as last listed: what the numbers refer to
        self.seen_moves: list = []
        self.shown_log = 0                 # how much of the log has been printed
        self.shown_hand: Any = None        # the end of hand last printed
        self.last_human: int | None = None

    @classmethod
    def open(cls, file: str, options: dict, players: int | None, seed: int | None, bot_kind: str | None,
             record_path: str | None, human: Callable[[int], set[int]], bot_speed: float = 2.0,
             fake_clock: float | None = None, color: bool = True, full_record: bool = True) -> "TerminalGame":
        session = open_session(file, options, players, seed, bot_kind, record_path, human, bot_speed, full_record)
        return cls(session, Clock(fake_clock), color=color)

    @property
    def viewer(self) -> int | None:
        """Whose eyes the printed log is for: the one person, or nobody in particular."""
        humans = self.session.humans
        return next(iter(humans)) if len(humans) == 1 else None

    def run(self) -> int:
        s = self.session
        click.echo(f"{self.loaded.name}: {s.players} players. Type 'help' for help.")
        try:
            return self._play()
        except RecordError as error:
            click.echo(f"\n{error.render()}", err=True)
            click.echo(s.record_lost(), err=True)
            return EXIT_NOT_FINISHED

    def _play(self) -> int:
        s = self.session
        try:
            while not self.state.over:
                if s.paused:
                    self._between_hands()
                    continue
                seat = s.human_to_act()
                if seat is None:
                    s.advance()
                    self._print_log()
                elif not self._human_turn(seat):
                    return self._stopped("game stopped before its end", 0)
        except EOFError:
            return self._stopped("input ended before the game was over: the game is not finished",
                                 EXIT_NOT_FINISHED)
        except KeyboardInterrupt as interrupt:       # Ctrl-C, SIGTERM, SIGHUP (``signals``)
            return self._stopped(f"{stop_reason(interrupt)}: the game is not finished", exit_code(interrupt))
        except RecordError:
            raise
        except RulesError as error:
            return self._failed(error)
        try:
            self._print_log()
            click.echo(render_view(self.loaded.view(self.state, None), color=self.color, words=self.session.words))
            click.echo(final_table(self.loaded, self.state))
        except RulesError as error:
            return self._failed(error)
        s.close_record()
        click.echo(s.seed_line(ended=True))
        return 0

    def _failed(self, error: RulesError) -> int:
        """An error of the game's rules (or a stalled game): reported, the record kept, exit 1."""
        click.echo(error.render(), err=True)
        return self._stopped("game stopped by an error", EXIT_NOT_FINISHED)

    def _stopped(self, why: str, code: int) -> int:
        self.session.close_record()
        tell(f"\n{why}{self.session.kept_text()}.\n{self.session.seed_line()}")
        return code

    def _print_log(self) -> None:
        log = self.session.log
        for entry in log[self.shown_log:]:
            click.echo(self.session.entry_text(entry, self.viewer))
        self.shown_log = len(log)
        if self.session.hand_end is not self.shown_hand and self.session.hand_end is not None:
            self.shown_hand = self.session.hand_end        # the hand's last position, before it is cleared
            click.echo(f"== end of round {self.shown_hand.round} ==")
            click.echo(render_view(cast(dict, self.session.hand_end_view(self.viewer)), color=self.color,
                                   words=self.session.words).split("\n", 1)[1])

    def _between_hands(self) -> None:
        """Every person presses Enter (the hand's end is on screen); the next hand starts at 'Go'."""
        self._print_log()
        click.echo(f"== hand over: round {self.state.round} is next ==")
        self.clock.pause()
        for seat in sorted(self.session.humans):
            self.read_line(f"P{seat + 1}: press Enter when ready for the next hand ")
        self.clock.resume()
        moment = self.clock.line_typed()
        click.echo("Go!")
        self.session.resume(moment)

    def _hand_over(self, seat: int) -> None:
        """Several people at one terminal: the last one's screen goes out of sight first."""
        if len(self.session.humans) > 1 and self.last_human not in (None, seat):
            if self.handover_blank:
                click.echo("\n" * HANDOVER_LINES)
            self.read_line(f"pass to P{seat + 1}, press Enter ")
        self.last_human = seat

    def _human_turn(self, seat: int) -> bool:
        """Ask until the person plays a move (or the hand ends); False when they quit."""
        self.session.check_stalled()
        self._hand_over(seat)
        self._print_log()
        self._show(seat)
        s = self.session
        while not self.state.over and not s.paused:
            entry = self.read_line(f"P{seat + 1}> ").strip()
            moment = self.clock.line_typed()
            word = entry.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                click.echo(HELP)
            elif word == "seed":
                click.echo(f"seed {s.seed} ({SEED_WARNING})")
            elif word == "undo":
                done, said = s.undo()
                click.echo(said)
                if done:
                    self.shown_log = min(self.shown_log, len(s.log))
                    self._show(seat)
            elif word.startswith(("help ", "? ")):
                name = word.split(None, 1)[1]
                click.echo(s.describe(name) or f"no move called '{name}' has a description")
            elif word in ("board", "", "moves"):
                if word or s.free_play:
                    self._catch_up(moment)
                    if s.paused:           # the hand ended meanwhile: no board of the next one yet
                        return True
                    if word == "moves":
                        self._legal(seat)
                        click.echo(render_moves(self._move_words(seat)))
                    else:
                        self._show(seat)
            elif self._try(seat, entry, moment):
                return True
        return True

    def _catch_up(self, moment: float) -> None:
        if self.session.free_play:
            self.session.advance(until=moment)
            self.session.check_stalled()
        self._print_log()

    def _try(self, seat: int, entry: str, moment: float) -> bool:
        """The entry read in the position last shown, then submitted at ``moment``."""
        s = self.session
        try:
            move = self._pick(entry, seat)
        except IllegalMove as error:
            click.echo(s.refusal_text(error))
            self._refresh(seat, moment)
            return False
        submitted = s.submit(seat, move, moment)
        self._print_log()
        if submitted.refusal:
            click.echo(submitted.refusal)
            self._refresh(seat, moment)
            return False
        return True

    def _refresh(self, seat: int, moment: float) -> None:
        """After a refusal in free play the position has moved on: show it, numbered afresh."""
        if self.session.free_play:
            self._catch_up(moment)
            if not self.session.paused:
                self._show(seat)

    def _pick(self, entry: str, seat: int) -> Move:
        if MOVE_NUMBER.fullmatch(entry):
            # Compared as text first: a number of thousands of digits is not converted.
            digits = entry.lstrip("0")
            if len(digits) <= len(str(len(self.seen))) and 1 <= int(entry) <= len(self.seen):
                return self.session.resolve(seat, self.seen[int(entry) - 1])
            shown = digits or "0"
            shown = shown if len(shown) <= SHOWN_DIGITS else shown[:SHOWN_DIGITS] + "..."
            raise IllegalMove(f"there is no move {shown}; choose 1 to {len(self.seen)}"
                              if self.seen else f"there is no move {shown}: you have no move now")
        if len(entry) > MAX_ENTRY_CHARS:
            raise IllegalMove(f"{len(entry):,} characters are too many for a move (at most {MAX_ENTRY_CHARS:,})")
        return self.session.resolve(seat, entry)

    def _legal(self, seat: int) -> list[str]:
        self.seen_moves = self.session.legal(seat)
        self.seen = [m.text for m in self.seen_moves]
        return self.seen

    def _move_words(self, seat: int) -> list[str]:
        """The moves last listed, as the player reads them."""
        return [self.session.words.move(m, seat) for m in self.seen_moves]

    def _show(self, seat: int) -> None:
        click.echo(render_view(self.loaded.view(self.state, seat), color=self.color, words=self.session.words))
        moves = self._legal(seat)
        click.echo(f"Your moves (P{seat + 1}):" if moves else "You have no move now; press Enter to look again.")
        if moves:
            click.echo(render_moves(self._move_words(seat)))
