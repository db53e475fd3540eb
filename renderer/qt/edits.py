"""Applying edits to a live editor as one undo step, and keeping them in place meanwhile (R52).

ProposalEdit positions are code points of the note's text; Qt counts UTF-16 code units, so
positions are converted in one pass over the text (none at all when it has no
character outside the Basic Multilingual Plane). The edits are applied last to
first, so each earlier position still holds, inside one edit block: Ctrl+Z
restores exactly the text before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QTextCursor, QTextDocument

from bridge.markdown import utf16_length
from bridge.wire import ProposalEdit


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


def apply_to_document(document: QTextDocument, text: str, edits: Sequence[ProposalEdit]) -> None:
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


@dataclass
class _Range:
    """One edit's range in the live document, in UTF-16 positions, and its replacement."""

    start: int
    stop: int
    text: str


class TrackedEdits(QObject):
    """Edits of a live document, kept where they belong while the person types (R52).

    Made once, when the proposal is reviewed, from the document's text then; from
    there each change of the document moves the ranges after it, and a change that
    overlaps a range or touches either end of it marks the proposal as changed where
    it applies. Applying then needs neither the note's text nor a comparison of it:
    its cost is that of the cursor's replacements.
    """

    def __init__(
        self,
        document: QTextDocument,
        text: str,
        edits: Sequence[ProposalEdit],
        parent: QObject | None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        ends = utf16_positions(text, [value for edit in edits for value in (edit.start, edit.end)])
        self._ranges = [
            _Range(ends[2 * index], ends[2 * index + 1], edit.text)
            for index, edit in enumerate(edits)
        ]
        self.broken = False
        """A change touched a range: the proposal no longer applies here."""
        document.contentsChange.connect(self._on_change)
        self._following = True
        document.destroyed.connect(self._forget)

    def _on_change(self, position: int, removed: int, added: int) -> None:
        if self.broken:
            return
        end = position + removed
        shift = added - removed
        for edited in self._ranges:
            if end < edited.start:
                edited.start += shift
                edited.stop += shift
            elif position > edited.stop:
                continue
            else:
                self.broken = True
                return

    def apply(self) -> bool:
        """Apply the edits as one undo step; False (nothing changed) when a range was touched."""
        if self.broken:
            return False
        self.close()  # first: its own replacements are no change to follow
        cursor = QTextCursor(self.document)
        cursor.beginEditBlock()
        try:
            for edited in reversed(self._ranges):
                cursor.setPosition(edited.start)
                cursor.setPosition(edited.stop, QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText(edited.text)
        finally:
            cursor.endEditBlock()
        return True

    def close(self) -> None:
        """Stop following the document (applied, discarded, or its frame went away)."""
        if self._following:
            self._following = False
            with contextlib.suppress(RuntimeError, TypeError):
                self.document.contentsChange.disconnect(self._on_change)
        self.broken = True

    def _forget(self) -> None:
        self._following = False  # the document is gone, and its connections with it
        self.broken = True


class UndoFollower(QObject):
    """Whether an applied change is still in its document, as Undo and Redo move (R80).

    It reads the document's undo stack, never its text, so following costs two integer
    reads per change. Applying left the stack at ``after`` steps from ``before``: at or
    below ``before`` with something to redo, the change was undone; back at ``after``, it
    was redone. A new command while undone (typing) drops the redo, and a cleared stack
    (the note reloaded) leaves nothing to follow: the follower stops there.
    """

    undone = Signal()
    redone = Signal()

    def __init__(self, document: QTextDocument, before: int, parent: QObject | None) -> None:
        super().__init__(parent)
        self.document = document
        self._before = before
        self._after = document.availableUndoSteps()
        self.is_undone = False
        self._following = True
        document.contentsChange.connect(self._on_change)
        document.undoCommandAdded.connect(self._on_command)
        document.destroyed.connect(self._forget)

    def _on_command(self) -> None:
        if self.is_undone:
            self.close()  # the redo that would bring the change back is gone

    def _on_change(self, _position: int, _removed: int, _added: int) -> None:
        steps, redo = self.document.availableUndoSteps(), self.document.availableRedoSteps()
        if steps == 0 and redo == 0:
            self.close()  # the stack was cleared: the note was replaced, not undone
        elif not self.is_undone and steps <= self._before and redo > 0:
            self.is_undone = True
            self.undone.emit()
        elif self.is_undone and steps >= self._after:
            self.is_undone = False
            self.redone.emit()

    def close(self) -> None:
        if self._following:
            self._following = False
            with contextlib.suppress(RuntimeError, TypeError):
                self.document.contentsChange.disconnect(self._on_change)
                self.document.undoCommandAdded.disconnect(self._on_command)

    def _forget(self) -> None:
        self._following = False
