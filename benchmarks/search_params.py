"""A simulation with the search bot's parameters changed, to tune them: a bundled game, the
number of players and of games, the bots seat by seat, then NAME=VALUE settings of the search
(``horizon`` for the bot, a number of moves or ``hand``, in every phase; ``LOOK_SAMPLES``,
``GREEDY_SHARE``, ``CANDIDATES`` for the modules; ``seed``, the first game's, 0 unless given)
and ``-o OPTION=VALUE`` options of the game.

    python benchmarks/search_params.py dice_poker 2 30 search:50,greedy horizon=1
    python benchmarks/search_params.py dice_poker 2 100 search:50,greedy LOOK_SAMPLES=1 seed=100

Prints the text report of ``rules simulate`` and a line per game on stderr.
"""
from __future__ import annotations

import itertools
import sys
import time

from interpreter.bots import agents, rollout, search
from interpreter.engine.loaded import load_game
from interpreter.tools.simulate import simulate
from interpreter.tools.simulate_report import render_text

MODULE_SETTINGS = {"GREEDY_SHARE": rollout, "CANDIDATES": rollout, "LOOK_SAMPLES": search}


def main() -> None:
    name, players, games, bots = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(",")
    settings, options = {}, {}
    rest = sys.argv[5:]
    while rest:
        item = rest.pop(0)
        target = options if item == "-o" else settings
        key, value = (rest.pop(0) if item == "-o" else item).split("=")
        target[key] = value if target is options else setting(value)
    seed = settings.pop("seed", 0)
    for key in [k for k in settings if k in MODULE_SETTINGS]:
        setattr(MODULE_SETTINGS[key], key, settings.pop(key))
    rollout.Rollout.__init__.__defaults__ = (rollout.GREEDY_SHARE, rollout.CANDIDATES)

    class Tuned(search.SearchBot):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**settings, **kwargs})
    agents.BOTS["search"] = Tuned

    loaded = load_game(f"games/{name}.yaml", options)
    started, count = time.time(), itertools.count(1)
    report = simulate(loaded, games, players, bots, seed, 1,
                      on_game=lambda: print("game", next(count), round(time.time() - started), file=sys.stderr))
    print(" ".join(sys.argv[1:]))
    print(render_text(report))


def setting(text: str) -> int | float | str:
    """A setting's value: a number where it reads as one (``horizon=8``), else its text (``horizon=hand``)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


if __name__ == "__main__":
    main()
