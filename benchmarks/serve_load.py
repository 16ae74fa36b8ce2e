"""Load on a served table: many tables of bot clients over loopback WebSockets, and the latency
from a move's arrival at the server to every seat's update.

    python3.11 benchmarks/serve_load.py [--tables 50] [--seats 3] [--seconds 20] [--think 0.5] [--game games/nerts.yaml]

The server runs in a subprocess on a free port of 127.0.0.1 (its own interpreter, as in real
use); it stamps each accepted move with ``time.monotonic()`` when the message arrives, and
writes those stamps when it is stopped. The clients, in this process, are bots: each seat
chooses one of its legal moves at random after ``--think`` seconds (on average), presses Ready
between hands, and notes when each new position reaches it (the monotonic clock is the
machine's, shared by both processes). For each accepted move the latency is the time from its
arrival to the moment the last seat of the table received a position that includes it. Prints the
median, the 90th and the 99th percentile, and the moves per second the server took. Needs
the [serve] extra. Stops by itself after ``--seconds``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

COUNTS = {"sent": 0, "refused": 0, "error": 0}
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SERVER = """
import json, signal, sys, time
sys.path.insert(0, {root!r})
from interpreter.play.serve import hosted
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import config, free_port
import uvicorn

arrivals = []
original = hosted.HostedTable.move
def stamped(self, seat, text, version):
    arrived = time.monotonic()
    changed, reply = original(self, seat, text, version)
    if reply is None:
        arrivals.append([self.id, self.version, arrived])
    return changed, reply
hosted.HostedTable.move = stamped

tables = Tables()
made = [tables.create({game!r}, players={seats}, seed=i + 1, bot_kind="random") for i in range({tables})]
port = free_port()
print(json.dumps({{"port": port, "tables": [[t.id, [t.tokens.token(s) for s in t.people]] for t in made]}}), flush=True)
server = uvicorn.Server(config(tables, "127.0.0.1", port))
def stop(*_):
    server.should_exit = True
signal.signal(signal.SIGTERM, stop)
server.run()
with open({out!r}, "w") as f:
    json.dump(arrivals, f)
"""


async def seat_client(port, table_id, token, think, until, seen, rng):
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{table_id}", max_size=None) as socket:
        await socket.send(json.dumps({"type": "join", "token": token}))
        waiting_reply, state = False, None
        next_move = time.monotonic() + rng.uniform(0, think)
        while time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.01, next_move - time.monotonic()))
                message = json.loads(raw)
                if message["type"] == "state":
                    seen.append((message["version"], time.monotonic()))
                    state = message
                    waiting_reply = False
                    if message["paused"] and token and message["view"]["seat"] not in message["ready"]:
                        await socket.send(json.dumps({"type": "ready"}))
                    if message["final"]:
                        return
                elif message["type"] in ("refused", "error"):
                    waiting_reply = False
                    COUNTS[message["type"]] += 1
                continue
            except asyncio.TimeoutError:
                pass
            next_move = time.monotonic() + rng.uniform(0.5 * think, 1.5 * think)
            if state is not None and not waiting_reply and state["view"]["moves"] and not state["paused"]:
                move = rng.choice(state["view"]["moves"])
                await socket.send(json.dumps({"type": "move", "move": move, "version": state["version"]}))
                COUNTS["sent"] += 1
                waiting_reply = True


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def latencies(arrivals, seen_by_table):
    out = []
    for table_id, version, arrived in arrivals:
        reached = []
        for seen in seen_by_table[table_id]:
            later = [t for v, t in seen if v >= version and t >= arrived]
            if not later:
                break
            reached.append(min(later))
        else:
            out.append(max(reached) - arrived)
    return out


async def clients(info, seats, think, seconds):
    until = time.monotonic() + seconds
    rng = random.Random(1)
    seen_by_table, tasks = {}, []
    for table_id, tokens in info["tables"]:
        seen_by_table[table_id] = [[] for _ in tokens]
        for token, seen in zip(tokens, seen_by_table[table_id]):
            tasks.append(seat_client(info["port"], table_id, token, think, until, seen, random.Random(rng.random())))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        print(f"{len(failed)} clients failed; the first: {failed[0]!r}")
    return seen_by_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5, help="seconds a bot client takes per move, on average")
    parser.add_argument("--game", default=str(ROOT / "games" / "nerts.yaml"))
    args = parser.parse_args()
    out = Path(f"/tmp/serve_load_{time.monotonic_ns()}.json")
    code = SERVER.format(root=str(ROOT), game=args.game, seats=args.seats, tables=args.tables, out=str(out))
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        info = json.loads(server.stdout.readline())
        time.sleep(1.0)      # uvicorn's start
        seen_by_table = asyncio.run(clients(info, args.seats, args.think, args.seconds))
    finally:
        server.terminate()
        server.wait(30)
    arrivals = json.loads(out.read_text())
    out.unlink()
    found = latencies(arrivals, seen_by_table)
    ms = [1000 * x for x in found]
    print(f"{args.tables} tables x {args.seats} seats of {Path(args.game).stem}, {args.seconds:g} s, think {args.think:g} s")
    print(f"moves sent: {COUNTS['sent']}, accepted: {len(arrivals)} ({len(arrivals) / args.seconds:.0f} a second), "
          f"refused: {COUNTS['refused']}, errors: {COUNTS['error']}; latencies measured: {len(ms)}")
    if ms:
        print(f"arrival -> every seat updated: median {statistics.median(ms):.1f} ms, "
              f"p90 {percentile(ms, 0.9):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")


if __name__ == "__main__":
    main()
