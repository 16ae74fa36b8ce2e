"""``rules serve`` in a real process for the tests: its links, and its console (standard error)
as it is written; stopped with SIGTERM, as uvicorn expects. ``file_limit`` caps the size of any
file the process writes (``RLIMIT_FSIZE``: a write beyond it fails with EFBIG, as on a full disk;
Python ignores the signal SIGXFSZ that would otherwise kill it)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time

from interpreter.play.serve.runner import free_port

from tests.helpers import ROOT

START_TIMEOUT = 60.0
RUN = ("import resource, sys\n"
       "limit = int(sys.argv.pop(1))\n"
       "if limit:\n"
       "    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))\n"
       "from cli import main\n"
       "main()\n")


class Served:
    """A ``rules serve`` process; ``links`` maps "P1", ... and "spectators" to their links."""

    def __init__(self, *args: str, file_limit: int = 0, cwd=ROOT, cache=None):
        """``cache``: a folder for the user cache (a process with a file limit must not write a
        torn entry into the one the other tests share)."""
        self.port = free_port()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **({"XDG_CACHE_HOME": str(cache)} if cache else {})}
        self.process = subprocess.Popen(
            [sys.executable, "-c", RUN, str(file_limit), "serve", *args, "--port", str(self.port)],
            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self.changed = threading.Condition()
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()

    def _read(self, stream, lines: list[str]) -> None:
        for line in stream:
            with self.changed:
                lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            lines.append(None)          # the end of the stream
            self.changed.notify_all()

    def wait_for(self, lines: list[str], pattern: str, timeout: float = START_TIMEOUT) -> str:
        """The first line matching ``pattern`` (a regular expression), once it is written."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for line in lines:
                    if line is not None and re.search(pattern, line):
                        return line
                if None in lines or time.monotonic() > deadline:
                    raise AssertionError(f"no line like {pattern!r}; standard error:\n" + self.console)
                self.changed.wait(0.5)

    def started(self) -> "Served":
        """Once it has printed its links and uvicorn listens."""
        self.wait_for(self.out, r"^  spectators: ")
        self.wait_for(self.err, r"Uvicorn running on")
        return self

    @property
    def links(self) -> dict[str, str]:
        found = (re.match(r"\s+(P\d+|spectators): (\S+)", line or "") for line in self.out)
        return {m.group(1): m.group(2).replace("0.0.0.0", "127.0.0.1") for m in found if m}

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def console(self) -> str:
        return "\n".join(line for line in self.err if line is not None)

    def stop(self) -> int:
        """Stop it (SIGTERM) and read all it wrote; its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.finished()

    def finished(self) -> int:
        """Wait until it ends by itself; its exit code, everything it wrote read."""
        code = self.process.wait(START_TIMEOUT)
        deadline = time.monotonic() + START_TIMEOUT
        with self.changed:                  # everything it wrote, read
            while (None not in self.err or None not in self.out) and time.monotonic() < deadline:
                self.changed.wait(0.5)
        return code

    def __enter__(self) -> "Served":
        return self.started()

    def __exit__(self, *exc) -> None:
        self.stop()


class Table:
    """What a test client needs of a served table: its id (``Client(served, Table(link), token)``)."""

    def __init__(self, link: str):
        self.id = link.split("/t/", 1)[1].split("#", 1)[0]


def token(link: str) -> str | None:
    return link.split("#token=", 1)[1] if "#token=" in link else None
