"""One game of a simulation, played by index: the seeds, the bots, the outcome; and the game's
source, from which a worker process or a Ray task compiles the very same game again.

Game ``i`` of a run uses seed ``seed + i`` for its state and its bots, so each game depends on its
index alone, wherever it is played.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..bots.agents import make_bot
from ..engine.loaded import LoadedGame, load_game
from ..errors import RulesError
from ..lean import lean_game
from ..play.realtime import Action, Table
from .lean_playout import play_lean
from .simulate_report import GameOutcome


@dataclass(frozen=True)
class Settings:
    """What every game of a run shares; ``lean``: played by the lean engine where it runs the game
    and every bot decides over its actions (the same games, faster)."""

    players: int
    bots: tuple[str, ...]
    seed: int
    max_moves: int
    lean: bool = True


def play_game(loaded: LoadedGame, settings: Settings, index: int) -> GameOutcome:
    """Game ``index`` of a run, played to its end, to the move limit, or to an error (kept as
    its full report: the place in the file, the line and caret, where in the game)."""
    seed = settings.seed + index
    try:
        return play_or_raise(loaded, settings, index)
    except RulesError as error:
        return GameOutcome.failed(index, seed, error.render())
    except Exception as error:  # any other exception is a bug, counted so the run goes on
        return GameOutcome.failed(index, seed, f"{type(error).__name__}: {error}")


def play_or_raise(loaded: LoadedGame, settings: Settings, index: int,
                  on_action: Callable[[Action], None] | None = None) -> GameOutcome:
    """Game ``index`` of a run, played to its end or to the move limit; an error is raised.
    ``on_action`` is told each action as it is played."""
    seed = settings.seed + index
    bots = {seat: make_bot(kind, loaded.game, seat, seed) for seat, kind in enumerate(settings.bots)}
    lean = lean_game(loaded) if settings.lean and on_action is None else None
    if lean is not None and all(bot.plays_lean for bot in bots.values()):
        return play_lean(loaded, lean, settings, index, bots)
    state = loaded.new_state(settings.players, seed)
    # A bot of a level has its own speed in free play; any other takes the table's default.
    speeds = {seat: bot.speed for seat, bot in bots.items() if bot.speed is not None}
    table = Table(loaded.game, state, bots, speeds, seed=seed)
    first_seat = None
    while not state.over and state.moves < settings.max_moves:
        action = table.next_bot_action()
        assert action is not None       # every seat is a bot's, and the game is not over
        first_seat = action.seat if first_seat is None else first_seat
        if on_action is not None:
            on_action(action)
    stop = state.stop_reason
    if not state.over:
        stop = f"not over after {settings.max_moves} moves (the move limit)"
    scores = loaded.scores(state)       # numbers, or an error at the game's scoring.score
    return GameOutcome(index, seed, scores, loaded.ranking(state, scores), state.moves, state.round, first_seat, stop,
                       None)


# Compiled games hold closures, which cannot be sent to another process: each worker compiles
# the game again from its text and resolved options, and the digest proves it is the same game.

@dataclass(frozen=True)
class GameSource:
    name: str
    text: str
    options: dict[str, str]
    digest: str


def source_of(loaded: LoadedGame) -> GameSource:
    source = loaded.spec.doc.source
    options = {name: _option_text(value) for name, value in loaded.options.items()}
    return GameSource(source.name, "\n".join(source.lines) + "\n", options, loaded.digest())


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def compile_source(source: GameSource) -> LoadedGame:
    """The game compiled again in a worker, refused unless it is the very game of the run."""
    loaded = load_game(source.name, source.options, text=source.text)
    if loaded.digest() != source.digest:
        raise RulesError(f"{source.name} compiled differently in a worker process")
    return loaded
