"""`rules lsp` driven through the language server protocol over stdio, as an editor drives it:
the errors of `rules validate` as diagnostics with their ranges while a file is typed, hover text
for built-ins, effects and the game's own names, and completion of names in expressions."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="rules lsp needs the [lsp] extra: pip install 'tablerules[lsp]'")

from tests.helpers import GAMES  # noqa: E402

READ_TIMEOUT = 30


class Editor:
    """A client of the language server: JSON-RPC messages framed with Content-Length."""

    def __init__(self, root: Path):
        self.process = subprocess.Popen([sys.executable, "-c", "from cli import main; main()", "lsp"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=Path(__file__).parents[1])
        self.next_id = 0
        self.notes: list[dict] = []
        self.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        length = None
        while True:
            line = self.process.stdout.readline()
            assert line, "the server closed its output"
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                assert "error" not in message, message
                return message["result"]
            self.notes.append(message)

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def diagnostics(self, uri: str) -> list[dict]:
        """The next diagnostics published for ``uri``."""
        while True:
            for n, note in enumerate(self.notes):
                if note.get("method") == "textDocument/publishDiagnostics" and note["params"]["uri"] == uri:
                    del self.notes[n]
                    return note["params"]["diagnostics"]
            self.notes.append(self.receive())

    def close(self) -> None:
        self.request("shutdown", {})
        self.notify("exit", {})
        self.process.wait(READ_TIMEOUT)


@pytest.fixture
def editor(tmp_path):
    client = Editor(tmp_path)
    yield client
    if client.process.poll() is None:
        client.close()


def open_file(editor, path: Path, text: str) -> str:
    uri = path.as_uri()
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    return uri


def change(editor, uri: str, text: str, version: int) -> None:
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                            "contentChanges": [{"text": text}]})


PIG = (GAMES.parent / "docs" / "authoring.md").read_text().split("<!-- file: pig.yaml -->\n```yaml\n")[1].split("```")[0]


def test_errors_come_as_the_file_is_typed_and_go_when_it_is_right(editor, tmp_path):
    uri = open_file(editor, tmp_path / "pig.yaml", PIG.replace("when: turn_total > 0", "when: turn_totl > 0"))
    [found] = editor.diagnostics(uri)
    line = PIG.splitlines().index("    when: turn_total > 0")
    assert found == {"range": {"start": {"line": line, "character": 10}, "end": {"line": line, "character": 19}},
                     "message": "unknown name 'turn_totl'\nhint: did you mean 'turn_total' or 'turn'?",
                     "severity": 1, "source": "rules"}
    change(editor, uri, PIG.replace("      - end_turn\n\nscoring", "      - end_turn\n      - roll:\n\nscoring"), 2)
    [found] = editor.diagnostics(uri)
    assert found["message"] == ("expected text or a whole number or a number or true or false, got nothing "
                                "in moves.hold.do[3].roll")
    change(editor, uri, PIG, 3)
    assert editor.diagnostics(uri) == []


def test_an_error_in_the_file_a_variant_extends_is_shown_at_its_first_line(editor, tmp_path):
    (tmp_path / "pig.yaml").write_text(PIG.replace("rounds: 1", "rounds: one"))
    uri = open_file(editor, tmp_path / "variant.yaml", "extends: pig.yaml\nname: Variant\n")
    [found] = editor.diagnostics(uri)
    assert found["range"]["start"] == {"line": 0, "character": 0}
    assert found["message"].startswith(f"{tmp_path / 'pig.yaml'}:")


def test_hover_explains_built_ins_effects_and_the_games_own_names(editor, tmp_path):
    text = PIG.replace("until: any(p.score >= target for p in players)",
                       "until: any(p.score >= target for p in players) or count(dice, 6) > 3")
    uri = open_file(editor, tmp_path / "pig.yaml", text)
    assert editor.diagnostics(uri) == []
    lines = text.splitlines()

    def hover_at(line_text: str, word: str) -> str | None:
        line = lines.index(line_text)
        result = editor.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                       "position": {"line": line, "character": line_text.index(word) + 1}})
        return result and result["contents"]["value"]

    until = next(line for line in lines if "until:" in line)
    assert hover_at(until, "count(") == ("**count** (function): `count(xs, value)`\n\n"
                                         "How many items of a list equal a value.\n\n`count([6, 1, 6], 6) → 2`")
    assert hover_at(until, "target") == "**target** (option): `int, default 100`\n\nPoints needed to win."
    assert hover_at(until, "players") == "**players** (name): `list of seat`\n\nevery seat, in seat order"
    assert hover_at("      - roll: dice", "roll") == ("**roll** (effect): `- roll: ...`\n\n"
                                                      "Throws again the dice showing these values: roll: dice, roll: "
                                                      "chosen; of: p for another seat's cup (dice per: seat).")
    assert hover_at("    turn_total: 0        # what the player to move has gathered this turn", "turn_total") == \
        "**turn_total** (variable): `game variable, starts at 0`\n\nOne for the game."
    assert hover_at("      - end_turn", "end_turn").startswith("**end_turn** (effect)")
    assert hover_at("    description: Roll the die.", "Roll") is None


def test_completion_offers_the_names_that_start_as_typed(editor, tmp_path):
    text = PIG.replace("    when: turn_total > 0", "    when: tur")
    uri = open_file(editor, tmp_path / "pig.yaml", text)
    editor.diagnostics(uri)
    line = text.splitlines().index("    when: tur")
    result = editor.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": line, "character": len("    when: tur")}})
    labels = [item["label"] for item in result["items"]]
    assert labels == ["turn_total", "turn"]
    assert result["items"][0]["detail"] == "game variable, starts at 0"
