"""The assistant's message box."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit


class MessageInput(QPlainTextEdit):
    """The message box: Enter sends, Shift+Enter starts a new line."""

    submitted = Signal()

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
