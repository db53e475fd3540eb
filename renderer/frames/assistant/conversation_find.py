"""Find in the assistant's conversation: the transcript's selectable texts as one text (R84).

The messages and replies are rich-text labels; their text as the screen shows it
(what a person searches for) is joined, one label a line, each time a count
starts, and a match selects the words in its label and scrolls the transcript
to it. The conversation is read only, so the bar offers no Replace here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget


def _shown_text(label: QLabel) -> str:
    """The label's text as read on the screen (rich text without its markup)."""
    if label.textFormat() == Qt.TextFormat.PlainText:
        return label.text()
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


class ConversationTarget:
    """The transcript's selectable labels, top to bottom, as a :class:`FindTarget`."""

    def __init__(self, scroll_area: QScrollArea, content: QWidget) -> None:
        self._scroll_area = scroll_area
        self._content = content
        self._labels: list[QLabel] = []
        self._starts: list[int] = []
        self._selected: tuple[int, int] = (0, 0)
        self._text = ""
        """The transcript as last read: a count reads it afresh first (``length``)."""

    def _searchable(self) -> list[QLabel]:
        return [
            label
            for label in self._content.findChildren(QLabel)
            if label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
            and label.isVisibleTo(self._content)
        ]

    def length(self) -> int:
        self._text = self._read_labels()
        return len(self._text)

    def read(self, start: int, end: int) -> str:
        return self._text[start:end]

    def _read_labels(self) -> str:
        self._labels = sorted(
            self._searchable(),
            key=lambda label: label.mapTo(self._content, label.rect().topLeft()).y(),
        )
        pieces: list[str] = []
        self._starts = []
        offset = 0
        for label in self._labels:
            shown = _shown_text(label).replace("\u2029", "\n")
            self._starts.append(offset)
            pieces.append(shown)
            offset += len(shown) + 1
        return "\n".join(pieces)

    def selection(self) -> tuple[int, int]:
        return self._selected

    def select(self, start: int, end: int) -> None:
        index = bisect_right(self._starts, start) - 1
        if index < 0:
            return
        label = self._labels[index]
        for other in self._labels:
            if other is not label and other.hasSelectedText():
                other.setSelection(0, 0)
        label.setSelection(start - self._starts[index], end - start)
        self._selected = (start, end)
        self._scroll_area.ensureWidgetVisible(label)

    def editable(self) -> bool:
        return False

    def replace_spans(self, spans: list[tuple[int, int]], replacement: str) -> None:
        raise ValueError("The conversation cannot be changed.")

    def give_focus(self) -> None:
        self._scroll_area.setFocus(Qt.FocusReason.OtherFocusReason)

    def watch_changes(self, changed: Callable[[], None]) -> None:
        """Each search reads the transcript afresh, so a change needs no notice."""
