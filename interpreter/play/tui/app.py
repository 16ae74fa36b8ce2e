"""The full-screen table (Textual): the status bar, the board, the values and the log, the list
of choices for the move being built, and a line to type a move with completion and history.

Keys: arrows and Enter (or a click) choose; 1-9 choose by number; Backspace or Escape go back
one choice; Tab moves to the board, where the arrows move a cursor over the cards, piles and
seats and Enter or space (or a click) picks one; ``/`` types a move (Tab or the right arrow
completes it, up and down recall earlier ones, Escape goes back to the list); ``?`` describes
the move; ``u`` takes back your last move (turns against bots); Ctrl+Q quits (the record is kept);
Ctrl-C stops the game as in the line mode (exit code 130, the record kept).
Typing ``seed`` shows the seed, with a warning; otherwise it is shown only once the table is
closed, with where the record is.
"""
from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap
import threading
from typing import TYPE_CHECKING, Any, Callable, ClassVar, cast

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Event, Key
from textual.suggester import SuggestFromList
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...errors import RecordError, RulesError
from ..card_text import card_text
from ..scores import ScoreWatch
from ..session import Session
from ..signals import STOPPING, Stopped, exit_code, handlers_kept, stop_reason
from ..terminal import EXIT_NOT_FINISHED, SEED_WARNING, final_table, tell
from .board import Board
from .builder import DONE
from .clock import RealClock, StepClock
from .controller import BETWEEN, COVER, OVER, PLAY, WATCH, Controller
from .help import HelpScreen
from .places import spot_at, spot_positions, step, without_spots
from .status import status_text
from .widgets import BoardPane, ChoiceList, MoveInput

if TYPE_CHECKING:
    from textual.events import Resize
    from .clock import SetClock

TICK_SECONDS = 0.05
TABLE_KEYS = frozenset("u")     # the letters the table keeps for itself (u: undo)
KEYS = ("keys: arrows+Enter or 1-9 choose, a click too; Tab: the board (arrows move, Enter or "
        "space picks a card or pile, a click too); Backspace/Esc back; / or a letter types a move (Tab or → "
        "completes, ↑↓ history); u undo (turns against bots); ? help; Ctrl+Q quit. ◀ marks the seat to act; "
        "a stock or pile picked that no move takes plays the one move that uses it (turning the stock)")


