"""The assistant's message box."""

from __future__ import annotations

from typing import Final, NamedTuple

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget


class InputKeys(NamedTuple):
    """The keys of the assistant's input; the frame binds them and Help lists them from here."""

    send: str = "Enter"
    send_also: str = "Ctrl+Return"
    new_line: str = "Shift+Enter"
    leave: str = "Tab"
    stop: str = "Esc"


INPUT_KEYS: Final = InputKeys()


class MessageInput(QPlainTextEdit):
    """The message box: Enter sends, Shift+Enter a new line, Tab and Shift+Tab leave (R85)."""

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # A message has no use for a tab character; the keyboard must be able to leave.
        self.setTabChangesFocus(True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)

    def keep(self, message: str) -> None:
        """Put a message that did not go through back, after anything typed since (R36)."""
        typed = self.toPlainText()
        if message in typed:
            return
        if not typed.strip():
            self.setPlainText(message)
            return
        cursor = QTextCursor(self.document())  # not the user's cursor: typing goes on
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText("\n" + message)
