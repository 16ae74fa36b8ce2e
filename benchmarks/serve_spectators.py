"""How long a served table takes to welcome many spectators: the time from the first connection
to the moment every spectator has its welcome and its first state.

    python3.11 benchmarks/serve_spectators.py [--spectators 200] [--game games/nerts.yaml] [--one-by-one]

``rules serve`` runs in a subprocess on a free port of 127.0.0.1 (its own interpreter, as in real
use): a table of three seats, one person connected, no bots (nothing else happens). The
spectators, in this process, connect all at once (or one after another with ``--one-by-one``)
from this machine (which the per-address limit does not count). ``--root`` runs the server of
another checkout of the project (to compare versions). Prints the seconds taken and the messages
the person received meanwhile.
Needs the [serve] extra.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start(root: Path, game: str, port: int, record: str) -> tuple[subprocess.Popen, dict[str, str]]:
    command = [sys.executable, "-m", "cli", "serve", game, "--seats", "3", "--seed", "1",
               "--port", str(port), "--record", record]
    server = subprocess.Popen(command, cwd=root, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    links = {}
    for line in server.stdout:
        found = re.match(r"\s+(P\d+|spectators): (\S+)", line)
        if found:
            links[found.group(1)] = found.group(2)
        if "spectators" in links:
            break
    for line in server.stderr:
        if "Uvicorn running" in line:
            return server, links
    raise SystemExit("the server did not start")


async def spectator(address: str, welcomed: asyncio.Future, done: asyncio.Event) -> None:
    """A spectator: its welcome and first state, then it stays until the end of the measure."""
    from websockets.asyncio.client import connect

    async with connect(address, max_size=None) as socket:
        await socket.send(json.dumps({"type": "join"}))
        kinds = [json.loads(await socket.recv())["type"], json.loads(await socket.recv())["type"]]
        assert kinds == ["welcome", "state"], kinds
        welcomed.set_result(time.perf_counter())
        await done.wait()


async def measure(links: dict[str, str], count: int, one_by_one: bool) -> tuple[float, int]:
    """Seconds until every spectator is welcomed; messages the person received meanwhile."""
    from websockets.asyncio.client import connect

    address = links["spectators"].replace("http://", "ws://").replace("/t/", "/ws/")
    token = links["P1"].split("#token=")[1]
    loop, done = asyncio.get_running_loop(), asyncio.Event()
    async with connect(address, max_size=None) as person:
        await person.send(json.dumps({"type": "join", "token": token}))
        await person.recv(), await person.recv()          # its welcome and state
        started = time.perf_counter()
        welcomed, tasks = [], []
        for _ in range(count):
            welcomed.append(loop.create_future())
            tasks.append(asyncio.create_task(spectator(address, welcomed[-1], done)))
            if one_by_one:
                await welcomed[-1]
        last = max(await asyncio.gather(*welcomed))
        received = 0
        while True:
            try:
                await asyncio.wait_for(person.recv(), 0.5)
                received += 1
            except asyncio.TimeoutError:
                break
        done.set()
        await asyncio.gather(*tasks)
    return last - started, received


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--game", default=str(ROOT / "games" / "nerts.yaml"))
    parser.add_argument("--one-by-one", action="store_true")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server runs")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from interpreter.play.serve.runner import free_port

    with tempfile.TemporaryDirectory() as folder:
        server, links = start(args.root, args.game, free_port(), str(Path(folder) / "table.jsonl"))
        try:
            seconds, received = asyncio.run(measure(links, args.spectators, args.one_by_one))
        finally:
            server.terminate()
            server.wait()
    print(f"{args.spectators} spectators welcomed (welcome and state each) in {seconds:.2f} s; "
          f"the person received {received} messages meanwhile")


if __name__ == "__main__":
    main()
