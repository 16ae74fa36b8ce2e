"""The games of a simulation played as tasks on a Ray cluster (``simulate(..., backend="ray")``).

The games are cut into shards of consecutive indexes, several per CPU of the cluster so that the
shares stay even. Each task compiles the game once from its text (a compiled game holds closures,
which cannot be sent) and plays its shard; the outcomes come back in game order, shard after
shard, as soon as each is ready. Ray is an optional extra: it is imported only when a run asks
for it.
"""
from __future__ import annotations

import logging
import math
from contextlib import contextmanager
from typing import Generator, Iterator

from ..errors import OptionError, RulesError
from .playout import GameSource, Settings, compile_source, play_game
from .simulate_report import GameOutcome

RAY_EXTRA = "pip install 'tablerules[ray]'"
# Shards per CPU of the cluster: enough for the fast workers to take over the slow ones' share.
SHARDS_PER_CPU = 4
# At most this many games in a shard, so the outcomes (and a progress bar) keep coming on long runs.
MAX_SHARD_GAMES = 1000


def _import_ray():
    try:
        import ray
    except ImportError:
        raise OptionError(f"the ray backend needs Ray: {RAY_EXTRA}") from None
    return ray


@contextmanager
def connected(address: str | None) -> Iterator[int]:
    """Ray, ready for a run: the number of CPUs of its cluster.

    ``address`` is that of a running cluster; without it Ray makes its own choice (the
    RAY_ADDRESS environment variable, a Ray already running on this machine, else a new local
    instance). A Ray already initialised in this process is used as it is, and left running; one
    started or reached here is shut down (or left) after the run."""
    ray = _import_ray()
    ours = not ray.is_initialized()
    try:
        yield _cpus_after_init(ray, address)
    finally:
        if ours:
            ray.shutdown()


def _cpus_after_init(ray, address: str | None) -> int:
    try:
        # Quiet: Ray's banners and the workers' output would spoil the report (and --json).
        ray.init(address, ignore_reinit_error=True, logging_level=logging.ERROR, log_to_driver=False,
                 include_dashboard=False)
    except Exception as error:     # Ray's own errors have no common root (ValueError, ConnectionError...)
        where = f" at '{address}'" if address else ""
        raise RulesError(f"cannot start or reach Ray{where}: {_last_line(error)}") from None
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def outcomes(source: GameSource, settings: Settings, games: int, cpus: int) -> Generator[GameOutcome, None, None]:
    """The outcomes of the run's games, in game order, played as Ray tasks (Ray is connected)."""
    ray = _import_ray()
    play = ray.remote(_play_shard)
    shards = _shards(games, cpus)
    tasks = [play.remote(source, settings, first, stop) for first, stop in shards]
    try:
        for (first, stop), task in zip(shards, tasks):
            yield from _shard_outcomes(ray, task, settings.seed + first, settings.seed + stop - 1)
    except BaseException:          # the run is given up (an error, Ctrl-C): so are its tasks
        for task in tasks:
            ray.cancel(task)
        raise


def _shards(games: int, cpus: int) -> list[tuple[int, int]]:
    """Consecutive ranges of game indexes, as [first, stop), that cover every game."""
    size = min(MAX_SHARD_GAMES, math.ceil(games / (cpus * SHARDS_PER_CPU)))
    return [(first, min(first + size, games)) for first in range(0, games, size)]


def _play_shard(source: GameSource, settings: Settings, first: int, stop: int) -> list[GameOutcome]:
    """Games ``first`` to ``stop - 1``, played in a Ray worker; a failed compile fails each game."""
    try:
        loaded = compile_source(source)
    except RulesError as error:
        return [GameOutcome.failed(index, settings.seed + index, error.headline()) for index in range(first, stop)]
    return [play_game(loaded, settings, index) for index in range(first, stop)]


def _shard_outcomes(ray, task, first_seed: int, last_seed: int) -> list[GameOutcome]:
    try:
        return ray.get(task)
    except ray.exceptions.RayError as error:     # a worker lost, or the task could not run at all
        raise RulesError(f"Ray could not play the games of seeds {first_seed} to {last_seed}: "
                         f"{_last_line(error)}") from None


def _last_line(error: Exception) -> str:
    """The gist of an error from Ray, whose message may hold a whole remote traceback."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(error).__name__
