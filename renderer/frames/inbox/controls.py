"""The Inbox frame's own controls: its pages, the view switcher, the save badge, the problem bar."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontDatabase, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QWidget,
)

from bridge.views import View
from renderer.frames.base import TitleBar, tool_button

BADGES: dict[str, str] = {
    "unsaved": "● Unsaved",
    "saving": "Saving…",
    "saved": "Saved",
    "error": "Not saved",
    "new": "New note",
    "unopened": "Not opened",
}


def show_save_badge(title_bar: TitleBar, state: str) -> None:
    """The title bar's save state ("Saved", "Saving…", "Not saved"…), read aloud too."""
    badge = BADGES.get(state, "")
    title_bar.set_badge(badge, state)
    title_bar.badge.setAccessibleName(f"Save state: {badge}" if badge else "")


LEAVE_NOTE_KEY: Final = "Ctrl+Tab"
BACK_FROM_NOTE_KEY: Final = "Ctrl+Shift+Tab"
"""R85: Tab is text in a note, so these move the focus on from its editor (Qt's convention)."""


def _leave_with(editor: QPlainTextEdit, keys: str, *, forward: bool) -> None:
    shortcut = QShortcut(QKeySequence(keys), editor)
    shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
    # Qt's own step, which hands the move to the window (the window's order, R85).
    shortcut.activated.connect(lambda: QWidget.focusNextPrevChild(editor, forward))


def build_editor(body: QWidget, path: str) -> QPlainTextEdit:
    """The edit view's page: the note's text, read-only until the note has loaded."""
    editor = QPlainTextEdit(body)
    editor.setObjectName("noteEditor")
    editor.setAccessibleName(f"Note text of {path}")
    editor.setReadOnly(True)
    editor.setTabChangesFocus(False)  # Tab types a tab in a note (Markdown indents)
    _leave_with(editor, LEAVE_NOTE_KEY, forward=True)
    _leave_with(editor, BACK_FROM_NOTE_KEY, forward=False)
    _leave_with(editor, "Ctrl+Shift+Backtab", forward=False)  # how X11 reports Ctrl+Shift+Tab
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont)
    font.setPointSizeF(max(font.pointSizeF(), 10.5))
    font.setStyleHint(QFont.StyleHint.SansSerif)
    editor.setFont(font)
    return editor


class ViewSwitcher:
    """One checkable button per view in the title bar, and Alt+1… for the same views."""

    def __init__(
        self,
        frame: QWidget,
        frame_id: str,
        title_bar: TitleBar,
        choose: Callable[[View], None],
        views: Sequence[tuple[View, str, str]],
    ) -> None:
        """``views``: each view's name, label and key, in the buttons' order."""
        self.buttons: dict[View, QToolButton] = {}
        self._group = QButtonGroup(frame)
        self._group.setExclusive(True)
        for view, label, key in views:
            button = tool_button(
                label,
                f"{label} view of {frame_id}",
                f"Show this note as {label.lower()} ({key})",
                title_bar,
            )
            button.setCheckable(True)
            button.setObjectName("viewButton")
            button.clicked.connect(lambda _checked=False, v=view: choose(v))
            self._group.addButton(button)
            self.buttons[view] = button
            title_bar.add_control(button)
            shortcut = QShortcut(QKeySequence(key), frame)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda v=view: choose(v))

    def show(self, view: View) -> None:
        """Check the button of ``view`` (the group unchecks the others)."""
        button = self.buttons[view]
        if not button.isChecked():
            button.setChecked(True)


class LoadProblem(QWidget):
    """Says why the note could not be opened, with a "Try again" button; hidden otherwise."""

    def __init__(self, path: str, retry: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("frameProblem")
        self.label = QLabel("", self)
        self.label.setWordWrap(True)
        self.retry_button = QPushButton("Try again", self)
        self.retry_button.setAccessibleName(f"Try loading {path} again")
        self.retry_button.clicked.connect(retry)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.retry_button)
        self.setVisible(False)

    def show_message(self, message: str) -> None:
        self.label.setText(f"This note could not be opened: {message}")
        self.setVisible(True)
