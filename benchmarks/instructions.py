"""Machine instructions per move, counted by valgrind's callgrind: a figure that does not move
with the load of a shared machine, where CPU times of one checkout vary by a fifth from run to run.

    python3.11 benchmarks/instructions.py CHECKOUT... [--game benchmarks/floor.yaml] [--players 6] [--games 3]

For each checkout (in turn) it runs random playouts as ``benchmarks/ab.py`` does, twice under
callgrind, each after one game of its own (seed 1000) that builds the lean module and whatever
else is made on first use: with ``--games`` games and with none; the difference (the playouts
alone, without the imports, the load and the first game) divided by the moves played is printed. The game file is this
script's copy (a path is taken from this file's checkout), the cache folder is off
(``RULES_NO_CACHE=1``) and the hash seed fixed (``PYTHONHASHSEED=0``: a set's order, and with it
the work, would differ from process to process) so that both runs load and play alike. Needs ``valgrind``; a run of the floor
takes about a minute, a Nerts game (3 seats) several.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

PLAY = """
import sys
sys.path.insert(0, ".")
from interpreter.api import load_game
from interpreter.tools.bench import interpreter_playouts
play = interpreter_playouts(load_game(sys.argv[1]), int(sys.argv[2]))
play(1, 1000)       # a game first, in both runs: the lean module built, the caches made
print(play(int(sys.argv[3]), 0))
"""


def instructions(checkout: str, spec: Path, players: int, games: int) -> tuple[int, int]:
    """(instructions, moves) of one run under callgrind."""
    env = {**os.environ, "RULES_NO_CACHE": "1", "PYTHONHASHSEED": "0"}     # both runs hash alike
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", PLAY,
                           str(spec), str(players), str(games)], cwd=checkout, env=env, capture_output=True,
                          text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no count from callgrind in {checkout}:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+")
    parser.add_argument("--game", default="benchmarks/floor.yaml")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    spec = (HERE / args.game).resolve()
    for checkout in args.checkouts:
        empty, _ = instructions(checkout, spec, args.players, 0)
        full, moves = instructions(checkout, spec, args.players, args.games)
        print(f"{checkout:<30} {spec.stem:<12} {(full - empty) / moves:10.0f} instructions/move ({moves} moves)")


if __name__ == "__main__":
    main()
