"""The full-screen table's cost of one redraw after one bot action, headless, in process CPU time.

    python3.11 benchmarks/tui_redraw.py [--game games/nerts.yaml] [--players 4] [--actions 300]
                                        [--size 120x40]

P1 is a person who does nothing; the bots play free play one action at a time. For each action
it measures the bot's own move (the engine and the bot) apart from the redraw: the controller
catching up (view, marks, the move list of P1), the widgets updated, and Textual laying out and
rendering the frame (the pilot's pause). CPU time, not wall time, so that a busy machine only
adds noise, not waiting. The target is under 20 ms per redraw for Nerts with 4 seats at 120x40.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.api import load_game  # noqa: E402
from interpreter.play.session import Session  # noqa: E402
from interpreter.play.tui.app import TableApp  # noqa: E402
from interpreter.play.tui.clock import SetClock  # noqa: E402


async def measure(game: str, players: int, actions: int, size: tuple[int, int], seed: int) -> dict:
    session = Session(load_game(game), players, seed, "greedy", {0}, 1.0)
    app = TableApp(session, clock=SetClock(), bot_delay=0, auto=False)
    bot_costs, draw_costs = [], []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        while len(draw_costs) < actions and not session.state.over:
            if session.paused:
                session.resume(session.table.now)
            start = time.process_time()
            done = session.advance(limit=1, until=session.table.now + 60)
            middle = time.process_time()
            if not done:
                break
            app.controller.refresh()
            app.redraw()
            await pilot.pause()
            end = time.process_time()
            bot_costs.append(middle - start)
            draw_costs.append(end - middle)
    draw_costs.sort()
    return {
        "actions": len(draw_costs),
        "bot_ms": 1000 * statistics.mean(bot_costs),
        "redraw_ms": 1000 * statistics.mean(draw_costs),
        "redraw_median_ms": 1000 * statistics.median(draw_costs),
        "redraw_p95_ms": 1000 * draw_costs[int(0.95 * (len(draw_costs) - 1))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=str(Path(__file__).resolve().parents[1] / "games" / "nerts.yaml"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    result = asyncio.run(measure(args.game, args.players, args.actions, (width, height), args.seed))
    print(f"{Path(args.game).stem}, {args.players} seats, {width}x{height}: {result['actions']} bot actions")
    print(f"  bot action   {result['bot_ms']:6.2f} ms (mean, CPU)")
    print(f"  redraw       {result['redraw_ms']:6.2f} ms (mean)  {result['redraw_median_ms']:6.2f} (median)"
          f"  {result['redraw_p95_ms']:6.2f} (95th percentile)")


if __name__ == "__main__":
    main()