class TableApp(App):
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-darken-2; color: $text; }
    #main { height: 1fr; }
    #board { width: 1fr; padding: 0 1; overflow-y: auto; }
    #side { width: 40%; max-width: 64; border-left: solid $primary; }
    #prompt { height: auto; max-height: 2; background: $boost; }
    #notice { height: auto; max-height: 3; color: $warning; }
    #choices { height: 1fr; min-height: 4; border: none; padding: 0; }
    #log { height: 40%; border-top: solid $primary; }
    #entry { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit_game", "quit"), Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("question_mark", "describe", "help"),
        Binding("slash", "type_move", "type"), Binding("u", "undo", "undo"),
        Binding("backspace", "back", "back", show=False),
        Binding("escape", "back", "back", show=False),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)]]

    def __init__(self, session: Session, color: bool = True, fake_clock: float | None = None,
                 clock: RealClock | StepClock | SetClock | None = None, bot_delay: float = 0.4, auto: bool = True):
        if not color:
            os.environ["NO_COLOR"] = "1"      # Textual reads it when the app is made
        super().__init__()
        session.pause_every_hand = True        # the hand's end stays on screen until Enter
        self.session = session
        self.color = color
        self.auto = auto
        self.clock = clock or (StepClock(fake_clock) if fake_clock is not None else RealClock())
        self.controller = Controller(session, self.clock, bot_delay)
        self.board = Board(self.controller.viewer, color, session.game.layout, session.words)
        self.scores = ScoreWatch(session.loaded)
        self.exit_code = 0
        self.stopped_by: Stopped | None = None   # SIGTERM or SIGHUP closed the table
        self.failure: RulesError | None = None
        self._half_seconds = -1
        self._checked: Any = None        # the position last checked for a stalled game
        self.cursor: tuple | None = None  # the place under the board's cursor
        self._positions: dict = {}       # where each place of the board was drawn

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            yield BoardPane(id="board")
            with Vertical(id="side"):
                yield Static(id="prompt")
                yield Static(id="notice")
                yield ChoiceList(id="choices", markup=False)
                yield Static(id="log")
        yield MoveInput(id="entry", placeholder="/ type a move · Tab the board · u undo · ? help · Ctrl+Q quit",
                        select_on_focus=False)      # a letter typed at the table stays the first of the move

    def on_mount(self) -> None:
        self._stop_on_signals()
        self.title = self.session.loaded.name
        self.query_one("#choices").focus()
        self.tick()
        self.redraw()
        if self.auto:
            self.set_interval(TICK_SECONDS, self.tick)

    def on_resize(self, event: Resize) -> None:
        self.call_after_refresh(self.redraw)       # the status bar fits the new width

    def play(self) -> int:
        """Run full screen; afterwards the final table (or why it stopped), the seed and where the
        record is stay in the terminal. The exit code: 0 at the end or on quit, 1 after an error
        (of the game, or the record's), 130 on Ctrl-C, 128 + the signal on SIGTERM or SIGHUP."""
        interrupt = None
        try:
            with handlers_kept():                # the event loop takes SIGTERM and SIGHUP over
                self.run()
        except KeyboardInterrupt as stop:        # Ctrl-C
            interrupt = stop
        interrupt = interrupt or self.stopped_by
        try:
            return self._ended(interrupt)
        except RecordError as error:
            self.failure = error
        print(self.failure.render(), file=sys.stderr)
        print(self.session.record_lost(), file=sys.stderr)
        return EXIT_NOT_FINISHED

    def _stop_on_signals(self) -> None:
        """SIGTERM and SIGHUP close the table as Ctrl-C does, from inside the event loop: the
        terminal is restored and the record kept (raised between two of Textual's steps, the
        signal would leave its driver half stopped)."""
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for signum in STOPPING:
            loop.add_signal_handler(signum, self._stopped_by_signal, signum)

    def _stopped_by_signal(self, signum: int) -> None:
        self.stopped_by = Stopped(signum)
        self.exit()

    def _ended(self, interrupt: KeyboardInterrupt | None) -> int:
        s = self.session
        if isinstance(self.failure, RecordError):
            raise self.failure
        if self.failure is not None:
            print(self.failure.render(), file=sys.stderr)
            return self._stopped("game stopped by an error", EXIT_NOT_FINISHED)
        if interrupt is not None:
            return self._stopped(f"{stop_reason(interrupt)}: the game is not finished", exit_code(interrupt))
        if not s.state.over:
            return self._stopped("game stopped before its end", self.exit_code)
        print(final_table(s.loaded, s.state))
        s.close_record()
        print(s.seed_line(ended=True))
        return self.exit_code

    def _stopped(self, why: str, code: int) -> int:
        self.session.close_record()
        tell(f"{why}{self.session.kept_text()}.\n{self.session.seed_line()}")
        return code

    def _safely(self, action: Callable[..., object], *args: Any) -> None:
        """Run a step of the game; an error of the game (a limit reached...) ends the app with
        its message, printed once the screen is restored, never a traceback."""
        try:
            action(*args)
        except RulesError as error:
            self.failure = error
            self.exit()

    def screen_text(self) -> str:
        """The screen as plain text, line by line (for tests and text captures)."""
        return "\n".join(strip.text.rstrip() for strip in self.screen._compositor.render_strips())

    # -- drawing ---------------------------------------------------------------------------------
    def tick(self) -> None:
        self._safely(self._tick)

    def _tick(self) -> None:
        c = self.controller
        self._check_stalled()
        if c.tick() or c.marks_expired():
            self.redraw()
        elif c.session.free_play and int(self.clock.now() * 2) != self._half_seconds:
            self._half_seconds = int(self.clock.now() * 2)        # the clock in the status bar
            self.query_one("#status", Static).update(status_text(c.last_view or c.view(), self.session,
                                                                 self.clock.now(), c.mode, self.scores, self.size.width))

    def _check_stalled(self) -> None:
        """A game nobody can move in ends the table with its error (checked once per position)."""
        s = self.session
        position = (len(s.log), s.state.round, s.paused)
        if position != self._checked:
            self._checked = position
            s.check_stalled()

    def redraw(self) -> None:
        c = self.controller
        self.board.seat = c.viewer
        self.board.me = f"P{c.viewer + 1}" if c.viewer is not None else None
        view = c.last_view if c.last_view is not None else c.view()     # made once per change
        mode = c.mode
        self.query_one("#status", Static).update(status_text(view, self.session, self.clock.now(), mode, self.scores,
                                                             self.size.width))
        if mode == COVER:
            assert c.viewer is not None         # the screen is covered from a person
            self.query_one("#board", Static).update(Text(f"\n  The screen is hidden: pass it to P{c.viewer + 1}."))
        else:
            if mode in (BETWEEN, OVER) and self.session.hand_end is not None:
                view = cast(dict, self.session.hand_end_view(c.viewer))      # the hand as it ended
            targets, chosen = c.board_marks()
            cursor = self.cursor if self.focused is self.query_one("#board") else None
            board = self.board.table(view, c.marked(), cursor, targets, chosen, self.session.last_trick)
            self._positions = spot_positions(board)
            without_spots(board)
            board.append_text(self.board.values(view))
            if mode in (BETWEEN, OVER) and self.session.hand_parts:
                board.append_text(self.board.breakdown(self.session.hand_parts, view, self.session.hand_end.round))
            if mode == OVER:
                board.append("\n" + final_table(self.session.loaded, self.session.state) + "\n")
            self.query_one("#board", Static).update(board)
        self._draw_log(mode)
        self.query_one("#notice", Static).update(Text(_shown(c.notice)))
        self.query_one("#prompt", Static).update(Text(c.prompt(), style="bold"))
        self._draw_choices()
        entry = self.query_one("#entry", MoveInput)
        texts = c.seen_moves
        entry.suggester = SuggestFromList(c.seen_words + texts + [_shown(t) for t in texts], case_sensitive=False)

    def _draw_log(self, mode: str) -> None:
        log = self.query_one("#log", Static)
        lines = [] if mode == COVER else self.controller.log_lines()
        height, width = max(1, log.size.height or 8), max(8, log.size.width or 40)
        log.update(Text("\n".join(last_lines([_shown(line) for line in lines[-height:]], height, width))))

    def _draw_choices(self) -> None:
        choices = self.query_one("#choices", ChoiceList)
        options = self.controller.options()
        wanted = [(o.label, o.marked, o.enabled) for o in options]
        if getattr(choices, "_shown", None) == wanted:
            return
        choices._shown = wanted
        choices.clear_options()
        for n, option in enumerate(options):
            mark = ("[x] " if option.marked else "[ ] ") if isinstance(option.key, tuple) and option.key[0] == "toggle" else ""
            number = f"{n + 1}. " if n < 9 else "   "
            choices.add_option(ListOption(Text(number + mark + option.label), disabled=not option.enabled))
        if options:
            choices.highlighted = 0

    # -- keys ------------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option_index)

    def action_pick(self, number: int) -> None:
        """A number key chooses that choice, from the list or the board (not while typing)."""
        if self.focused is not self.query_one("#entry"):
            self._choose(number - 1)

    def _choose(self, index: int) -> None:
        self._safely(self._choose_option, index)

    def _choose_option(self, index: int) -> None:
        options = self.controller.options()
        if not 0 <= index < len(options):
            return
        key = options[index].key
        if not options[index].enabled and key != DONE:     # kept in its place, no longer possible
            self.controller.notice = f"'{options[index].label}' is no longer possible"
            self.redraw()
            return
        if key == "quit":
            self.exit()
            return
        self.controller.choose(key)
        self.redraw()

    # -- the board's cursor ----------------------------------------------------------------------
    def _cursor_number(self) -> int | None:
        spots = self.board.spots
        return spots.index(self.cursor) if self.cursor in spots else None

    def step_cursor(self, dx: int, dy: int) -> None:
        at = self._cursor_number()
        if at is None:
            at = self._first_own_spot()
            found = at
        else:
            found = step(self._positions, at, dx, dy)
        if found is not None:
            self.cursor = self.board.spots[found]
        self.redraw()

    def _first_own_spot(self) -> int | None:
        """Where the cursor starts: the first place of a card the seat may move, else the first."""
        for n, place in enumerate(self.board.spots):
            if place in self.controller.cards:
                return n
        return 0 if self.board.spots else None

    def pick_at_cursor(self) -> None:
        if self.cursor not in self.board.spots:
            self.step_cursor(0, 0)
            return
        self._safely(self._pick, self.cursor)

    def click_at(self, x: int, y: int) -> None:
        """A click on the board's text at column ``x`` of line ``y``."""
        number = spot_at(self._positions, x, y)
        if number is not None:
            self.pick_spot(number)

    def pick_spot(self, number: int) -> None:
        if 0 <= number < len(self.board.spots):
            self.cursor = self.board.spots[number]
            self._safely(self._pick, self.cursor)

    def _pick(self, place: tuple) -> None:
        c = self.controller
        if c.mode != PLAY:
            self._choose(0)          # between hands, a hidden screen: the one choice ("ready")
            return
        shown = None
        if place[0] == "card":
            view = c.last_view or c.view()
            label = view["zones"][place[1]][place[2]][place[3]]
            shown = card_text(label) if label else None
        c.pick(place, shown)
        self.redraw()

    async def action_back(self) -> None:      # as Textual's own (going back a screen), which it replaces
        self.controller.back()
        self.redraw()

    def action_undo(self) -> None:
        self._safely(self.controller.undo)
        self.redraw()

    def action_describe(self) -> None:
        self.push_screen(HelpScreen(self.controller.help_text() + "\n\n" + KEYS))

    def action_focus_board(self) -> None:
        self.query_one("#board").focus()

    def action_focus_choices(self) -> None:
        self.query_one("#choices").focus()

    def action_type_move(self) -> None:
        # At once, not after the keys already read: '/discard 3D' typed quickly is typed whole.
        self.screen.set_focus(self.query_one("#entry"))

    async def on_event(self, event: Event) -> None:
        # Keys are read here before any widget has them, in the order typed: the entry takes the
        # focus at once, so the keys typed right after ('/discard 3D' pasted, or typed fast) follow.
        if isinstance(event, Key) and not event.is_forwarded and self._begins_typed_move(event):
            return
        await super().on_event(event)

    def _begins_typed_move(self, event: Key) -> bool:
        """'/', or a letter that is not a key of the table's own (u: undo), typed at the table:
        the entry takes it, as '/' then that letter would (typing 'play 7H' never picks by its 7)."""
        entry = self.query_one("#entry", MoveInput)
        letter = event.character
        if self.focused is entry or len(self.screen_stack) > 1 or letter is None:
            return False
        if event.key == "slash":
            self.screen.set_focus(entry)
            return True
        if not letter.isalpha() or letter in TABLE_KEYS:
            return False
        self.screen.set_focus(entry)
        entry.insert_text_at_cursor(letter)
        return True

    def action_quit_game(self) -> None:
        self.exit()

    def action_interrupt(self) -> None:
        """Ctrl-C, a key on the full screen: the game stops as Ctrl-C stops it in the line mode."""
        self.stopped_by = Stopped(signal.SIGINT)
        self.exit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._safely(self._submitted, event)

    def _submitted(self, event: Input.Submitted) -> None:
        entry = self.query_one("#entry", MoveInput)
        text = event.value.strip()
        entry.remember(text)
        word = text.lower()
        if word in ("quit", "exit"):
            self.exit()
            return
        if word in ("help", "?"):
            self.action_describe()
        elif word == "undo":
            self.controller.undo()
            entry.value = ""
        elif word == "seed":
            self.controller.notice = f"seed {self.session.seed} ({SEED_WARNING})"
            entry.value = ""
        elif self.controller.mode in (BETWEEN, COVER):
            self.controller.choose(None)
        elif text and self.controller.typed(text):
            entry.value = ""
            self.query_one("#choices").focus()      # the keys work again: the move is made
        elif not text:
            self.controller.notice = ""
        self.redraw()


def last_lines(lines: list[str], height: int, width: int) -> list[str]:
    """The last of ``lines`` that fit ``height`` rows of ``width`` once long ones wrap: the newest
    line is always whole on screen."""
    kept: list[str] = []
    rows = 0
    for line in reversed(lines):
        need = len(textwrap.wrap(line, width)) or 1
        if kept and rows + need > height:
            break
        kept.append(line)
        rows += need
    return kept[::-1]


def _shown(text: str) -> str:
    """A move's text with its cards as the board shows them (``play 5♠``)."""
    return " ".join(card_text(word) for word in text.split(" "))


__all__ = ["TableApp", "WATCH"]
