"""What a bot that looks ahead costs on the lean engine and on the reference, in one run.

    python3.11 benchmarks/lookahead.py games/euchre.yaml [--positions 12] [--rollouts 60] [--rounds 3]
                                       [--baseline euchre_guess]

From positions of one seeded random game (the decisions with more than one move), each round
times, engine after engine: the search bot deciding at every position with a budget of
``--rollouts`` (the same bot seeds, so the same guesses, rollouts and choices on both engines:
the rollouts made are checked equal), then a copy of each position and one guess of its hidden
cards for the seat to move. It prints the median of the rounds for each engine and the ratio,
reference over lean. Time is process CPU time.

With ``--baseline NAME``, ``benchmarks/baselines/NAME.py`` (``from_lean``, ``clone``, ``guess``,
``matches``: a position of the game written by hand) is timed in each round too, on the same
positions, after a check that its guess deals the same cards as the lean engine's from every seed
used; the lean engine's copy and guess are then also given over the hand-written ones.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.api import load_game                                   # noqa: E402
from interpreter.bots.ops import ReferenceOps, lean_ops                 # noqa: E402
from interpreter.bots.search import SearchBot                           # noqa: E402
from interpreter.lean import lean_game                                  # noqa: E402


def positions(loaded, count: int) -> list:
    state, choose, found = loaded.new_state(None, 3), random.Random(3), []
    while not state.over and len(found) < count:
        moves = loaded.legal_moves(state, state.current)
        if len(moves) > 1:
            found.append(state.clone())
        loaded.apply(state, moves[choose.randrange(len(moves))], state.current)
    return found


def searches(loaded, worlds: list, rollouts: int, ops) -> tuple[float, int]:
    made, started = 0, time.process_time()
    for i, world in enumerate(worlds):
        bot = SearchBot(loaded.game, world.current, seed=i, iterations=rollouts)
        bot._search(ops, world, ops.legal(world))
        made += bot.done
    return time.process_time() - started, made


def copies_and_guesses(worlds: list, ops, repeat: int = 50) -> tuple[float, float]:
    started = time.process_time()
    for _ in range(repeat):
        for world in worlds:
            ops.clone(world)
    cloned = time.process_time() - started
    started = time.process_time()
    for _ in range(repeat):
        for i, world in enumerate(worlds):
            ops.guess(world, world.current, i)
    return cloned / (repeat * len(worlds)) * 1e6, (time.process_time() - started) / (repeat * len(worlds)) * 1e6


def by_hand(name: str, lean, worlds: list):
    """The hand-written positions of a baseline, checked to guess as the lean engine does."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "baselines" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    positions = [module.from_lean(lean, world) for world in worlds]
    for i, (world, position) in enumerate(zip(worlds, positions)):
        if not module.matches(lean_ops(lean).guess(world, world.current, i), module.guess(position, world.current, i)):
            sys.exit(f"{name}: the guess by hand of position {i} is not the lean engine's")
    return module, positions


class HandOps:
    """A baseline's copy and guess where ``copies_and_guesses`` expects an engine's."""

    def __init__(self, module):
        self.clone, self.guess = module.clone, module.guess


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--rollouts", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="a position written by hand in benchmarks/baselines/, to time beside")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the game, as rules -o (repeat it for more)")
    args = parser.parse_args()
    loaded = load_game(args.game, dict(option.split("=", 1) for option in args.option))
    lean = lean_game(loaded)
    if lean is None:
        sys.exit(f"{args.game} does not run on the lean engine (rules show says why)")
    refs = positions(loaded, args.positions)
    engines = {"lean": (lean_ops(lean), [lean.from_state(s) for s in refs]), "reference": (ReferenceOps(loaded.game), refs)}
    timed: dict = {name: {"search": [], "clone": [], "guess": []} for name in engines}
    hand = None
    if args.baseline:
        module, positions_by_hand = by_hand(args.baseline, lean, engines["lean"][1])
        hand = (HandOps(module), positions_by_hand)
        timed["by hand"] = {"clone": [], "guess": []}
    made = {}
    for _ in range(args.rounds):
        for name, (ops, worlds) in engines.items():
            seconds, made[name] = searches(loaded, worlds, args.rollouts, ops)
            timed[name]["search"].append(made[name] / seconds)
            clone, guess = copies_and_guesses(worlds, ops)
            timed[name]["clone"].append(clone)
            timed[name]["guess"].append(guess)
        if hand is not None:
            clone, guess = copies_and_guesses(hand[1], hand[0])
            timed["by hand"]["clone"].append(clone)
            timed["by hand"]["guess"].append(guess)
    if made["lean"] != made["reference"]:
        sys.exit(f"the engines made {made['lean']} and {made['reference']} rollouts: they searched differently")
    print(f"{loaded.name}: {len(refs)} positions, search:{args.rollouts}, {args.rounds} rounds in turn, medians")
    med = {name: {k: statistics.median(v) for k, v in parts.items()} for name, parts in timed.items()}
    for name, parts in med.items():
        rollouts = f"{parts['search']:9.0f} rollouts/s" if "search" in parts else " " * 20
        print(f"  {name:<9} {rollouts}   clone {parts['clone']:7.2f} us   guess {parts['guess']:7.2f} us")
    lean_figures, reference = med["lean"], med["reference"]
    print(f"  lean over reference: rollouts {lean_figures['search'] / reference['search']:.2f}x, "
          f"clone {reference['clone'] / lean_figures['clone']:.2f}x, guess {reference['guess'] / lean_figures['guess']:.2f}x faster")
    if hand is not None:
        mine = med["by hand"]
        print(f"  lean over by hand: clone {lean_figures['clone'] / mine['clone']:.2f}x, "
              f"guess {lean_figures['guess'] / mine['guess']:.2f}x, "
              f"both {(lean_figures['clone'] + lean_figures['guess']) / (mine['clone'] + mine['guess']):.2f}x the time")


if __name__ == "__main__":
    main()
