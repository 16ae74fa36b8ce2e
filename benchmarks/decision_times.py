"""How long a bot takes to decide, game by game: the median and the worst of its decisions (those
with more than one legal move), the bot at seat 1 and greedy bots at the others.

    python benchmarks/decision_times.py hard dice_poker:2 schmier:6 gnoming_a_round:3 --moves 150
"""
from __future__ import annotations

import argparse
import statistics
import time

from interpreter.api import load_game
from interpreter.bots.agents import make_bot
from interpreter.play.realtime import Table


def decision_times(kind: str, path: str, players: int, seed: int, moves: int) -> list[float]:
    loaded = load_game(path)
    state = loaded.new_state(players, seed)
    bots = {seat: make_bot(kind if seat == 0 else "greedy", loaded.game, seat, seed) for seat in range(players)}
    timed, choose = [], bots[0].choose

    def timed_choose(position, legal):
        started = time.perf_counter()
        move = choose(position, legal)
        if len(legal) > 1:
            timed.append(time.perf_counter() - started)
        return move
    bots[0].choose = timed_choose
    table = Table(loaded.game, state, bots, seed=seed)
    while not state.over and state.moves < moves:
        table.next_bot_action()
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind")
    parser.add_argument("games", nargs="+", help="GAME:PLAYERS, a bundled game's file name without .yaml")
    parser.add_argument("--moves", type=int, default=150, help="moves of each game played (all seats)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for spec in args.games:
        name, _, players = spec.partition(":")
        times = decision_times(args.kind, f"games/{name}.yaml", int(players), args.seed, args.moves)
        print(f"{name} ({players} players), {args.kind}: {len(times)} decisions, median {statistics.median(times):.3f} s, "
              f"worst {max(times):.3f} s", flush=True)


if __name__ == "__main__":
    main()
