"""The live editor document as :class:`renderer.ambient.inline.NoteSlices` (R69).

Every answer comes from the document's block index (``findBlock`` is a tree search)
or from one cursor over the range asked for, so building an inline request reads
the slice it sends and never the whole note.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

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

    def read_many(self, points: Sequence[int]) -> list[str]:
        """One read from the first point to the last, cut at the points between.

        A window's edge may fall inside a surrogate pair, whose half ``selectedText``
        drops: the read then starts (or ends) one unit further in, and the points are
        counted from where it really starts.
        """
        first, last = points[0], points[-1]
        base = first + 1 if _splits_pair(self._document, first) else first
        cursor = QTextCursor(self._document)
        cursor.setPosition(first)
        cursor.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
        text = cursor.selectedText().replace(BLOCK_SEPARATOR, "\n")
        offsets = [point - base for point in points]
        offsets[0] = max(offsets[0], 0)
        if len(text) == last - base:  # no character outside the BMP: units are indices
            return [text[a:b] for a, b in pairwise(offsets)]
        units = text.encode("utf-16-le", errors="surrogatepass")
        return [
            units[2 * a : 2 * b].decode("utf-16-le", errors="surrogatepass")
            for a, b in pairwise(offsets)
        ]

    def line_at(self, position: int) -> tuple[int, int]:
        block = self._document.findBlock(position)
        return block.position(), block.blockNumber()


def _splits_pair(document: QTextDocument, position: int) -> bool:
    """Whether ``position`` falls between the two halves of a surrogate pair."""
    return "\udc00" <= document.characterAt(position) <= "\udfff"
