"""The load time of every bundled game, in two checkouts measured in turn, on a noisy machine.

    python3.11 benchmarks/load_times.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 3] [--engine lean]

Each round loads each game (``load_game``) once in each checkout in turn, each time in a fresh
process, so that nothing is remembered but what the cache folder keeps (warm after the first
round). Time is the process's CPU time around ``load_game``, imports left out, with each
checkout's own engine (``--engine reference`` asks for the reference in a checkout whose
``load_game`` takes an engine). The figure kept is the smallest over the rounds: on a shared
machine a run is only ever slowed down by others.
With ``--engine lean`` the time is that of building the game's lean module after its load (what
the first play or bot decision pays, once a process); a game the lean engine does not generate
is left out.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ONE_LOAD = """
import inspect, sys, time
sys.path.insert(0, ".")
from interpreter.engine.loaded import load_game
lean = sys.argv[2] == "lean"
engines = "engine" in inspect.signature(load_game).parameters
started = time.process_time()
loaded = load_game(sys.argv[1], **({"engine": "reference"} if sys.argv[2] == "reference" and engines else {}))
if lean:
    from interpreter.lean import lean_game
    started = time.process_time()
    if lean_game(loaded) is None:
        started = None
print("-" if started is None else (time.process_time() - started) * 1000)
"""


def load_ms(checkout: str, game: Path, engine: str) -> float | None:
    done = subprocess.run([sys.executable, "-c", ONE_LOAD, str(game), engine], cwd=checkout,
                          capture_output=True, text=True, check=True)
    return None if done.stdout.strip() == "-" else float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engine", default="default", choices=["default", "reference", "lean"])
    args = parser.parse_args()
    # The games both checkouts have (an older one may lack the newer games).
    games = sorted(game for game in Path(args.new, "games").glob("*.yaml")
                   if Path(args.old, "games", game.name).is_file())
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for game in games:
            for checkout in (args.old, args.new):
                ms = load_ms(checkout, Path("games") / game.name, args.engine)
                if ms is not None:
                    best[checkout, game.stem] = min(best.get((checkout, game.stem), ms), ms)
    print(f"{'game':<28}{'old ms':>9}{'new ms':>9}{'new/old':>9}")
    for game in games:
        if (args.old, game.stem) not in best or (args.new, game.stem) not in best:
            continue
        old, new = best[args.old, game.stem], best[args.new, game.stem]
        print(f"{game.stem:<28}{old:>9.0f}{new:>9.0f}{new / old:>9.2f}")


if __name__ == "__main__":
    main()
