"""A loaded note's text put into its editor a slice at a time, off the screen (R67).

One ``setPlainText`` of a 5 MiB note holds the GUI thread for 230 ms on a quiet
machine and over a second on a busy one, and showing another note in the frame
first frees the old text in one go inside the same call. Instead the editor shows
a fresh, empty document, and the text goes into it a slice per turn of the event
loop, each sized by how long the slices before took; the editor stays read-only
and the frame not loaded until the last slice is in. The document it replaces is
emptied a slice at a time too (:func:`~renderer.frames.views.leave_documents`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QTextCursor, QTextDocument, QTextOption
from PySide6.QtWidgets import QPlainTextEdit

from renderer.frames.shared_document import fresh_editor_document
from renderer.frames.views import DRAW_STEP_SECONDS, TimedSteps, leave_documents

FIRST_FILL_CHARACTERS: Final = 65_536
"""Characters of a fill's first slice, put in at once: a small note needs no second."""


def fill_slices(document: QTextDocument, text: str, first: int) -> Iterator[int]:
    """Append ``text`` to ``document`` in slices timed to :data:`DRAW_STEP_SECONDS`.

    Yields the length of each slice appended. A slice ends at the end of a line, so
    no line is laid out again as the next slice comes in: a slice that would end
    inside a line takes the rest of that line too (one long line goes in whole, as
    ``setPlainText`` put it in), and a carriage return stays with its line feed.
    """
    cursor = QTextCursor(document)
    steps = TimedSteps(first, DRAW_STEP_SECONDS)
    start = 0
    while start < len(text):
        line_end = text.find("\n", start + steps.size - 1)
        end = len(text) if line_end < 0 else line_end + 1
        with steps.timed(end - start):
            cursor.insertText(text[start:end])
        yield end - start
        start = end


class NoteFill(QObject):
    """Shows a fresh document in an editor and fills it with a note's text, slice by slice.

    The document is filled with its signals blocked: Qt's layout hears of each slice
    (it is told directly, not by a signal) and lays out only that slice's blocks,
    while the editor's "text changed", the autosave and the views hear nothing of a
    half-loaded note. ``on_filled`` runs once the whole text is in. The first slice
    goes in at once; the rest, one per turn of the event loop. A new fill, or
    :meth:`cancel`, stops the one under way.
    """

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self._editor = editor
        self._document: QTextDocument | None = None
        self._slices: Iterator[int] | None = None
        self._on_filled: Callable[[], None] | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)

    def start(
        self,
        text: str,
        wrap: QTextOption.WrapMode,
        on_filled: Callable[[], None],
    ) -> None:
        self.cancel()
        document = fresh_editor_document(self._editor)
        # As after setPlainText: the loaded text is no edit to undo.
        document.setUndoRedoEnabled(False)
        self._document, self._on_filled = document, on_filled
        self._slices = fill_slices(document, text, FIRST_FILL_CHARACTERS)
        more = next(self._slices, None) is not None
        # Shown with its first slice in (a small note: whole); the one shown before is
        # emptied later. The wrap mode is set first: Qt gives a document the editor's
        # mode as it shows it, and a long line laid out by the wrong one holds the
        # window for seconds (R63).
        self._editor.setWordWrapMode(wrap)
        show_document(self._editor, document)
        document.blockSignals(True)
        if more:
            self._timer.start()
        else:
            self._step()

    def cancel(self) -> None:
        """Stop the fill under way, if any; its document stays shown, half filled, read-only."""
        self._timer.stop()
        document, self._document = self._document, None
        self._slices = self._on_filled = None
        if document is not None:
            document.blockSignals(False)

    def _step(self) -> None:
        if self._slices is not None and next(self._slices, None) is not None:
            return
        document, on_filled = self._document, self._on_filled
        self._timer.stop()
        self._document = self._slices = self._on_filled = None
        if document is None or on_filled is None:
            return
        document.setUndoRedoEnabled(True)
        document.setModified(False)
        document.blockSignals(False)
        # Laid out once more for the editor's width now: the scroll bar that showed as the
        # slices came in narrowed the view without resizing the editor, and Qt kept the
        # width it first laid the text out for; every keystroke after cost two to four
        # times a bare editor's (1 MiB). One pass over the blocks, far less than the
        # setPlainText it replaces (the bench gates the stall).
        self._editor.setDocument(document)
        on_filled()


def show_document(editor: QPlainTextEdit, document: QTextDocument) -> None:
    """Show ``document`` in ``editor``; the editor's own document it replaces is emptied later.

    Qt deletes a replaced document that is the editor's child at once: a big one
    would hold the GUI thread as long as ``setPlainText`` did. (Showing a document
    that is already full costs a pass over all its blocks, 200 ms on a 5 MiB note:
    :class:`NoteFill` shows its document while still empty.)
    """
    shown = editor.document()
    if shown is not document and shown.parent() is editor:
        leave_documents([shown])  # no longer the editor's child: Qt leaves it alone
    # Quietly: the editor's "text changed" would start a save timer for a document
    # that holds no edit (and, as the frame closes, one that is going away).
    blocked = editor.blockSignals(True)
    try:
        editor.setDocument(document)
    finally:
        editor.blockSignals(blocked)
