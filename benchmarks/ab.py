"""Two checkouts of the project measured against each other, in one run, on a noisy machine.

    python3.11 benchmarks/ab.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 6] [--games dice_poker,schmier,floor,nerts]
    python3.11 benchmarks/ab.py .@reference .@lean          # the two engines of one checkout
    python3.11 benchmarks/ab.py .@reference+nocache .@reference --games nerts   # free play's listing cache

A checkout written ``PATH@ENGINE`` plays its games with that engine: ``lean`` (the default where
the checkout has it) or ``reference`` (the lean engine off), or in a checkout that has it another
engine of ``load_game(..., engine=ENGINE)``; ``PATH@ENGINE+nocache`` also turns the listing cache
of free play off (``listing_cache.MODE``).

Each round plays, in each checkout in turn and in a fresh process, random playouts of every game
that has a hand-written baseline, alternating with the baseline itself, and of
``benchmarks/floor.yaml`` (this file's copy, in both checkouts): six seats playing any card, the
engine's own cost per move with no rule to evaluate. Time is process CPU time; a game's lean
module is built before the timing (``load_times.py --engine lean`` times that).
The figure kept for each is the smallest cost per move seen over the rounds: on a shared machine
a run is only ever slowed down by the others, so the smallest is the least disturbed. The
ratio divides the interpreter's figure by the baseline's from the same checkout.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

GAMES = {"dice_poker": (3, 10, 3), "schmier": (6, 2, 2), "floor": (6, 2, 2),   # players, games a run, runs a round
         "nerts": (3, 1, 1)}
DEFAULT_GAMES = "dice_poker,schmier,floor"
FLOOR = Path(__file__).resolve().parent / "floor.yaml"

ONE_ROUND = """
import inspect, json, sys, time
from pathlib import Path
sys.path.insert(0, ".")
from interpreter.api import load_game
from interpreter.tools.bench import baseline_playouts, interpreter_playouts, load_baseline
spec, baseline = sys.argv[1], Path(sys.argv[2])
players, games, runs = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
engine_name, _, extra = sys.argv[6].partition("+")
engine = {"engine": engine_name} if engine_name not in ("", "lean") else {}
if engine_name == "reference" and "engine" not in inspect.signature(load_game).parameters:
    engine = {}     # the reference is the only engine load_game runs
if extra == "nocache":
    from interpreter.engine import listing_cache
    if hasattr(listing_cache.MODE, "set"):      # a context variable; a plain text in older checkouts
        listing_cache.MODE.set("off")
    else:
        listing_cache.MODE = "off"
loaded = load_game(spec, **engine)
try:
    from interpreter.lean import lean_game
    lean_game(loaded)       # its module built before the timing, as a load is (load_times.py times both)
    interpreter = interpreter_playouts(loaded, players, lean=engine_name in ("", "lean"))
except ImportError:     # a checkout from before the lean engine
    interpreter = interpreter_playouts(loaded, players)
contenders = {"interpreter": interpreter}
if baseline.is_file():
    contenders["baseline"] = baseline_playouts(load_baseline(baseline), players)
best = {}
for _ in range(runs):
    for label, play in contenders.items():
        started = time.process_time()
        moves = play(games, 0)
        best[label] = min(best.get(label, 1e9), (time.process_time() - started) / moves * 1e6)
print(json.dumps(best))
"""


def one_round(checkout: str, game: str) -> dict:
    path, _, engine = checkout.partition("@")
    players, games, runs = GAMES[game]
    spec = FLOOR if game == "floor" else Path("games") / f"{game}.yaml"
    baseline = Path("benchmarks") / "baselines" / f"{game}.py"
    out = subprocess.run([sys.executable, "-c", ONE_ROUND, str(spec), str(baseline), str(players), str(games), str(runs),
                          engine], cwd=path, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs=2)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", default=DEFAULT_GAMES, help="comma-separated, of: " + ", ".join(GAMES))
    args = parser.parse_args()
    chosen = [g.strip() for g in args.games.split(",")]
    best: dict = {}
    for _ in range(args.rounds):
        for checkout in args.checkouts:
            for game in chosen:
                for label, cost in one_round(checkout, game).items():
                    key = (str(checkout), game, label)
                    best[key] = min(best.get(key, 1e9), cost)
    for checkout in args.checkouts:
        for game in chosen:
            mine = best[(str(checkout), game, "interpreter")]
            theirs = best.get((str(checkout), game, "baseline"))
            versus = "" if theirs is None else f"   baseline {theirs:6.2f} us/move   ratio {mine / theirs:5.2f}x"
            print(f"{str(checkout):<30} {game:<12} interpreter {mine:7.1f} us/move{versus}")


if __name__ == "__main__":
    main()
