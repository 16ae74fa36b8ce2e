"""The widgets of the full-screen table: the typed entry (with its history and completion), the
list of choices, and the board with its cursor. They hand every decision to the app."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.binding import Binding
from textual.widgets import Input, OptionList, Static

if TYPE_CHECKING:
    from textual.events import Click


class TableActions(Protocol):
    """What the board pane asks of its app (``TableApp``)."""

    def step_cursor(self, dx: int, dy: int) -> None: ...

    def pick_at_cursor(self) -> None: ...

    def click_at(self, x: int, y: int) -> None: ...

    def redraw(self) -> None: ...


class MoveInput(Input):
    """The typed entry, with the moves typed before (up and down)."""

    BINDINGS = [Binding("up", "older", show=False), Binding("down", "newer", show=False),
                Binding("escape", "leave", show=False), Binding("tab", "complete", show=False)]

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.history: list[str] = []
        self.back_in_history = 0

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self.back_in_history = 0

    def action_older(self) -> None:
        if self.back_in_history < len(self.history):
            self.back_in_history += 1
            self.value = self.history[-self.back_in_history]
            self.cursor_position = len(self.value)

    def action_newer(self) -> None:
        if self.back_in_history > 0:
            self.back_in_history -= 1
            self.value = self.history[-self.back_in_history] if self.back_in_history else ""
            self.cursor_position = len(self.value)

    def action_leave(self) -> None:
        self.app.query_one("#choices").focus()

    def action_complete(self) -> None:
        """Take the completion offered (as the right arrow does at the end of the line)."""
        if self._suggestion and len(self._suggestion) > len(self.value):
            self.value = self._suggestion
            self.cursor_position = len(self.value)


class ChoiceList(OptionList):
    """The choices of the move being built; Tab goes to the board."""

    _shown: list[tuple[str, bool, bool]]     # the choices drawn last (``TableApp._draw_choices``)

    BINDINGS = [Binding("tab", "app.focus_board", show=False)]


class BoardPane(Static, can_focus=True):
    """The board: with the focus, a cursor over its places; Enter, space or a click picks one."""

    BINDINGS = [Binding("left", "step(-1, 0)", show=False), Binding("right", "step(1, 0)", show=False),
                Binding("up", "step(0, -1)", show=False), Binding("down", "step(0, 1)", show=False),
                Binding("enter", "pick", show=False), Binding("space", "pick", show=False),
                Binding("tab", "app.focus_choices", show=False)]

    @property
    def table_app(self) -> TableActions:
        """The app the pane is in: the table's."""
        return cast(TableActions, self.app)

    def action_step(self, dx: int, dy: int) -> None:
        self.table_app.step_cursor(dx, dy)

    def action_pick(self) -> None:
        self.table_app.pick_at_cursor()

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            self.table_app.click_at(offset.x + self.scroll_offset.x, offset.y + self.scroll_offset.y)

    def on_focus(self) -> None:
        self.table_app.step_cursor(0, 0)         # the cursor shows, where it was or on a card to move

    def on_blur(self) -> None:
        self.table_app.redraw()
