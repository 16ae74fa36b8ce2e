"""The help over the table: the moves possible now, the game's rules in brief and its legend, the
keys; it scrolls (arrows, Page Up/Down) however small the terminal, and any of Esc, q, ? or
Enter closes it."""
from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

CLOSE_KEYS = ("escape", "q", "question_mark", "enter")


class HelpScreen(ModalScreen):
    CSS = """
    HelpScreen { align: center middle; }
    #help { width: 90%; max-width: 100; height: 90%; border: round $primary; background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding(key, "close", "close", show=False) for key in CLOSE_KEYS]

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def compose(self):
        with VerticalScroll(id="help"):
            yield Static(self.text + "\n\n(arrows scroll · Esc closes)", markup=False)

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss()
