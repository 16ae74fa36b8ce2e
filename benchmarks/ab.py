"""Two checkouts of the project measured against each other, in one run, on a noisy machine.

    python3.11 benchmarks/ab.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 6]

Each round plays, in each checkout in turn and in a fresh process, random playouts of every game
that has a hand-written baseline, alternating with the baseline itself. Time is process CPU time.
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

GAMES = {"dice_poker": (3, 10, 3), "schmier": (6, 2, 2)}   # players, games a run, runs a round

ONE_ROUND = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, ".")
from interpreter.api import load_game
from interpreter.bench import baseline_playouts, interpreter_playouts, load_baseline
game, players, games, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
contenders = {"interpreter": interpreter_playouts(load_game(f"games/{game}.yaml"), players),
              "baseline": baseline_playouts(load_baseline(Path(f"benchmarks/baselines/{game}.py")), players)}
best = {}
for _ in range(runs):
    for label, play in contenders.items():
        started = time.process_time()
        moves = play(games, 0)
        best[label] = min(best.get(label, 1e9), (time.process_time() - started) / moves * 1e6)
print(json.dumps(best))
"""


def one_round(checkout: Path, game: str) -> dict:
    players, games, runs = GAMES[game]
    out = subprocess.run([sys.executable, "-c", ONE_ROUND, game, str(players), str(games), str(runs)],
                         cwd=checkout, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs=2, type=Path)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    best: dict = {}
    for _ in range(args.rounds):
        for checkout in args.checkouts:
            for game in GAMES:
                for label, cost in one_round(checkout, game).items():
                    key = (str(checkout), game, label)
                    best[key] = min(best.get(key, 1e9), cost)
    for checkout in args.checkouts:
        for game in GAMES:
            mine, theirs = best[(str(checkout), game, "interpreter")], best[(str(checkout), game, "baseline")]
            print(f"{str(checkout):<30} {game:<12} interpreter {mine:7.1f} us/move   "
                  f"baseline {theirs:6.2f} us/move   ratio {mine / theirs:5.2f}x")


if __name__ == "__main__":
    main()
