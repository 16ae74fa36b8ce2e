"""Benchmarks: random playouts per second, microseconds per move and peak memory, for any game,
optionally beside a hand-written baseline of the same game measured in the same run.

Games are played exactly as ``rules simulate`` plays them (game ``i`` uses seed ``seed + i``,
random bots at a ``realtime.Table``). Every timed run plays the same games and the median run
is reported. Peak memory comes from one more run under ``tracemalloc``, kept apart because
tracing slows Python down several times over.

A baseline is a Python file with ``play_game(players, seed) -> (scores, moves)`` and ``PLAYERS``
(the player counts it supports); ``benchmarks/baselines/`` holds those of the bundled games.
"""
from __future__ import annotations

import gc
import importlib.util
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..engine.loaded import LoadedGame
from ..errors import OptionError, RulesError
from .playout import play_or_raise
from .simulate import Settings, check_players

if TYPE_CHECKING:
    from types import ModuleType

BASELINE_DIR = Path("benchmarks") / "baselines"
MAX_MOVES = 100_000          # as `rules simulate`: a game still running after this is an error here

Playouts = Callable[[int, int], int]      # (games, seed) -> moves made in all of them


@dataclass(frozen=True)
class Measure:
    """One contender's figures: each timed run's seconds, the moves of one run, and memory: the
    peak while playing and what the games left behind."""

    label: str
    games: int
    moves: int
    seconds: tuple[float, ...]
    peak_bytes: int
    retained_bytes: int

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.seconds)

    @property
    def playouts_per_second(self) -> float:
        return self.games / self.median_seconds

    @property
    def us_per_move(self) -> float:
        return self.median_seconds / self.moves * 1e6

    def to_json(self) -> dict:
        return {"label": self.label, "games": self.games, "moves": self.moves,
                "seconds": list(self.seconds), "median_seconds": self.median_seconds,
                "playouts_per_second": self.playouts_per_second, "us_per_move": self.us_per_move,
                "peak_bytes": self.peak_bytes, "retained_bytes": self.retained_bytes}


@dataclass(frozen=True)
class BenchReport:
    game: str
    players: int
    seed: int
    runs: int
    interpreter: Measure
    baseline: Measure | None

    @property
    def ratios(self) -> list[float]:
        """The interpreter's cost per move over the baseline's, in each pair of runs timed in turn."""
        if self.baseline is None:
            return []
        mine, theirs = self.interpreter, self.baseline
        return [(a / mine.moves) / (b / theirs.moves) for a, b in zip(mine.seconds, theirs.seconds)]

    @property
    def ratio(self) -> float | None:
        """The median of ``ratios``: what a shared, noisy machine changes least."""
        return statistics.median(self.ratios) if self.ratios else None

    def to_json(self) -> dict:
        return {"game": self.game, "players": self.players, "seed": self.seed, "runs": self.runs,
                "interpreter": self.interpreter.to_json(),
                "baseline": None if self.baseline is None else self.baseline.to_json(), "ratio": self.ratio,
                "ratios": self.ratios}


def interpreter_playouts(loaded: LoadedGame, players: int, lean: bool = True) -> Playouts:
    """Random bots playing ``loaded`` as ``rules simulate`` does (by the lean engine where it runs
    the game, unless ``lean`` is false); a game that fails or does not end raises, since its
    figures would mean nothing."""
    check_players(loaded, players)

    def play(games: int, seed: int) -> int:
        settings = Settings(players, ("random",) * players, seed, MAX_MOVES, lean)
        moves = 0
        for index in range(games):
            try:
                outcome = play_or_raise(loaded, settings, index)
            except RulesError as error:
                raise error.within(f"in game {index} (seed {seed + index}) of the benchmark") from None
            except Exception as error:      # a bug: reported as simulate counts it, not as a traceback
                raise RulesError(f"game {index} (seed {seed + index}) failed: {type(error).__name__}: {error}") from None
            if outcome.stop is not None and outcome.moves >= MAX_MOVES:
                raise RulesError(f"game {index} (seed {outcome.seed}) did not end: {outcome.stop}")
            moves += outcome.moves
        return moves
    return play


def check_baseline_players(module: ModuleType, players: int) -> None:
    if players not in module.PLAYERS:
        raise OptionError(f"the baseline plays {_counts(module.PLAYERS)} players, not {players}")


def baseline_playouts(module: ModuleType, players: int) -> Playouts:
    check_baseline_players(module, players)

    def play(games: int, seed: int) -> int:
        return sum(module.play_game(players, seed + index)[1] for index in range(games))
    return play


