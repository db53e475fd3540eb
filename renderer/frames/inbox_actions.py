"""What a person does in an Inbox frame's editor, as methods QA and the app call (contract 6).

Each goes through the editor as typing and selecting do, so the autosave, the
store and the views see exactly what they see for a person's edits.
"""

from __future__ import annotations

from typing import Literal, Protocol

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from renderer.frames.outline import Task
from renderer.qt.autosave import AutosaveCoordinator

Position = int | Literal["end"]


class _EditingFrame(Protocol):
    editor: QPlainTextEdit
    frame_id: str
    _autosave: AutosaveCoordinator

    def read_text(self) -> str: ...

    def _render_view(self) -> None: ...


class EditorActions:
    """Typing, replacing, selecting and ticking tasks in the frame's editor."""

    def type_text(self: _EditingFrame, text: str, at: Position = "end") -> None:
        """Move the cursor and insert ``text`` through the editor, as typing does."""
        cursor = self.editor.textCursor()
        if at == "end":
            cursor.movePosition(QTextCursor.MoveOperation.End)
        else:
            cursor.setPosition(_clamp(self.editor, int(at)))
        self.editor.setTextCursor(cursor)
        self.editor.insertPlainText(text)

    def replace_text(self: _EditingFrame, text: str) -> None:
        """Replace the whole note as one undoable edit (restoring kept text); autosave saves it."""
        if text == self.read_text() and not self._autosave.is_dirty(self.frame_id):
            # Nothing to save, yet the edit must reach the backend once to settle the note.
            self.editor.document().setModified(True)
            self._autosave.edited(self.frame_id)
            return
        cursor = self.editor.textCursor()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        self.editor.setTextCursor(cursor)

    def select(self: _EditingFrame, anchor: int, head: int) -> None:
        """Select from ``anchor`` to ``head`` (UTF-16 offsets, clamped to the document)."""
        cursor = self.editor.textCursor()
        cursor.setPosition(_clamp(self.editor, anchor))
        cursor.setPosition(_clamp(self.editor, head), QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)

    def _on_task_toggled(self: _EditingFrame, task: Task, checked: bool) -> None:
        """A box ticked in the todo view: the task's mark changes in the editor, one edit."""
        block = self.editor.document().findBlockByNumber(task.line)
        if not block.isValid():
            return
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + task.mark_column)
        cursor.setPosition(block.position() + task.mark_column + 1, QTextCursor.MoveMode.KeepAnchor)
        if cursor.selectedText() not in (" ", "x", "X"):
            self._render_view()  # the note changed under the list: redraw instead of guessing
            return
        cursor.insertText("x" if checked else " ")


def _clamp(editor: QPlainTextEdit, position: int) -> int:
    return max(0, min(position, editor.document().characterCount() - 1))
