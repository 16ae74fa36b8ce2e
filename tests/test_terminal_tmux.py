"""The full-screen table in a real terminal (tmux), played by keys as a person would: a whole deal
of Euchre to the end of the game, and Ctrl-C, which ends the game as it does in the line mode
(exit 130, the record kept)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="the terminal tests need tmux: apt-get install -y tmux")]

RULES = Path(sys.executable).parent / "rules"
WAIT = 60.0          # seconds at most for the screen to show what is awaited


class Terminal:
    """A tmux session of its own (its own server socket) running one command."""

    def __init__(self, tmp_path: Path, command: str, size=(120, 40)):
        self.socket = f"rules-test-{tmp_path.name}"
        self.rc = tmp_path / "rc"
        script = f"cd {tmp_path} && {command}; echo $? > {self.rc}"
        # The pane stays when the command ends, for its last screen to be read.
        self._tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), script,
                   ";", "set-option", "-t", "t", "remain-on-exit", "on")

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False).stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def printed(self) -> str:
        """What the command printed once its full screen was gone (with the lines scrolled away)."""
        return self._tmux("capture-pane", "-p", "-t", "t", "-S", "-200")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, test, what: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            screen = self.screen()
            if test(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"the screen never showed {what}:\n{self.screen()}")

    def exit_code(self) -> int:
        deadline = time.monotonic() + WAIT
        while not self.rc.exists() or not self.rc.read_text().strip():
            assert time.monotonic() < deadline, f"the command did not end:\n{self.screen()}"
            time.sleep(0.2)
        return int(self.rc.read_text())

    def close(self) -> None:
        self._tmux("kill-server")


@pytest.fixture
def terminal(tmp_path):
    made = []

    def start(command: str, size=(120, 40)) -> Terminal:
        made.append(Terminal(tmp_path, command, size))
        return made[-1]
    yield start
    for term in made:
        term.close()


def test_a_whole_deal_of_euchre_is_played_by_keys_to_its_breakdown_and_the_final_table(terminal, tmp_path):
    term = terminal(f"{RULES} play euchre -o openspiel=true --seed 1 --bot random --record deal.jsonl")
    term.wait_for(lambda s: "You (P1)" in s and "dealer" in s, "the table")
    first = term.screen()
    assert "Making trump · your turn · you are P1" in first
    assert "P2 (left)" in first and "P3 (across, partner)" in first and "P4 (right) dealer" in first
    assert "trump_color" not in first and "order_up" not in first
    presses = 0
    while "Game over." not in (screen := term.screen()):
        assert presses < 60, f"no end of the deal after {presses} presses:\n{screen}"
        if "choose a move" in screen or "your move" in screen:
            term.keys("1")
            presses += 1
        time.sleep(0.3)
    screen = term.wait_for(lambda s: "Hand 1" in s, "the hand's breakdown")
    assert "game over" in screen.splitlines()[0] and "tricks taken" in screen and "P4 took" in screen, screen
    assert presses > 3
    term.keys("C-q")
    assert term.exit_code() == 0
    after = term.printed()
    assert "seat  place  score  result" in after and "seed 1; the record is in deal.jsonl" in after
    moves = [json.loads(line)["move"] for line in (tmp_path / "deal.jsonl").read_text().splitlines()[1:]]
    assert len([m for m in moves if m.startswith("play ")]) in (15, 20)     # a lone hand: 15 cards


def test_ctrl_c_on_the_full_screen_table_ends_the_game_with_exit_130_and_keeps_the_record(terminal, tmp_path):
    term = terminal(f"{RULES} play schmier --seed 11 --record kept.jsonl", size=(80, 24))
    term.wait_for(lambda s: "choose a move" in s, "the first choice")
    term.keys("1")                              # bid
    term.wait_for(lambda s: "your move: bid" in s, "the amounts")
    term.keys("1")                              # 3: P1 names trump next
    term.wait_for(lambda s: "Naming trump" in s, "the next phase")
    term.keys("C-c")
    assert term.exit_code() == 130
    after = term.printed()
    assert "interrupted: the game is not finished; the record so far is in kept.jsonl.\nseed 11\n" in after
    header, *moves = [json.loads(line) for line in (tmp_path / "kept.jsonl").read_text().splitlines()]
    assert header["seed"] == 11 and [m["move"] for m in moves][-1] == "bid 3"


def test_a_move_typed_fast_without_a_slash_is_typed_whole(terminal):
    """The keys arrive together: the first letter gives the entry the focus before the rest, so
    the '8' of 'play 8S' picks nothing from the list (the list's second choice is 8♠ as well)."""
    term = terminal(f"{RULES} play last_card --players 2 --seed 4", size=(100, 30))
    term.wait_for(lambda s: "1. 5♦" in s, "the choices")
    term.keys("play 8S", "Enter")
    screen = term.wait_for(lambda s: "P1: play 8♠" in s, "the move played")
    assert "P1: play 5♦" not in screen
    term.keys("C-q")
