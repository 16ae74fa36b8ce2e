"""What Cython adds on top of the lean engine: a game's generated module compiled by Cython as it
is (no types added) against the same module run by Python, in one run.

    pip install cython setuptools      # not a dependency of the project: this measures whether it should be one
    python3.11 benchmarks/lean_cython.py [games/euchre.yaml] [--games 200] [--rounds 7]

The module's source (``rules show --generated`` prints it) is written to a temporary folder with
the names its namespace gives it (the runtime's helpers, the constants, the cards' tables) declared
first, compiled with ``cythonize``, imported, and handed those names. ``--games`` random games are
recorded on the Python module (game ``i`` from seed ``i``); each round then plays them on the
Python module and on the compiled one, in turn (a new state, the listing and the step of every
decision, the scores checked equal), and copies positions of them. The script prints the medians
of the rounds and the ratio, Python over Cython.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.api import load_game       # noqa: E402
from interpreter.lean import lean_game      # noqa: E402

FUNCTIONS = ("new_state", "legal", "step", "scores", "clone")


def compiled(program, folder: Path):
    """The program's module compiled by Cython, with the names of its namespace given to it."""
    tree = ast.parse(program.source)
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    defined |= {target.id for node in tree.body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)}
    given = sorted(k for k in program.namespace if k.isidentifier() and k != "__builtins__" and k not in defined)
    source = folder / "lean_module.py"
    source.write_text("".join(f"{name} = None\n" for name in given) + program.source)
    built = subprocess.run([sys.executable, "-m", "Cython.Build.Cythonize", "-3", "-i", "-q", str(source)],
                           cwd=folder, capture_output=True, text=True)
    if built.returncode:
        sys.exit(f"Cython could not compile the module:\n{built.stdout}{built.stderr}")
    [built] = folder.glob("lean_module.*.so")
    spec = importlib.util.spec_from_file_location("lean_module", built)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in given:
        setattr(module, name, program.namespace[name])
    return module


def record(python, players: int, games: int) -> list[tuple]:
    draw, played = random.Random(0), []
    for seed in range(games):
        state, picks = python.new_state(players, seed), []
        while not state.over:
            actions = python.legal(state)
            picks.append(draw.randrange(len(actions)))
            python.step(state, actions[picks[-1]])
        played.append((seed, picks, python.scores(state)))
    return played


def per_decision(module, players: int, played: list[tuple]) -> float:
    started = time.process_time()
    for seed, picks, scores in played:
        state = module.new_state(players, seed)
        for index in picks:
            module.step(state, module.legal(state)[index])
        if module.scores(state) != scores:
            sys.exit("the compiled module played another game")
    return (time.process_time() - started) / sum(len(picks) for _, picks, _ in played) * 1e6


def per_clone(module, players: int, played: list[tuple], repeat: int = 40) -> float:
    states = []
    for seed, picks, _ in played[:50]:
        state = module.new_state(players, seed)
        for index in picks[:len(picks) // 2]:
            module.step(state, module.legal(state)[index])
        states.append(state)
    started = time.process_time()
    for _ in range(repeat):
        for state in states:
            module.clone(state)
    return (time.process_time() - started) / (repeat * len(states)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=str(ROOT / "games" / "euchre.yaml"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the game, as rules -o (repeat it for more)")
    args = parser.parse_args()
    try:
        import Cython  # noqa: F401
    except ImportError:
        sys.exit("this benchmark needs Cython: pip install cython setuptools")
    loaded = load_game(args.game, dict(option.split("=", 1) for option in args.option))
    lean = lean_game(loaded)
    if lean is None:
        sys.exit(f"{args.game} does not run on the lean engine (rules show says why)")
    program, players = lean.program, loaded.game.default_players
    python = type("PythonModule", (), {name: staticmethod(program.namespace[name]) for name in FUNCTIONS})
    with tempfile.TemporaryDirectory() as folder:
        cython = compiled(program, Path(folder))
        played = record(python, players, args.games)
        timed = {"python": ([], []), "cython": ([], [])}
        for _ in range(args.rounds):
            for name, module in (("python", python), ("cython", cython)):
                timed[name][0].append(per_decision(module, players, played))
                timed[name][1].append(per_clone(module, players, played))
    decisions = sum(len(picks) for _, picks, _ in played)
    print(f"{loaded.game.name}: {args.games} games, {decisions} decisions, {args.rounds} rounds in turn, "
          f"medians, process CPU time")
    for name, (steps, clones) in timed.items():
        print(f"  {name:<7} {statistics.median(steps):7.2f} us a decision   a copy {statistics.median(clones):6.2f} us")
    ratios = [p / c for p, c in zip(timed["python"][0], timed["cython"][0])]
    clone_ratio = statistics.median(timed["python"][1]) / statistics.median(timed["cython"][1])
    print(f"  Python over Cython: {statistics.median(ratios):.2f}x a decision (rounds {min(ratios):.2f}-"
          f"{max(ratios):.2f}x), {clone_ratio:.2f}x a copy")


if __name__ == "__main__":
    main()
