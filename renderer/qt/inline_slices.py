"""The live editor document as :class:`renderer.ambient.inline.NoteSlices` (R69).

Every answer comes from the document's block index (``findBlock`` is a tree search)
or from one cursor over the range asked for, so building an inline request reads
the slice it sends and never the whole note.
"""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextDocument

BLOCK_SEPARATOR = "\u2029"


class DocumentSlices:
    """A ``QTextDocument`` read a slice at a time; positions are its UTF-16 positions."""

    def __init__(self, document: QTextDocument) -> None:
        self._document = document

    def length(self) -> int:
        return self._document.characterCount() - 1  # the final paragraph separator is not text

    def read(self, start: int, end: int) -> str:
        cursor = QTextCursor(self._document)
        cursor.setPosition(max(0, start))
        cursor.setPosition(min(end, self.length()), QTextCursor.MoveMode.KeepAnchor)
        return cursor.selectedText().replace(BLOCK_SEPARATOR, "\n")

    def line_start(self, position: int) -> int:
        return self._document.findBlock(position).position()

    def line_number(self, position: int) -> int:
        return self._document.findBlock(position).blockNumber()
