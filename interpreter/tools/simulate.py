"""Many games between bots, for statistics: who wins, by how much, and how long games last.

Game ``i`` of a run uses seed ``seed + i`` for its state and its bots, so each game depends on
its index alone. A parallel run therefore gives exactly the results of a sequential one: worker
processes (or Ray tasks, see ``simulate_ray``) play games by index and the results are put back in
game order. A game that raises is counted as an error and the run goes on.
"""
from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import time
from contextlib import closing, contextmanager
from typing import Callable, Iterator, Sequence

from ..bots.agents import make_bot, parse_kind
from ..engine.core import players_text
from ..engine.loaded import LoadedGame
from ..errors import OptionError, RulesError
from ..limits import MAX_MOVES_PER_GAME
from . import simulate_ray
from .playout import GameSource, Settings, compile_source, play_game, source_of
from .simulate_report import GameOutcome, Report

# Games handed to a worker at a time: fewer round trips, while the shares stay even.
CHUNK_GAMES = 8
# Where the games are played: local worker processes, or tasks on a Ray cluster.
BACKENDS = ("processes", "ray")


def bot_kinds(kinds: str | Sequence[str], players: int) -> list[str]:
    """One bot kind per seat, seat by seat; a list shorter than the seats starts again from its
    first kind (one kind serves every seat; two alternate); unknown kinds are refused."""
    given = [kinds] if isinstance(kinds, str) else list(kinds)
    if not 1 <= len(given) <= players:
        raise OptionError(f"give at most one bot kind per seat ({players}), not {len(given)}")
    for kind in given:
        parse_kind(kind)
    return [given[seat % len(given)] for seat in range(players)]


def check_players(loaded: LoadedGame, players: int) -> None:
    game = loaded.game
    if not game.min_players <= players <= game.max_players:
        raise OptionError(f"{game.name} is for {players_text(game)}, not {players}")


def simulate(loaded: LoadedGame, games: int, players: int | None = None, bots: str | Sequence[str] = "random",
             seed: int = 0, jobs: int = 1, max_moves: int = 100_000,
             *, on_game: Callable[[], None] | None = None, backend: str = "processes",
             address: str | None = None, lean: bool = True) -> Report:
    """Play ``games`` games between bots and gather them in a ``Report``.

    ``players`` defaults to the game's default; ``bots`` is one kind per seat, a shorter list
    repeating; ``jobs`` is the number of processes (0: one per CPU); a game not over after
    ``max_moves`` moves is stopped. ``on_game`` is called after each game, in game order.
    ``backend`` "ray" plays the games as tasks on the Ray cluster at ``address`` (default: Ray's
    own choice), which decides how many run at once: ``jobs`` must then stay 1."""
    _check_backend(backend, jobs, address)
    if games < 1:
        raise OptionError(f"the number of games must be at least 1, not {games}")
    if jobs < 0:
        raise OptionError(f"the number of processes must be 0 (one per CPU) or more, not {jobs}")
    if not 1 <= max_moves <= MAX_MOVES_PER_GAME:
        raise OptionError(f"the move limit must be between 1 and {MAX_MOVES_PER_GAME}, not {max_moves}")
    players = loaded.game.default_players if players is None else players
    check_players(loaded, players)
    settings = Settings(players, tuple(bot_kinds(bots, players)), seed, max_moves, lean)
    for kind in set(settings.bots):
        make_bot(kind, loaded.game, 0)          # a bot that cannot play this game is refused now
    started = time.perf_counter()
    outcomes = []
    with _played_on(backend, address, loaded, settings, games, jobs) as (workers, played):
        for outcome in played:
            outcomes.append(outcome)
            if on_game is not None:
                on_game()
    return Report(loaded.name, settings.players, list(settings.bots), seed, max_moves, outcomes,
                  time.perf_counter() - started, workers)


def _check_backend(backend: str, jobs: int, address: str | None) -> None:
    if backend not in BACKENDS:
        raise OptionError(f"there is no backend '{backend}'", hint="backends: " + ", ".join(BACKENDS))
    if backend != "ray" and address is not None:
        raise OptionError("an address is for the ray backend only")
    if backend == "ray" and jobs != 1:
        raise OptionError(f"the ray backend decides how many games run at once: leave jobs at 1, not {jobs}")


