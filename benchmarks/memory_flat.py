"""Memory over many simulated games: random playouts of one game under tracemalloc, with the
memory still held (after garbage collection) written after every block of games. A flat
profile keeps that figure the same from the first block to the last.

    python3.11 benchmarks/memory_flat.py games/crazy_eights.yaml --games 10000 --block 1000
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.api import load_game  # noqa: E402  (after the path is set)
from interpreter.tools.bench import format_bytes, interpreter_playouts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", type=Path)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--block", type=int, default=1_000)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    loaded = load_game(args.game)
    play = interpreter_playouts(loaded, args.players or loaded.game.default_players)
    play(1, 0)          # the first game fills the process-wide caches, which are bounded
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    started = time.perf_counter()
    print(f"{'games':>8} {'moves':>10} {'retained':>10} {'peak so far':>12} {'seconds':>8}")
    played = moves = 0
    while played < args.games:
        count = min(args.block, args.games - played)
        moves += play(count, played)
        played += count
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        print(f"{played:>8} {moves:>10} {format_bytes(current - before):>10} {format_bytes(peak - before):>12} "
              f"{time.perf_counter() - started:>8.0f}", flush=True)
    tracemalloc.stop()


if __name__ == "__main__":
    main()
