"""CFR on games/kuhn_poker.yaml through the OpenSpiel adapter against CFR on OpenSpiel's own
kuhn_poker (C++ rules), the same Python solver on both.

    python3.11 benchmarks/kuhn_cfr.py [--iterations 100] [--rounds 5]      # needs the [openspiel] extra

Each round times, in turn, ``--iterations`` iterations of OpenSpiel's ``CFRSolver`` on its
``kuhn_poker`` and on ours (A B A B ...), each from a fresh solver; ours is loaded with
``returns="results"`` (the chips won, as OpenSpiel's game returns them). The cost is the process
CPU time of a round divided by its iterations; the script prints each side's median over the
rounds, the median of the per-round ratios, and, as a check that both solved the same game, the
number of information states each solver met and the value of its average policy to the first
player (Kuhn poker's is -1/18, about -0.056, to which both tend).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:
    import pyspiel
    from open_spiel.python.algorithms import cfr, expected_game_score
except ImportError:
    sys.exit("this benchmark needs OpenSpiel: pip install 'tablerules[openspiel]'")

from interpreter.adapters.openspiel import load_game      # noqa: E402

GAME = ROOT / "games" / "kuhn_poker.yaml"


def solve(game, iterations: int) -> tuple[float, cfr.CFRSolver]:
    solver = cfr.CFRSolver(game)
    started = time.process_time()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return time.process_time() - started, solver


def first_players_value(game, solver: cfr.CFRSolver) -> float:
    policy = solver.average_policy()
    return expected_game_score.policy_value(game.new_initial_state(), [policy] * game.num_players())[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    games = {"openspiel": pyspiel.load_game("kuhn_poker"),
             "ours": load_game(str(GAME), returns="results", min_utility=-2.0, max_utility=2.0, zero_sum=True)}
    timed: dict[str, list[float]] = {name: [] for name in games}
    solvers = {}
    for _ in range(args.rounds):
        for name, game in games.items():
            seconds, solvers[name] = solve(game, args.iterations)
            timed[name].append(seconds / args.iterations * 1e3)
    ratios = [ours / theirs for ours, theirs in zip(timed["ours"], timed["openspiel"])]
    print(f"kuhn poker: CFR, {args.iterations} iterations a round, {args.rounds} rounds alternating, "
          f"median of the rounds, process CPU time")
    labels = {"openspiel": "OpenSpiel kuhn_poker (C++)", "ours": "games/kuhn_poker.yaml, adapter"}
    for name, runs in timed.items():
        solver = solvers[name]
        ratio = f"   {statistics.median(ratios):6.2f}x OpenSpiel" if name == "ours" else ""
        print(f"  {labels[name]:<31} {statistics.median(runs):8.2f} ms/iteration (smallest {min(runs):7.2f}){ratio}"
              f"   {len(solver.average_policy().state_lookup)} information states,"
              f" first player's value {first_players_value(games[name], solver):+.4f}")


if __name__ == "__main__":
    main()