@contextmanager
def _played_on(backend: str, address: str | None, loaded: LoadedGame, settings: Settings, games: int,
               jobs: int) -> Iterator[tuple[int, Iterator[GameOutcome]]]:
    """The number of workers that play the games, and the games' outcomes in game order."""
    if backend == "ray":
        with simulate_ray.connected(address) as cpus, \
                closing(simulate_ray.outcomes(source_of(loaded), settings, games, cpus)) as played:
            yield cpus, played      # closed before Ray is let go: a run given up cancels its tasks
        return
    workers = min(jobs if jobs > 0 else os.cpu_count() or 1, games)
    yield workers, _outcomes(loaded, settings, games, workers)


def _outcomes(loaded: LoadedGame, settings: Settings, games: int, workers: int):
    if workers <= 1:
        for index in range(games):
            yield play_game(loaded, settings, index)
        return
    chunk = max(1, min(CHUNK_GAMES, games // (workers * 4)))
    with multiprocessing.get_context().Pool(workers, _start_worker, (source_of(loaded), settings)) as pool:
        yield from pool.imap(_play_in_worker, range(games), chunk)


# -- worker processes ------------------------------------------------------------------------------
# Each worker compiles the game once from its source (see ``playout``).

_worker: dict = {}


def _start_worker(source: GameSource, settings: Settings) -> None:
    """Compile the game once per worker; a failure is kept and reported by every game."""
    # Ctrl-C is the parent's to handle: it stops the pool, and workers leave without tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker["settings"] = settings
    try:
        _worker["game"] = compile_source(source)
    except RulesError as error:
        _worker["failure"] = error.headline()


def _play_in_worker(index: int) -> GameOutcome:
    settings = _worker["settings"]
    if "failure" in _worker:
        return GameOutcome.failed(index, settings.seed + index, _worker["failure"])
    return play_game(_worker["game"], settings, index)


# -- validate --simulate: a game file checked by playing it --------------------------------------

def player_counts(loaded: LoadedGame, players: int | None = None) -> list[int]:
    """The player counts ``rules validate --simulate`` tries: the one asked for, else every count
    the game allows."""
    game = loaded.game
    if players is not None:
        check_players(loaded, players)
        return [players]
    return list(range(game.min_players, game.max_players + 1))


def playing_failures(loaded: LoadedGame, games: int, players: int | None = None,
                     max_moves: int = 100_000) -> list[GameOutcome]:
    """The games, among ``games`` random games (seeds 0 to games - 1) at each of the player counts
    (``player_counts``), that raised an error (a stalled game among them) or did not end within
    ``max_moves`` moves: what an author's CI runs after the checks of ``rules validate``. Each
    failed game has its ``players``."""
    failed = []
    for count in player_counts(loaded, players):
        report = simulate(loaded, games, count, bots="random", seed=0, max_moves=max_moves)
        failed += [dataclasses.replace(o, players=count) for o in report.outcomes
                   if o.error is not None or (o.stop is not None and o.moves >= max_moves)]
    return failed


def counts_text(counts: list[int]) -> str:
    """``2 players``, ``2 to 8 players``."""
    if len(counts) == 1:
        return f"{counts[0]} player{'s' if counts[0] != 1 else ''}"
    return f"{counts[0]} to {counts[-1]} players"


def failure_text(outcome: GameOutcome) -> str:
    """Why one game failed, as every command reports it."""
    return outcome.error if outcome.error is not None else f"error: {outcome.stop}"


def failures_report(file: str, failed: list[GameOutcome], games: int, counts: list[int]) -> str:
    """The failed games of ``rules validate --simulate``: how many, the first in full, the seeds
    of the others (with their player counts, when several were tried)."""
    first = failed[0]
    several = len(counts) > 1
    where = f" with {first.players} players" if several else ""
    lines = [f"{file}: {len(failed)} of {games * len(counts)} random games ({counts_text(counts)}) failed; "
             f"the first, seed {first.seed}{where}:", failure_text(first)]
    if len(failed) > 1:
        others = [f"{o.seed} ({o.players} players)" if several else str(o.seed) for o in failed[1:11]]
        lines.append(f"also failed: seed{'s' if len(failed) > 2 else ''} {', '.join(others)}"
                     + (", ..." if len(failed) > 11 else ""))
    return "\n".join(lines)
