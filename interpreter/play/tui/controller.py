"""What the full-screen table shows and does, without any drawing: whose eyes the screen is for,
the move being built, the bots' turns and their clock, the pause between hands, the hand-over
between people sharing the screen, and the notices ("too slow: ...").

The app (``app.py``) calls ``tick`` on a timer and the choice methods on keys; after each it
redraws from ``view``, ``options`` and ``notice``.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ...errors import IllegalMove
from ..pile_moves import first_zones, own_pile
from ..preview import score_preview
from ..scores import ScoreWatch
from ..session import Session
from ..terminal import MAX_ENTRY_CHARS
from ..words import rules_text
from .board import changed_piles
from .builder import DONE, MoveBuilder, Option, stable_key
from .places import candidates, places_of

if TYPE_CHECKING:
    from ...engine.moves import Move
    from .clock import RealClock, SetClock, StepClock

MARK_SECONDS = 1.5      # how long a pile that just changed stays marked
GONE_SECONDS = 2.0      # how long a choice no longer possible keeps its place (free play)

PLAY, COVER, BETWEEN, OVER, WATCH = "play", "cover", "between", "over", "watch"


class Controller:
    def __init__(self, session: Session, clock: RealClock | StepClock | SetClock, bot_delay: float = 0.4):
        self.session = session
        self.clock = clock
        self.bot_delay = bot_delay          # in turns: real seconds between two bot moves
        self.kinds = {n: [p.kind for p in m.params] for n, m in session.game.moves.items()}
        self.pile_moves = first_zones(session.game.spec.data)
        self.watch = ScoreWatch(session.loaded)
        self.previews: dict[str, str | None] = {}    # a move's score preview, in the position shown
        # The choices as numbered for the path so far, and when each of those gone went.
        self.kept_options: tuple = ((), [], {})
        humans = sorted(session.humans)
        self.viewer: int | None = humans[0] if humans else None
        self.uncovered: int | None = self.viewer
        self.builder: MoveBuilder | None = None
        self.seen_moves: list[str] = []
        self.seen_words: list[str] = []     # the same moves as the person reads them
        self.notice = ""
        self.last_view: dict | None = None
        self.marks: dict[tuple, float] = {}
        self.cards: dict[tuple, Any] = {}    # the places of the cards the seat's moves use
        self.next_bot_at = 0.0
        self.refresh()

    # -- what is shown ---------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        s = self.session
        if s.state.over:
            return OVER
        if s.paused:
            return BETWEEN
        if not s.humans:
            return WATCH
        if self.uncovered != self.viewer:
            return COVER
        return PLAY

    def view(self) -> dict:
        return self.session.view(self.viewer)

    def options(self) -> list[Option]:
        mode = self.mode
        if mode == BETWEEN:
            return [Option("ready: Go!", "ready")]
        if mode == COVER:
            assert self.viewer is not None      # the screen is covered from a person
            return [Option(f"I am P{self.viewer + 1}: show my cards", "uncover")]
        if mode == OVER:
            return [Option("quit", "quit")]
        if mode == WATCH or self.builder is None:
            return []
        options = self._stable(self.builder.options())
        shown = [self._preview(option) if option.enabled else None for option in options]
        if all(p in (None, "+0") for p in shown):      # nothing to tell apart: no previews (as move_previews)
            return options
        return [o if p is None else Option(f"{o.label}  {p}", o.key, o.marked, o.enabled) for o, p in zip(options, shown)]

    def _stable(self, options: list[Option]) -> list[Option]:
        """In free play the choices keep their numbers while the bots move: one seen before keeps
        its place (shown disabled for ``GONE_SECONDS`` once it is no longer possible, then the list
        closes up), new ones come after. Once the person chooses (the path changes), or in turns,
        the list is as it comes."""
        assert self.builder is not None     # ``options``: a move is being built
        keys = [o.key for o in options]
        path = (len(self.builder.actions), self.builder.path())
        if not self.session.free_play or any(isinstance(k, tuple) and k[0] in ("toggle", "member") for k in keys):
            self.kept_options = ((), [], {})
            return options
        if path != self.kept_options[0]:
            self.kept_options = (path, options, {})
            return options
        now, gone = self.clock.now(), self.kept_options[2]
        fresh = {stable_key(o.key): o for o in options}
        kept = []
        for old in self.kept_options[1]:
            key = stable_key(old.key)
            if key in fresh:
                kept.append(fresh.pop(key))
                gone.pop(key, None)
            elif now - gone.setdefault(key, now) < GONE_SECONDS:
                kept.append(Option(old.label, old.key, enabled=False))
        kept += list(fresh.values())
        self.kept_options = (path, kept, gone)
        return kept

    def _preview(self, option: Option) -> str | None:
        """For a choice that makes one move, what that move would score now (``+28``), where the
        game has a score and the preview tells nothing new (``preview.py``)."""
        assert self.builder is not None and self.viewer is not None     # ``options``: a person builds a move
        moves = self.builder.moves_with(option.key) if self.session.game.score is not None else []
        if len(moves) != 1:
            return None
        move = moves[0]
        if move.text not in self.previews:
            self.previews[move.text] = score_preview(self.session, self.watch, self.last_view or self.view(),
                                                     self.viewer, move)
        return self.previews[move.text]

    def prompt(self) -> str:
        mode = self.mode
        if mode == BETWEEN:
            return "Hand over. Enter when ready."
        if mode == COVER:
            assert self.viewer is not None      # the screen is covered from a person
            return f"Pass the screen to P{self.viewer + 1}, then press Enter."
        if mode == OVER:
            return "Game over."
        if mode == WATCH:
            return "The bots are playing."
        assert self.viewer is not None          # a person plays
        if not self.seen_moves:
            return "You have no move now: wait for the others."
        path = self.builder.path() if self.builder else ""
        return f"P{self.viewer + 1}, your move: {path}" if path else f"P{self.viewer + 1}, choose a move"

    def marks_expired(self) -> bool:
        """Whether a pile's mark has run out since the last drawing (time to draw it plain)."""
        now = time.monotonic()
        return any(t <= now for t in self.marks.values())

    def marked(self) -> frozenset:
        now = time.monotonic()
        self.marks = {k: t for k, t in self.marks.items() if t > now}
        return frozenset(self.marks)

    def log_lines(self) -> list[str]:
        s = self.session
        banner = f"{s.loaded.name}: {s.players} players"     # no seed: it gives away every hidden card
        return [banner] + s.log_lines(self.viewer)

    def help_text(self) -> str:
        """The moves possible now, each described; then the game's rules in brief and its legend."""
        s = self.session
        name = self.builder.name if self.builder and self.builder.name else None
        names = [name] if name else list(dict.fromkeys(t.split()[0] for t in self.seen_moves))
        lines = [f"{s.words.move_name(n)}: {s.describe(n) or '(no description)'}" for n in names]
        lines = lines or ["No move to make now."]
        return "\n".join(lines + rules_text(s.words))

    # -- time ------------------------------------------------------------------------------------
    def tick(self) -> bool:
        """Let the bots act: in free play every action due by now; in turns one move at a time,
        ``bot_delay`` apart (all of them at once when it is 0). True when something changed."""
        s = self.session
        if s.paused or s.state.over or self.mode == COVER:
            return False
        if s.free_play:
            changed = bool(s.advance(until=self.clock.now()))
        elif s.human_to_act() is not None or time.monotonic() < self.next_bot_at:
            changed = False
        else:
            changed = bool(s.advance(turns_only=True, limit=1 if self.bot_delay else None))
            self.next_bot_at = time.monotonic() + self.bot_delay
        if changed:
            self.refresh()
        return changed

    # -- the person's choices --------------------------------------------------------------------
    def choose(self, key: Any) -> None:
        mode = self.mode
        if mode == BETWEEN:
            self.clock.resume()
            self.clock.acted()
            self.session.resume(self.clock.now())
            self.notice = "Go!"
        elif mode == COVER:
            self.uncovered = self.viewer
            self.last_view = None
        elif mode == PLAY and self.builder is not None:
            if key == DONE and not any(o.key == DONE and o.enabled for o in self.builder.options()):
                self.notice = "that choice is not a legal move: toggle others"
                return
            self.notice = ""
            self.builder.choose(key)
            if self._made():
                return
        self.refresh()

    def pick(self, place: tuple, shown: str | None = None) -> None:
        """A place of the board picked (``places.py``): a card, a pile, a seat, a die; ``shown``
        names it in a refusal (a card no move uses)."""
        if self.mode != PLAY or self.builder is None:
            self.notice = "there is nothing to pick now" if self.mode == PLAY else ""
            return
        refusal = self.builder.pick(candidates(place, self.last_view or self.view(), self.cards), shown, place)
        if refusal is not None and self._pile_move(place):
            return
        if refusal is not None:
            self.notice = refusal
            return
        self.notice = ""
        if not self._made():
            self.refresh()

    def _pile_move(self, place: tuple) -> bool:
        """A pile of the seat's own (or a shared one) picked that no move takes as a value: the one
        legal move without parameters whose rules name its zone first is made (the stock picked
        turns it); with several, the choice narrows to them. False when there is none."""
        if place[0] != "pile":          # an empty pile, or one whose cards are all hidden
            return False
        assert self.builder is not None     # ``pick``: a move is being built
        s = self.session
        if own_pile(s.game, s.state, place[1], self.viewer) != place[2]:
            return False
        moves = [m for m in self.builder.matching() if not m.args and self.pile_moves.get(m.name) == place[1]]
        if len(moves) == 1:
            self.notice = ""
            self.submit(moves[0])
            return True
        if moves:
            self.builder.narrow_to(moves)
            self.notice = ""
            self.refresh()
        return bool(moves)

    def board_marks(self) -> tuple[frozenset, frozenset]:
        """The places the move being built may use next, and those chosen for it already."""
        if self.builder is None or self.mode != PLAY:
            return frozenset(), frozenset()
        view = self.last_view or self.view()
        chosen = places_of(self.builder.chosen_values(), view, self.cards) | set(self.builder.chosen_places())
        return places_of(self.builder.current_values(), view, self.cards), frozenset(chosen)

    def _made(self) -> bool:
        """Submit the move once every choice is made; True when it was submitted."""
        assert self.builder is not None     # ``choose`` and ``pick``: a move is being built
        move = self.builder.complete()
        if move is None and self.builder.name is not None and not self.kinds[self.builder.name]:
            move = self.builder.matching()[0]
        if move is None:
            return False
        self.submit(move)
        return True

    def undo(self) -> None:
        """Take back the person's last move and the bots' answers, where the game allows it."""
        if self.mode != PLAY:
            self.notice = "cannot undo: the hand is over" if self.mode == BETWEEN else "nothing to undo now"
            return
        done, self.notice = self.session.undo()
        if done:
            self.builder = None
            self.last_view = None
            self.refresh(keep=False)

    def back(self) -> None:
        if self.builder is not None and self.builder.back():
            self.notice = ""

    def typed(self, text: str) -> bool:
        """A move typed in full (or its unique beginning); False when refused."""
        if self.mode != PLAY or self.viewer is None:
            return False
        if len(text) > MAX_ENTRY_CHARS:       # not a move: refused without being echoed
            self.notice = f"{len(text):,} characters are too many for a move (at most {MAX_ENTRY_CHARS:,})"
            return False
        try:
            move = self.session.resolve(self.viewer, text)
        except IllegalMove as error:
            self.notice = error.message + (f" ({error.hint})" if error.hint else "")
            return False
        return self.submit(move)

    def submit(self, move: Move) -> bool:
        assert self.viewer is not None      # a person's move
        self.clock.acted()
        submitted = self.session.submit(self.viewer, move, self.clock.now())
        self.builder = None
        if submitted.refusal:
            self.notice = submitted.refusal
        else:
            self.notice = f"you: {self.session.words.move(move, self.viewer)}"
        self.refresh(keep=False)
        self.tick()
        return submitted.refusal is None

    # -- keeping up with the position ------------------------------------------------------------
    def refresh(self, keep: bool = True) -> None:
        """After any change: whose screen it is, the marks of changed piles, and the move list
        (the choices made so far kept when they still lead to a legal move)."""
        s = self.session
        if s.paused:
            self.clock.pause()          # the game's time stands still until "Go"
        person = s.human_to_act()
        if person is not None and person != self.viewer and len(s.humans) > 1:
            self.viewer = person          # the next person: the screen is covered first
            self.builder = None
        view = self.view()
        self.previews = {}
        for key in changed_piles(self.last_view, view):
            self.marks[key] = time.monotonic() + MARK_SECONDS
        self.last_view = view
        moves = s.legal(self.viewer) if self.viewer is not None and self.mode == PLAY else []
        self.cards = s.card_places(moves, view)
        texts = [m.text for m in moves]
        if texts == self.seen_moves and self.builder is not None:
            return
        old = self.builder
        self.seen_moves = texts
        self.seen_words = [s.words.move(m, self.viewer) for m in moves]
        self.builder = MoveBuilder(moves, self.kinds, s.words, self.viewer) if moves else None
        if keep and old is not None and self.builder is not None:
            self._replay(old)

    def _replay(self, old: MoveBuilder) -> None:
        """The choices of ``old`` made again in the new list, as far as they still lead somewhere."""
        assert self.builder is not None     # the new list's builder
        for n, action in enumerate(old.actions):
            if not self.builder.replay(action):
                gone = old.name if n == 0 and action[0] == "choose" else old.path()
                self.notice = f"'{gone}' is no longer possible"
                return
