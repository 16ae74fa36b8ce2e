"""What a bot that looks ahead costs on the lean engine and on the reference, in one run.

    python3.11 benchmarks/lookahead.py games/euchre.yaml [--positions 12] [--rollouts 60] [--rounds 3]
                                       [--baseline euchre_guess] [--parts]

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

With ``--parts``, where a lean rollout's time goes: the searches are made once more through ops
that count what the bot asks of the engine (and the draws of its generators), keeping every
``SAMPLE``-th call's arguments; each part is then timed alone on the calls kept, and a rollout's
share of it is its count a rollout times its time. What is left is the bot's own loop.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import random
import statistics
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.api import load_game                                   # noqa: E402
from interpreter.bots.ops import ReferenceOps, lean_ops                 # noqa: E402
from interpreter.bots import search                                     # noqa: E402
from interpreter.bots.search import SearchBot                           # noqa: E402
from interpreter.engine.rng import seed_state                           # noqa: E402
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


SAMPLE = 7         # every how many calls of a part ``--parts`` keeps one to time


class CountingOps:
    """Ops that count each call the bot makes of them, keeping every ``SAMPLE``-th one's
    arguments (the position copied: a rollout plays on its own in place)."""

    def __init__(self, ops):
        self.ops, self.game, self.hint = ops, ops.game, ops.hint
        self.counts: collections.Counter = collections.Counter()
        self.kept: dict[str, list] = collections.defaultdict(list)

    def _count(self, part: str, world, *args) -> None:
        self.counts[part] += 1
        if self.counts[part] % SAMPLE == 0:
            self.kept[part].append((self.ops.clone(world), *args))

    def legal(self, world):
        self._count("legal", world)
        return self.ops.legal(world)

    def play(self, world, move, seat=None):
        self._count("play", world, move, seat)
        return self.ops.play(world, move, seat)

    def clone(self, world):
        self._count("clone", world)
        return self.ops.clone(world)

    def look(self, world, move, seat, seed):
        self._count("look", world, move, seat, seed)
        return self.ops.look(world, move, seat, seed)

    def guess(self, world, seat, seed):
        self._count("guess", world, seat, seed)
        return self.ops.guess(world, seat, seed)

    def value(self, world, seat):
        self._count("value", world, seat)
        return self.ops.value(world, seat)

    def __getattr__(self, name):
        return getattr(self.ops, name)


def rollout_parts(loaded, worlds: list, rollouts: int, ops, rounds: int) -> None:
    """Print where a lean rollout's time goes (``--parts``): the calls counted once, then in each
    of ``rounds`` rounds the searches and each part timed in turn; medians."""
    counting, draws = counted_searches(loaded, worlds, rollouts, ops)
    calls = {**counting.counts, "draw": draws}
    kept = counting.kept
    timings = {
        "look (copy, move, hint)": ("look", lambda: _mean_time(kept["look"], ops.look)),
        "  of which the copy": ("look", lambda: _mean_time([(w,) for w, *_ in kept["look"]], ops.clone)),
        "  of which the hint": ("look", lambda: _mean_time([(_after(ops, *c), c[2]) for c in kept["look"]], ops.value)),
        "copy": ("clone", lambda: _mean_time(kept["clone"], ops.clone)),
        "move": ("play", lambda: _mean_time(kept["play"], _played_on_copy(ops))
                 - _mean_time([(w,) for w, *_ in kept["play"]], ops.clone)),
        "hint": ("value", lambda: _mean_time(kept["value"], ops.value)),
        "moves listed": ("legal", lambda: _mean_time(kept["legal"], ops.legal)),
        "guess": ("guess", lambda: _mean_time(kept["guess"], ops.guess)),
        "draw (the policy's)": ("draw", lambda: _mean_time([(7,)] * 1000, search.seeded_draw(1))),
    }
    times: dict[str, list[float]] = collections.defaultdict(list)
    for _ in range(rounds):
        seconds, made = searches(loaded, worlds, rollouts, ops)
        times["rollout"].append(seconds / made * 1e6)
        for part, (counted, timing) in timings.items():
            times[part].append(timing())
    rollout = statistics.median(times["rollout"])
    print(f"  a lean rollout: {rollout:.1f} us; what it asks of the engine (calls a rollout x one's time):")
    spent = 0.0
    for part, (counted, _) in timings.items():
        each = statistics.median(times[part])
        share = calls[counted] / made * each
        spent += 0 if part.startswith(" ") else share
        print(f"    {part:<24} {calls[counted] / made:6.1f} x {each:6.2f} us = {share:6.1f} us ({share / rollout:4.0%})")
    print(f"    {'the bot itself':<24} {'':17} {rollout - spent:6.1f} us ({(rollout - spent) / rollout:4.0%})")


def counted_searches(loaded, worlds: list, rollouts: int, ops) -> tuple[CountingOps, int]:
    """The searches made through ``CountingOps``, and the draws of their generators."""
    counting, draws = CountingOps(ops), 0
    seeded = search.seeded_draw

    def counted_draw(seed):
        draw = seeded(seed)

        def counting_draw(n):
            nonlocal draws
            draws += 1
            return draw(n)
        return counting_draw
    search.seeded_draw = counted_draw
    try:
        searches(loaded, worlds, rollouts, counting)
    finally:
        search.seeded_draw = seeded
    return counting, draws


def _after(ops, world, move, seat, seed):
    """The position a look is valued in: ``move`` played in a copy whose chance is ``seed``'s."""
    after = ops.clone(world)
    after.rng = seed_state(seed)
    ops.play(after, move)
    return after


def _played_on_copy(ops):
    """``ops.play`` on a copy of the position (the position kept is timed again)."""
    def play(world, move, seat):
        ops.play(ops.clone(world), move, seat)
    return play


def _mean_time(calls: list, function, rounds: int = 5, again: int = 10) -> float:
    """The time of one call of ``function`` on ``calls``' arguments, in us: each call made
    ``again`` times in a row (its position in the cache, as in a rollout, which plays on the
    position it just made), the median of ``rounds`` rounds over all of them."""
    if not calls:
        return 0.0
    made_again = range(again)

    def run():
        for args in calls:
            for _ in made_again:
                function(*args)
    timed = timeit.repeat(run, number=1, repeat=rounds, timer=time.process_time)
    return statistics.median(timed) / (len(calls) * again) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--rollouts", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="a position written by hand in benchmarks/baselines/, to time beside")
    parser.add_argument("--parts", action="store_true", help="where a lean rollout's time goes")
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
    if args.parts:
        ops, worlds = engines["lean"]
        rollout_parts(loaded, worlds, args.rollouts, ops, args.rounds)


if __name__ == "__main__":
    main()
