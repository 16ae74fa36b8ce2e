"""The benchmark suite: `rules bench` over every bundled game, with the hand-written baseline of a
game beside it where one exists (benchmarks/baselines/<game file's name>.py), then the time
`rules --help` and `rules validate games/*.yaml` take. One table, from one run:

    python3.11 benchmarks/run_all.py [--games N] [--runs R] [--seconds S] [--json]

A game whose playouts fail (a game still being written) gets its error in its row; the rest go on.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.api import load_game  # noqa: E402  (after the path is set)
from interpreter.errors import RulesError  # noqa: E402
from interpreter.tools.bench import (  # noqa: E402
    BenchReport,
    bench,
    format_bytes,
    interpreter_playouts,
    load_baseline,
)

BASELINES = ROOT / "benchmarks" / "baselines"
COMMAND_RUNS = 5


def bench_game(path: Path, games: int, runs: int, seconds: float) -> BenchReport | str:
    """The game's figures, or the error that stopped them. A slow game plays fewer games a run
    (at least one), so that a run takes about ``seconds``."""
    baseline_file = BASELINES / f"{path.stem}.py"
    try:
        loaded = load_game(path)
        baseline = load_baseline(baseline_file) if baseline_file.is_file() else None
        players = loaded.game.default_players
        started = time.perf_counter()
        interpreter_playouts(loaded, players)(1, 0)       # also warms the game's first-use caches
        affordable = int(seconds / max(time.perf_counter() - started, 1e-6))
        return bench(loaded, max(1, min(games, affordable)), runs, players, baseline=baseline)
    except RulesError as error:
        return error.headline()


def command_seconds(label: str, args: list[str]) -> dict:
    """Median wall-clock and CPU seconds of a `rules` command run in a fresh process."""
    walls, cpus = [], []
    for _ in range(COMMAND_RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=ROOT, capture_output=True, check=False)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {"command": label, "wall_seconds": statistics.median(walls),
            "cpu_seconds": statistics.median(cpus)}


def render(rows: list[tuple[str, BenchReport | str]], commands: list[dict], games: int, runs: int) -> str:
    width = max([20] + [len(name) for name, _ in rows])    # the game column fits the longest name
    lines = [f"random playouts: up to {games} games a run, median of {runs} runs; "
             f"Python {platform.python_version()}, {os.cpu_count()} CPUs",
             f"{'game':<{width}} {'players':>7} {'games':>5} {'moves':>7} {'playouts/s':>10} {'us/move':>8} {'peak mem':>10} "
             f"{'retained':>9} {'baseline us/move':>16} {'ratio':>6}"]
    for name, report in rows:
        if isinstance(report, str):
            lines.append(f"{name:<{width}} {report}")
            continue
        m, b = report.interpreter, report.baseline
        lines.append(f"{name:<{width}} {report.players:>7} {m.games:>5} {m.moves:>7} {m.playouts_per_second:>10.1f} "
                     f"{m.us_per_move:>8.1f} {format_bytes(m.peak_bytes):>10} {format_bytes(m.retained_bytes):>9} "
                     f"{'-' if b is None else f'{b.us_per_move:.1f}':>16} "
                     f"{'-' if report.ratio is None else f'{report.ratio:.2f}x':>6}")
    lines.append("")
    for c in commands:
        lines.append(f"{c['command']:<40} {c['wall_seconds']:.3f} s wall, {c['cpu_seconds']:.3f} s CPU "
                     f"(median of {COMMAND_RUNS})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random playouts in each timed run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs; the median is reported")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="a slow game plays fewer games, so that a run takes about this long")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    files = sorted((ROOT / "games").glob("*.yaml"))
    rows = [(path.stem, bench_game(path, args.games, args.runs, args.seconds)) for path in files]
    commands = [command_seconds("rules --help", ["--help"]),
                command_seconds("rules validate games/*.yaml", ["validate", *(str(p.relative_to(ROOT)) for p in files)])]
    if args.json:
        print(json.dumps({"games": {name: r if isinstance(r, str) else r.to_json() for name, r in rows},
                          "commands": commands, "python": platform.python_version(), "cpus": os.cpu_count()},
                         indent=2))
    else:
        print(render(rows, commands, args.games, args.runs))


if __name__ == "__main__":
    main()
