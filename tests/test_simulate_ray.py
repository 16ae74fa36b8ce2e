"""`rules simulate --backend ray` and ``simulate(..., backend="ray")``: the same outcomes as a
sequential run, a clear error without Ray, usage errors, and the shards the games are cut into.

The tests under "with Ray" are skipped when Ray is not installed; the others run everywhere."""
from __future__ import annotations

import json
import logging
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from interpreter.api import load_game
from interpreter.errors import OptionError, RulesError
from interpreter.tools.simulate import Settings, play_game, simulate, source_of
from interpreter.tools.simulate_ray import _play_shard, _shard_outcomes, _shards
from interpreter.tools.simulate_report import GameOutcome
from tests.helpers import GAMES
from tests.test_simulate import run, without_timing

DICE_POKER = str(GAMES / "dice_poker.yaml")
LAST_CARD = str(GAMES / "last_card.yaml")
ROOT = Path(__file__).resolve().parents[1]
NO_RAY = "the ray backend needs Ray: pip install 'tablerules[ray]'"


@pytest.fixture(scope="module")
def ray_cluster():
    """One Ray instance for the module: starting Ray takes seconds."""
    ray = pytest.importorskip("ray")
    # The installed Ray (2.60) refuses ray.init(local_mode=True): "`local_mode` is no longer
    # supported". A local single-node instance with two CPUs stands in for a cluster.
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture
def ray_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)       # `import ray` now raises ImportError


# -- with Ray --------------------------------------------------------------------------------------

@pytest.mark.parametrize("file, games, players, bots, options", [
    (DICE_POKER, 4, 2, ["greedy", "random"], {}),
    (LAST_CARD, 16, 3, ["random", "greedy", "random"], {"hand_size": "4"}),
])
def test_ray_plays_exactly_the_games_of_a_sequential_run(ray_cluster, file, games, players, bots, options):
    loaded = load_game(file, options)
    alone = simulate(loaded, games, players, bots, seed=11)
    calls = []
    on_ray = simulate(loaded, games, players, bots, seed=11, backend="ray", on_game=lambda: calls.append(1))
    assert on_ray.outcomes == alone.outcomes        # seeds, scores, places, moves, rounds, stops, errors
    assert [o.seed for o in on_ray.outcomes] == list(range(11, 11 + games))
    assert len(calls) == games and on_ray.jobs == 2    # jobs: the CPUs of the cluster