def _counts(players: range) -> str:
    return f"{players[0]} to {players[-1]}" if len(players) > 1 else str(players[0])


def find_baseline(name: str, game_file: str | Path) -> Path:
    """A baseline given by path, or by name in ``benchmarks/baselines/`` of the working directory
    or of the folder above the game file's."""
    if name.endswith(".py"):
        candidates = [Path(name)]
    elif name.isidentifier():
        candidates = [BASELINE_DIR / f"{name}.py", Path(game_file).resolve().parent.parent / BASELINE_DIR / f"{name}.py"]
    else:
        raise OptionError(f"'{name}' is neither a baseline's name nor a .py file")
    for path in candidates:
        if path.is_file():
            return path
    raise OptionError(f"no baseline '{name}'", hint="looked for " + " and ".join(str(p) for p in candidates))


def load_baseline(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"baseline_{path.stem}", path)
    assert spec is not None and spec.loader is not None     # a .py file's path always has both
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (OSError, SyntaxError, ImportError) as error:
        raise OptionError(f"cannot load the baseline {path}: {error}") from None
    if not callable(getattr(module, "play_game", None)) or not isinstance(getattr(module, "PLAYERS", None), range):
        raise OptionError(f"the baseline {path} needs play_game(players, seed) and PLAYERS (a range)")
    return module


def measure(contenders: list[tuple[str, Playouts]], games: int, runs: int, seed: int) -> list[Measure]:
    """``runs`` timed runs of the same ``games`` playouts by each contender, the contenders in turn
    (A B A B: a machine that slows down slows both), then one more each for memory."""
    seconds: list[list[float]] = [[] for _ in contenders]
    moves = [0] * len(contenders)
    for _ in range(runs):
        for k, (_, play) in enumerate(contenders):
            started = time.perf_counter()
            moves[k] = play(games, seed)
            seconds[k].append(time.perf_counter() - started)
    return [Measure(label, games, moves[k], tuple(seconds[k]), *memory(play, games, seed))
            for k, (label, play) in enumerate(contenders)]


def memory(play: Playouts, games: int, seed: int) -> tuple[int, int]:
    """The most memory held at once while playing, and the memory still held after the games,
    both above what was held before (tracemalloc; garbage collected before and after). A flat
    memory profile keeps the second near 0 however many games are played; the first grows only
    with the largest single game met."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        play(games, seed)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        return peak - before, current - before
    finally:
        tracemalloc.stop()


def bench(loaded: LoadedGame, games: int = 20, runs: int = 5, players: int | None = None, seed: int = 0,
          baseline: ModuleType | None = None, lean: bool = True) -> BenchReport:
    """Measure random playouts of ``loaded`` and, given a baseline module, of the baseline."""
    if games < 1 or runs < 1:
        raise OptionError(f"games and runs must be at least 1, not {games} and {runs}")
    players = loaded.game.default_players if players is None else players
    contenders = [(loaded.name, interpreter_playouts(loaded, players, lean))]
    if baseline is not None:
        contenders.append((f"baseline {baseline.__name__.removeprefix('baseline_')}",
                           baseline_playouts(baseline, players)))
    mine, *theirs = measure(contenders, games, runs, seed)
    return BenchReport(loaded.name, players, seed, runs, mine, theirs[0] if theirs else None)


def render_text(report: BenchReport) -> str:
    runs = f"{report.runs} run" + ("" if report.runs == 1 else "s") + (" in turn" if report.baseline else "")
    lines = [f"{report.game}: {report.players} players, random bots, median of {runs}, seed {report.seed}",
             f"{'':<24} {'games':>6} {'moves':>8} {'playouts/s':>11} {'us/move':>9} {'peak memory':>12} {'retained':>10}"]
    for m in (report.interpreter, report.baseline):
        if m is not None:
            lines.append(f"{m.label[:24]:<24} {m.games:>6} {m.moves:>8} {m.playouts_per_second:>11.1f} "
                         f"{m.us_per_move:>9.1f} {format_bytes(m.peak_bytes):>12} {format_bytes(m.retained_bytes):>10}")
    if report.ratio is not None:
        spread = f" (runs {min(report.ratios):.2f}-{max(report.ratios):.2f}x)" if len(report.ratios) > 1 else ""
        lines.append(f"interpreter / baseline: {report.ratio:.2f}x the cost per move, the median of the runs{spread}")
    return "\n".join(lines)


def format_bytes(count: int) -> str:
    if count < 1024:
        return f"{count} B"
    if count < 1024 ** 2:
        return f"{count / 1024:.1f} KiB"
    return f"{count / 1024 ** 2:.1f} MiB"
