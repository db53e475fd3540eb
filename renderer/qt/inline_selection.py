"""The selection an inline request was sent about, tracked through edits elsewhere (R72).

Two cursors on the document hold its ends; Qt moves them with every edit made
elsewhere. Typing at either edge stays outside it: the start cursor moves on an
insertion at its place, the end cursor keeps its place. :meth:`TrackedSelection.replace`
lands the answer where the selection is now, as one undo step, and only when its
text is still exactly what was sent; checking costs what the selection costs.
"""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextDocument

from renderer.qt.inline_slices import DocumentSlices


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class TrackedSelection:
    """The positions ``start``–``end`` of ``document``, kept as the text around them changes."""

    def __init__(self, document: QTextDocument, start: int, end: int) -> None:
        self.document = document
        self._start = QTextCursor(document)
        self._start.setPosition(start)
        self._end = QTextCursor(document)
        self._end.setPosition(end)
        self._end.setKeepPositionOnInsert(True)

    def span(self) -> tuple[int, int]:
        """Where the selection is now (an emptied one is its start)."""
        start, end = self._start.position(), self._end.position()
        return start, max(start, end)

    @property
    def start_cursor(self) -> QTextCursor:
        return QTextCursor(self._start)

    @property
    def end_cursor(self) -> QTextCursor:
        return QTextCursor(self._end)

    def reads(self, sent: str) -> bool:
        """Whether the tracked text is exactly ``sent`` (the length is compared first)."""
        start, end = self._start.position(), self._end.position()
        if end < start:
            return sent == ""
        if end - start != utf16_length(sent):
            return False
        return DocumentSlices(self.document).read(start, end) == sent

    def replace(self, sent: str, text: str) -> bool:
        """Replace the tracked text by ``text`` in one undo step, if it still reads ``sent``."""
        if not self.reads(sent):
            return False
        start, end = self.span()
        cursor = QTextCursor(self.document)
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.beginEditBlock()
        cursor.insertText(text)
        cursor.endEditBlock()
        return True
