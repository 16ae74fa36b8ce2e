"""No signal loses a record: Ctrl-C (SIGINT), SIGTERM and SIGHUP sent to a real `rules play`
process, in the line mode (a pipe) and at the full-screen table (a pseudo-terminal), leave the
record in place and replayable, with no temporary file behind."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from interpreter.play.records import read_record, replay
from interpreter.api import load_game
from tests.helpers import GAMES, ROOT

RULES = [sys.executable, "-m", "cli"]
WAIT = 60.0
STOPS = [(signal.SIGINT, "interrupted", 130), (signal.SIGTERM, "stopped by SIGTERM", 143),
         (signal.SIGHUP, "stopped by SIGHUP", 129)]


def _read_until(fd: int, wanted: bytes, seen: bytearray) -> None:
    deadline = time.monotonic() + WAIT
    while wanted not in seen:
        if time.monotonic() > deadline:
            raise AssertionError(f"{wanted!r} never came; the output was {bytes(seen[-400:])!r}")
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:         # the terminal's other end is closed
                chunk = b""
            if not chunk:
                raise AssertionError(f"the output ended before {wanted!r}: {bytes(seen[-400:])!r}")
            seen += chunk


def _read_to_end(fd: int, seen: bytearray) -> bytes:
    while True:
        ready, _, _ = select.select([fd], [], [], WAIT)
        try:
            chunk = os.read(fd, 65536) if ready else b""
        except OSError:
            chunk = b""
        if not chunk:
            return bytes(seen)
        seen += chunk


def _assert_replayable(record, moves_at_least: int) -> None:
    assert not [p.name for p in record.parent.iterdir() if p.name.endswith(".part")]
    kept = read_record(record)
    assert kept.full and kept.seed == 4 and len(kept.moves) >= moves_at_least
    loaded = load_game(GAMES / "schmier.yaml")
    state = replay(loaded.game, kept, loaded.digest())
    assert state.round == 1 and not state.over


def _ctrl_c_as_from_a_terminal() -> None:
    """In the game's process before it starts: SIGINT neither ignored nor blocked, whatever this
    process inherited (a process started in the background of a shell ignores it) or a test
    before left."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.parametrize("signum, said, code", STOPS, ids=lambda v: getattr(v, "name", None))
def test_a_signal_to_the_line_mode_keeps_the_record(tmp_path, signum, said, code):
    record = tmp_path / "R.jsonl"
    process = subprocess.Popen([*RULES, "play", "schmier", "--seed", "4", "--record", str(record)], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=_ctrl_c_as_from_a_terminal)
    seen = bytearray()
    try:
        _read_until(process.stdout.fileno(), b"P1> ", seen)        # the bots have bid: P1 is asked
        # Input stays open while the signal stops the game at its prompt: closed at once, the
        # prompt could meet the end of input first. A signal that comes after Python's last look
        # before it blocks in the read waits for the read to return, as with any program reading
        # a pipe: a Ctrl-C is then pressed again. (A SIGTERM or SIGHUP is handled once input ends.)
        for _ in range(3 if signum == signal.SIGINT else 1):
            process.send_signal(signum)
            try:
                process.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                pass
        out, err = process.communicate(timeout=WAIT)
    finally:
        process.kill()
    output = (bytes(seen) + out).decode()
    assert process.returncode == code, output[-2000:] + err.decode()
    assert output.endswith(f"P1> \n{said}: the game is not finished; the record so far is in {record}.\nseed 4\n")
    assert err == b""
    _assert_replayable(record, 3)


def _on_a_terminal(args: list[str], cwd) -> tuple[subprocess.Popen, int]:
    """A process on a new pseudo-terminal of 120x40 that is its controlling terminal (closing
    the other end hangs it up, as closing a terminal window does)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    process = subprocess.Popen(args, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env,
                               start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    return process, master


@pytest.mark.slow
@pytest.mark.parametrize("signum, said, code", STOPS[1:], ids=lambda v: getattr(v, "name", None))
def test_a_signal_to_the_full_screen_table_keeps_the_record(tmp_path, signum, said, code):
    record = tmp_path / "R.jsonl"
    process, master = _on_a_terminal([*RULES, "play", "schmier", "--seed", "4", "--record", str(record)], ROOT)
    seen = bytearray()
    try:
        _read_until(master, b"your turn", seen)
        process.send_signal(signum)
        output = _read_to_end(master, seen).decode(errors="replace")
        assert process.wait(WAIT) == code
    finally:
        process.kill()
        os.close(master)
    assert f"{said}: the game is not finished; the record so far is in {record}.\r\nseed 4" in output
    assert "Traceback" not in output
    _assert_replayable(record, 3)


@pytest.mark.slow
def test_ctrl_c_typed_on_the_full_screen_table_stops_it_as_in_the_line_mode(tmp_path):
    """On the full screen the terminal sends Ctrl-C as a key, not a signal."""
    record = tmp_path / "R.jsonl"
    process, master = _on_a_terminal([*RULES, "play", "schmier", "--seed", "4", "--record", str(record)], ROOT)
    seen = bytearray()
    try:
        _read_until(master, b"your turn", seen)
        os.write(master, b"\x03")
        output = _read_to_end(master, seen).decode(errors="replace")
        assert process.wait(WAIT) == 130
    finally:
        process.kill()
        os.close(master)
    assert f"interrupted: the game is not finished; the record so far is in {record}.\r\nseed 4" in output
    assert "Traceback" not in output
    _assert_replayable(record, 3)


@pytest.mark.slow
@pytest.mark.parametrize("plain", [False, True], ids=["table", "line mode"])
def test_closing_the_terminal_keeps_the_record(tmp_path, plain):
    """The terminal goes away (its other end closed): reading it fails, then SIGHUP comes."""
    record = tmp_path / "R.jsonl"
    args = [*RULES, "play", "schmier", "--seed", "4", "--record", str(record)] + (["--plain"] if plain else [])
    process, master = _on_a_terminal(args, ROOT)
    try:
        _read_until(master, b"P1> " if plain else b"your turn", bytearray())
        os.close(master)
        assert process.wait(WAIT) in (1, 129)      # the input ended, or the hangup came first
    finally:
        process.kill()
    _assert_replayable(record, 3)
    assert json.loads(record.read_text().splitlines()[0])["full"] is True


def test_a_signal_while_the_record_is_put_in_place_waits_until_it_is_whole(tmp_path, monkeypatch):
    from interpreter.play import record_writer
    from interpreter.play.records import Record
    from interpreter.play.signals import Stopped, stop_on_signals

    record = tmp_path / "R.jsonl"
    writer = record_writer.RecordWriter.open(record, Record("Dice poker", "abc", "dice_poker", {}, 9, 2))
    writer.add(0, "throw", 0.5)
    put_in_place = os.replace

    def replace_after_a_signal(source, target):
        os.kill(os.getpid(), signal.SIGTERM)        # arrives in the middle of the last write
        put_in_place(source, target)
    monkeypatch.setattr(record_writer.os, "replace", replace_after_a_signal)
    with stop_on_signals(), pytest.raises(Stopped) as stopped:
        writer.close()
    assert stopped.value.signum == signal.SIGTERM
    assert [json.loads(line) for line in record.read_text().splitlines()][1:] == [
        {"seat": 0, "move": "throw", "t": 0.5}]
    assert read_record(record).seed == 9

