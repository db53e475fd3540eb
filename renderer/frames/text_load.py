"""Putting a loaded note's text into its editor: a big one built aside, a slice at a time (R67).

``setPlainText`` builds every block of a note in one go on the GUI thread: about
350 ms for a 5 MiB note here. A text longer than :data:`LOAD_SLICE_CHARS` is put
into a fresh document that no view shows, a slice per turn of the event loop, and
that document then replaces the editor's. Appending the slices to the document the
editor shows would be as quick, but Qt's plain-text layout, fed that way, made each
later keystroke in a 5 MiB note cost up to 47 ms instead of 10 (p99 10-17 ms
against 4-6). The frame stays read-only and not loaded until the swap, so nothing
reads or saves half a note meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Final

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit

from renderer.frames.note_fetch import LoadedNote
from renderer.frames.shared_document import fresh_document, show_document

LOAD_SLICE_CHARS: Final = 256 * 1024
"""Characters put in per step; a text up to this long is set at once."""


def text_slices(
    document: QTextDocument, text: str, slice_chars: int
) -> Generator[None, None, None]:
    """Append ``text`` to ``document``, ``slice_chars`` per step, as one ``setPlainText``.

    A slice never ends between the ``\\r`` and ``\\n`` of one line end, which Qt makes
    one block break of; cut anywhere else, the slices give the blocks one call would
    (a property test holds them equal). No undo step is kept of it.
    """
    document.setUndoRedoEnabled(False)
    cursor = QTextCursor(document)
    start = 0
    while start < len(text):
        end = start + slice_chars
        if text[end - 1 : end + 1] == "\r\n":
            end += 1
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text[start:end])
        start = end
        yield
    document.setUndoRedoEnabled(True)
    document.setModified(False)


class TextLoad(QObject):
    """One editor's load: a short text at once, a long one built aside and then swapped in."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self._steps: Generator[None, None, None] | None = None
        self._building: QTextDocument | None = None
        self._finish: Callable[[], None] | None = None

    @property
    def busy(self) -> bool:
        """True while a long text is still being built."""
        return self._steps is not None

    def start(self, editor: QPlainTextEdit, note: LoadedNote, done: Callable[[], None]) -> None:
        """Show ``note`` in ``editor``, then call ``done``: at once for a short text."""
        self.cancel()
        if len(note.text) <= LOAD_SLICE_CHARS:
            editor.setWordWrapMode(note.wrap)  # R63: linear for endless lines
            editor.setPlainText(note.text)
            done()
            return
        editor.setPlainText("")  # the note shown before is not this one
        editor.setWordWrapMode(note.wrap)  # cheap on an empty document, copied to the new one
        building = fresh_document(editor)

        def finish() -> None:
            show_document(editor, building)
            done()

        self._building, self._finish = building, finish
        self._steps = text_slices(building, note.text, LOAD_SLICE_CHARS)
        self._timer.start()

    def cancel(self) -> None:
        """Stop a load under way; the document it was building is dropped."""
        building, self._building = self._building, None
        self._steps = self._finish = None
        self._timer.stop()
        if building is not None:
            building.deleteLater()

    def _step(self) -> None:
        if self._steps is None:
            return
        if next(self._steps, False) is None:
            return
        finish = self._finish
        self._steps = self._building = self._finish = None
        self._timer.stop()
        if finish is not None:
            finish()