def test_the_cli_on_a_running_cluster_prints_pure_json_equal_to_the_default_run(ray_cluster):
    address = ray_cluster.get_runtime_context().gcs_address
    args = [LAST_CARD, "-n", "6", "--seed", "3", "--players", "2", "--bots", "greedy,random", "--json"]
    # Another process, so that Ray's start-up writes (to the real stdout, not click's) are seen.
    done = subprocess.run([sys.executable, "-m", "cli", "simulate", *args, "--backend", "ray", "--address", address],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert without_timing(done.stdout) == without_timing(run(*args).output)
    assert json.loads(done.stdout)["timing"]["jobs"] == 2
    # That process connected to this cluster and let it be: it still plays.
    assert simulate(load_game(LAST_CARD), 2, backend="ray").outcomes == simulate(load_game(LAST_CARD), 2).outcomes


def test_a_task_that_ray_cannot_run_is_a_clear_error(ray_cluster):
    def lost():
        raise MemoryError("no room left")
    task = ray_cluster.remote(lost).remote()
    with pytest.raises(RulesError) as caught:
        _shard_outcomes(ray_cluster, task, 3, 5)
    assert caught.value.message == "Ray could not play the games of seeds 3 to 5: MemoryError: no room left"


def test_a_bad_address_is_a_clear_error():
    pytest.importorskip("ray")
    with pytest.raises(RulesError) as caught:
        simulate(load_game(LAST_CARD), 2, backend="ray", address="nonsense::")
    assert caught.value.message == "cannot start or reach Ray at 'nonsense::': Invalid address format: nonsense::"
    result = run(LAST_CARD, "-n", "2", "--backend", "ray", "--address", "nonsense::")
    assert result.exit_code == 1
    assert result.output == "error: cannot start or reach Ray at 'nonsense::': Invalid address format: nonsense::\n"


# -- without Ray -----------------------------------------------------------------------------------

def test_without_ray_the_ray_backend_names_the_extra(ray_missing):
    with pytest.raises(OptionError) as caught:
        simulate(load_game(LAST_CARD), 2, backend="ray")
    assert caught.value.message == NO_RAY
    result = run(LAST_CARD, "-n", "2", "--backend", "ray")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert result.output.splitlines()[-1] == f"Error: {NO_RAY}"


def test_without_ray_the_help_and_the_default_backend_work(ray_missing):
    assert CliRunner().invoke(main, ["simulate", "--help"]).exit_code == 0
    result = run(LAST_CARD, "-n", "3")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Last card: 3 games, 3 players, seeds 0 to 2\n")


def test_the_processes_backend_is_the_default():
    args = [LAST_CARD, "-n", "6", "--seed", "8", "--players", "2", "--bots", "greedy,random", "--json"]
    default, processes = run(*args), run(*args, "--backend", "processes")
    assert default.exit_code == 0 and processes.exit_code == 0, default.output + processes.output
    assert without_timing(default.output) == without_timing(processes.output)


@pytest.mark.parametrize("args, message", [
    (["--address", "10.0.0.1:6379"], "--address is for --backend ray"),
    (["--backend", "processes", "--address", "10.0.0.1:6379"], "--address is for --backend ray"),
    (["--backend", "ray", "--jobs", "4"],
     "--jobs is for --backend processes: with --backend ray, Ray decides how many games run at once"),
    (["--backend", "ray", "-j", "0"],
     "--jobs is for --backend processes: with --backend ray, Ray decides how many games run at once"),
    (["--backend", "threads"], "Invalid value for '--backend': 'threads' is not one of 'processes', 'ray'."),
])
def test_backend_usage_errors(args, message):
    result = run(LAST_CARD, "-n", "2", *args)
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"


@pytest.mark.parametrize("settings, message, hint", [
    ({"backend": "threads"}, "there is no backend 'threads'", "backends: processes, ray"),
    ({"address": "10.0.0.1:6379"}, "an address is for the ray backend only", None),
    ({"backend": "ray", "jobs": 0}, "the ray backend decides how many games run at once: leave jobs at 1, not 0", None),
])
def test_the_api_refuses_bad_backend_settings(settings, message, hint):
    with pytest.raises(OptionError) as caught:
        simulate(load_game(LAST_CARD), 2, **settings)
    assert (caught.value.message, caught.value.hint) == (message, hint)


@pytest.mark.parametrize("games, cpus, shards", [
    (12, 2, [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10), (10, 12)]),
    (13, 2, [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10), (10, 12), (12, 13)]),
    (3, 8, [(0, 1), (1, 2), (2, 3)]),
    (200, 2, [(0, 25), (25, 50), (50, 75), (75, 100), (100, 125), (125, 150), (150, 175), (175, 200)]),
    (9500, 2, [(0, 1000), (1000, 2000), (2000, 3000), (3000, 4000), (4000, 5000), (5000, 6000), (6000, 7000),
               (7000, 8000), (8000, 9000), (9000, 9500)]),
])
def test_shards_are_consecutive_games_several_per_cpu_and_bounded(games, cpus, shards):
    assert _shards(games, cpus) == shards


def test_a_shard_plays_its_games_as_a_sequential_run_does():
    loaded = load_game(LAST_CARD)
    settings = Settings(2, ("greedy", "random"), 20, 1000)
    assert _play_shard(source_of(loaded), settings, 3, 6) == [play_game(loaded, settings, i) for i in (3, 4, 5)]


def test_a_shard_whose_game_compiles_differently_fails_each_of_its_games():
    source = replace(source_of(load_game(LAST_CARD)), digest="the digest of another game")
    message = f"error: {LAST_CARD} compiled differently in a worker process"
    assert _play_shard(source, Settings(2, ("random", "random"), 5, 1000), 1, 3) == [
        GameOutcome.failed(1, 6, message), GameOutcome.failed(2, 7, message)]
