"""Applying edits to a live editor as one undo step (R52).

Edit positions are code points of the note's text; Qt counts UTF-16 code units, so
positions are converted in one pass over the text (none at all when it has no
character outside the Basic Multilingual Plane). The edits are applied last to
first, so each earlier position still holds, inside one edit block: Ctrl+Z
restores exactly the text before.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QTextCursor, QTextDocument

from bridge.markdown import utf16_length
from bridge.proposals import Edit


def utf16_positions(text: str, positions: Sequence[int]) -> list[int]:
    """Each code-point position (sorted ascending) as a UTF-16 position in ``text``."""
    if utf16_length(text) == len(text):
        return list(positions)
    found: list[int] = []
    units = previous = 0
    for position in positions:
        units += utf16_length(text[previous:position])
        previous = position
        found.append(units)
    return found


def apply_to_document(document: QTextDocument, text: str, edits: Sequence[Edit]) -> None:
    """Apply sorted, non-overlapping ``edits`` of ``text`` (the document's text) as one step."""
    ends = [value for edit in edits for value in (edit.start, edit.end)]
    converted = utf16_positions(text, ends)
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    try:
        for index in range(len(edits) - 1, -1, -1):
            cursor.setPosition(converted[2 * index])
            cursor.setPosition(converted[2 * index + 1], QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(edits[index].text)
    finally:
        cursor.endEditBlock()
