"""Find and Replace over a note's editor, its preview or the conversation (R84).

The bar counts the matches a slice at a time on the GUI thread's timer (a few
milliseconds each), so a 5 MiB note never holds the window longer than a slice;
moving to the next or previous match is one search of the text from the cursor
(C speed, linear). Matching ignores case, character by character, so a match is
as long as what was typed and positions stay exact.

Positions in Qt's documents count UTF-16 units, Python's strings code points:
:class:`TextWidgetTarget` converts at its edge.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Final, NamedTuple, Protocol

import shiboken6
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)

from renderer.qt.edits import utf16_positions

BLOCK_SEPARATOR: Final = "\u2029"


class FindKeys(NamedTuple):
    """The keys of Find and Replace; the window's actions and Help read them from here."""

    find: str = "Ctrl+F"
    next: str = "F3"
    previous: str = "Shift+F3"
    replace: str = "Ctrl+H"
    close: str = "Esc"
    replace_all: str = "Ctrl+Alt+Return"


FIND_KEYS: Final = FindKeys()

SLICE_CHARACTERS: Final = 64 * 1024
"""Characters one counting step scans at most, before it checks the clock."""
SLICE_SECONDS: Final = 0.008
"""A counting step yields to the event loop after this long (a margin under R67's 100 ms)."""
KEPT_POSITIONS: Final = 1_000_000
"""Past this many matches the bar says the count without "n of": positions stop being kept."""
BACKWARD_WINDOW: Final = 64 * 1024
MANY_SPANS: Final = 1000
"""Past this many matches Replace all puts the whole new text in at once (still one undo step)."""


class FindTarget(Protocol):
    """What the bar searches: a text, a selection in it, and (when editable) a way to change it."""

    def text(self) -> str: ...
    def selection(self) -> tuple[int, int]: ...
    def select(self, start: int, end: int) -> None: ...
    def editable(self) -> bool: ...
    def replace_spans(self, spans: list[tuple[int, int]], replacement: str) -> None: ...
    def give_focus(self) -> None: ...
    def watch_changes(self, changed: Callable[[], None]) -> None: ...


def _to_code_points(text: str, units: int) -> int:
    """The code-point offset of the UTF-16 offset ``units`` in ``text``."""
    if text.isascii():
        return min(units, len(text))
    encoded = text.encode("utf-16-le", "surrogatepass")[: 2 * units]
    return len(encoded.decode("utf-16-le", "surrogatepass"))


class TextWidgetTarget:
    """A QPlainTextEdit or QTextEdit as a :class:`FindTarget` (the note's editor or preview)."""

    def __init__(self, widget: QPlainTextEdit | QTextEdit) -> None:
        self.widget = widget
        self._text: str | None = None
        self._document: QTextDocument | None = None
        self._watching: list[Callable[[], None]] = []

    def _follow_document(self) -> QTextDocument:
        """The widget's document now: a shared note (R53) or a new preview drawing swaps it."""
        document = self.widget.document()
        if document is not self._document:
            if self._document is not None and shiboken6.isValid(self._document):
                self._document.contentsChanged.disconnect(self._forget)
            self._document = document
            self._text = None
            document.contentsChanged.connect(self._forget)
        return document

    def _forget(self) -> None:
        self._text = None
        for changed in self._watching:
            changed()

    def watch_changes(self, changed: Callable[[], None]) -> None:
        self._watching.append(changed)

    def text(self) -> str:
        document = self._follow_document()
        if self._text is None:
            self._text = document.toRawText().replace(BLOCK_SEPARATOR, "\n")
        return self._text

    def selection(self) -> tuple[int, int]:
        cursor = self.widget.textCursor()
        text = self.text()
        return (
            _to_code_points(text, cursor.selectionStart()),
            _to_code_points(text, cursor.selectionEnd()),
        )

    def select(self, start: int, end: int) -> None:
        first, last = utf16_positions(self.text(), [start, end])
        cursor = QTextCursor(self.widget.document())
        cursor.setPosition(first)
        cursor.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
        self.widget.setTextCursor(cursor)
        self.widget.ensureCursorVisible()

    def editable(self) -> bool:
        return not self.widget.isReadOnly()

    def replace_spans(self, spans: list[tuple[int, int]], replacement: str) -> None:
        """Replace each span (code points, in order) as one undo step."""
        text = self.text()
        cursor = QTextCursor(self.widget.document())
        if len(spans) > MANY_SPANS:
            # One insertion instead of thousands: each would lay the document out again.
            pieces: list[str] = []
            previous = 0
            for start, end in spans:
                pieces.extend((text[previous:start], replacement))
                previous = end
            pieces.append(text[previous:])
            cursor.select(QTextCursor.SelectionType.Document)
            cursor.insertText("".join(pieces))
            return
        units = utf16_positions(text, [value for span in spans for value in span])
        cursor.beginEditBlock()
        try:
            # From the last to the first: an earlier span's positions stay where they were.
            for index in range(len(spans) - 1, -1, -1):
                cursor.setPosition(units[2 * index])
                cursor.setPosition(units[2 * index + 1], QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText(replacement)
        finally:
            cursor.endEditBlock()

    def give_focus(self) -> None:
        self.widget.setFocus(Qt.FocusReason.OtherFocusReason)


def literal_pattern(query: str) -> re.Pattern[str]:
    """What the person typed, matched literally, case ignored character by character."""
    return re.compile(re.escape(query), re.IGNORECASE)


def last_match(pattern: re.Pattern[str], text: str, stop: int) -> tuple[int, int] | None:
    """The last match ending at or before ``stop``, looked for a window at a time backwards.

    Each window overlaps the next by less than a match, so a match across a window's
    start is found in the one before it; the whole walk is linear in ``stop``.
    """
    overlap = min(len(pattern.pattern), BACKWARD_WINDOW // 2)
    window_end = stop
    while window_end > 0:
        window_start = max(0, window_end - BACKWARD_WINDOW)
        last: re.Match[str] | None = None
        for match in pattern.finditer(text, window_start, window_end):
            last = match
        if last is not None:
            return last.span()
        if window_start == 0:
            return None
        window_end = window_start + overlap
    return None


class MatchCount(QObject):
    """Counts the matches of a pattern in a text, a bounded slice per turn of the event loop."""

    progressed = Signal()
    finished = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self._steps: Iterator[None] | None = None
        self.count = 0
        self.done = True
        self.starts: list[int] = []
        """Where each match starts, up to :data:`KEPT_POSITIONS` of them."""
        self.complete_positions = True

    def start(self, pattern: re.Pattern[str] | None, text: str) -> None:
        self.stop()
        self.count = 0
        self.starts = []
        self.complete_positions = True
        if pattern is None:
            self.finished.emit()
            return
        self.done = False
        self._steps = self._scan(pattern, text)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._steps = None
        self.done = True

    def _scan(self, pattern: re.Pattern[str], text: str) -> Iterator[None]:
        position = 0
        length = len(text)
        deadline = time.perf_counter() + SLICE_SECONDS
        while position < length:
            end = min(length, position + SLICE_CHARACTERS)
            # A match may start in this slice and end past it: it is this slice's.
            reach = min(length, end + len(pattern.pattern) * 2)
            last_end = end
            for match in pattern.finditer(text, position, reach):
                if match.start() >= end:
                    break
                self.count += 1
                if len(self.starts) < KEPT_POSITIONS:
                    self.starts.append(match.start())
                else:
                    self.complete_positions = False
                last_end = max(end, match.end())
            position = last_end
            if time.perf_counter() >= deadline:
                yield
                deadline = time.perf_counter() + SLICE_SECONDS

    def _step(self) -> None:
        steps = self._steps
        if steps is None:
            return
        try:
            next(steps)
        except StopIteration:
            self._timer.stop()
            self._steps = None
            self.done = True
            self.finished.emit()
            return
        self.progressed.emit()

    def index_of(self, start: int) -> int | None:
        """The 1-based number of the match starting at ``start``, when known."""
        if not self.done or not self.complete_positions:
            return None
        found = bisect_left(self.starts, start)
        if found < len(self.starts) and self.starts[found] == start:
            return found + 1
        return None


def _button(text: str, name: str, parent: QWidget) -> QPushButton:
    button = QPushButton(text, parent)
    button.setAccessibleName(name)
    button.setToolTip(name)
    button.setAutoDefault(False)
    return button


class _FindField(QLineEdit):
    """The find field: Enter finds the next match, Shift+Enter the previous one."""

    stepped = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            shifted = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            self.stepped.emit(-1 if shifted else 1)
            return
        super().keyPressEvent(event)


NO_MATCHES: Final = "No matches"


class FindBar(QFrame):
    """Find (and Replace, where the target is editable) over one :class:`FindTarget`."""

    count_shown = Signal(str)
    """The count as the label shows it ("2 of 14", "No matches"), once it is known."""

    def __init__(self, target: Callable[[], FindTarget | None], parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("findBar")
        self.setAccessibleName("Find and replace")
        self._target = target
        self._watched: set[int] = set()
        self._pattern: re.Pattern[str] | None = None
        self._current: int | None = None
        self.counter = MatchCount(self)
        self.counter.progressed.connect(self._show_count)
        self.counter.finished.connect(self._show_count)
        self.find_field = _FindField(self)
        self.find_field.setObjectName("findField")
        self.find_field.setAccessibleName("Find")
        self.find_field.setPlaceholderText("Find (Enter: next, Shift+Enter: previous)")
        self.find_field.textChanged.connect(self._on_query_changed)
        self.find_field.stepped.connect(self.find_next)
        self.count_label = QLabel("", self)
        self.count_label.setObjectName("findCount")
        self.count_label.setAccessibleName("Matches")
        self.count_label.setMinimumWidth(110)
        self.previous_button = _button("↑", f"Previous match ({FIND_KEYS.previous})", self)
        self.previous_button.clicked.connect(lambda: self.find_next(-1))
        self.next_button = _button("↓", f"Next match ({FIND_KEYS.next})", self)
        self.next_button.clicked.connect(lambda: self.find_next(1))
        self.close_button = _button("✕", f"Close find ({FIND_KEYS.close})", self)
        self.close_button.clicked.connect(self.close_bar)
        self.replace_field = QLineEdit(self)
        self.replace_field.setObjectName("replaceField")
        self.replace_field.setAccessibleName("Replace with")
        self.replace_field.setPlaceholderText("Replace with")
        self.replace_field.returnPressed.connect(self.replace_one)
        self.replace_button = _button("Replace", "Replace this match", self)
        self.replace_button.clicked.connect(self.replace_one)
        self.replace_all_button = _button(
            "Replace all", f"Replace all matches ({FIND_KEYS.replace_all})", self
        )
        self.replace_all_button.clicked.connect(self.replace_all)
        layout = QGridLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setHorizontalSpacing(4)
        layout.setVerticalSpacing(2)
        layout.addWidget(self.find_field, 0, 0)
        layout.addWidget(self.count_label, 0, 1)
        layout.addWidget(self.previous_button, 0, 2)
        layout.addWidget(self.next_button, 0, 3)
        layout.addWidget(self.close_button, 0, 4)
        layout.addWidget(self.replace_field, 1, 0)
        layout.addWidget(self.replace_button, 1, 1)
        layout.addWidget(self.replace_all_button, 1, 2, 1, 3)
        layout.setColumnStretch(0, 1)
        for keys, slot in (
            (QKeySequence.StandardKey.Cancel, self.close_bar),
            (QKeySequence(FIND_KEYS.replace_all), self.replace_all),
        ):
            shortcut = QShortcut(keys, self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self._show_replace(False)
        self.hide()

    # -- opening and closing ------------------------------------------------------

    def open(self, *, replace: bool = False) -> None:
        """Show the bar (with Replace when asked and the target is editable), focus the field.

        A one-line selection in the target becomes the query.
        """
        target = self._target()
        if target is None:
            return
        self._watch(target)
        start, end = target.selection()
        if end > start:
            selected = target.text()[start:end]
            if "\n" not in selected:
                self.find_field.setText(selected)
        self._show_replace(replace and target.editable())
        self.show()
        self.find_field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.find_field.selectAll()
        self._recount()

    def close_bar(self) -> None:
        """Esc: hide the bar, stop counting, and give the keyboard back to the text."""
        self.counter.stop()
        self.hide()
        target = self._target()
        if target is not None:
            target.give_focus()

    def _show_replace(self, shown: bool) -> None:
        for widget in (self.replace_field, self.replace_button, self.replace_all_button):
            widget.setVisible(shown)

    @property
    def replacing(self) -> bool:
        return self.isVisible() and self.replace_field.isVisibleTo(self)

    def _watch(self, target: FindTarget) -> None:
        if id(target) not in self._watched:
            self._watched.add(id(target))
            target.watch_changes(self._on_text_changed)

    # -- counting -----------------------------------------------------------------

    def _on_query_changed(self, query: str) -> None:
        self._pattern = literal_pattern(query) if query else None
        self._current = None
        self._recount()

    def _on_text_changed(self) -> None:
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        """Count again: the text changed, or the bar now searches another view."""
        self._current = None
        self._recount()

    def _recount(self) -> None:
        target = self._target()
        if target is None or not self.isVisible():
            return
        self.counter.start(self._pattern, target.text())
        self._show_count()

    def _show_count(self) -> None:
        counter = self.counter
        if self._pattern is None:
            text = ""
        elif not counter.done:
            text = f"Counting… {counter.count}"
        elif counter.count == 0:
            text = NO_MATCHES
        else:
            index = None if self._current is None else counter.index_of(self._current)
            noun = "match" if counter.count == 1 else "matches"
            text = f"{index} of {counter.count}" if index is not None else f"{counter.count} {noun}"
        self.count_label.setText(text)
        self.count_label.setAccessibleDescription(text)
        if counter.done:
            self.count_shown.emit(text)

    # -- moving -------------------------------------------------------------------

    def find_next(self, step: int = 1) -> bool:
        """F3 (``step`` 1) or Shift+F3 (-1): select the next or previous match, wrapping around."""
        target = self._target()
        pattern = self._pattern
        if target is None or pattern is None:
            if target is not None and not self.isVisible():
                self.open()
            return False
        text = target.text()
        start, end = target.selection()
        found = (
            self._search_forward(pattern, text, end)
            if step > 0
            else self._search_backward(pattern, text, start)
        )
        if found is None:
            self._current = None
            self._show_count()
            return False
        target.select(*found)
        self._current = found[0]
        self._show_count()
        return True

    @staticmethod
    def _search_forward(
        pattern: re.Pattern[str], text: str, position: int
    ) -> tuple[int, int] | None:
        """The first match from ``position``, else the first one (wrapping)."""
        match = pattern.search(text, position) or pattern.search(text, 0, position)
        return None if match is None else match.span()

    @staticmethod
    def _search_backward(
        pattern: re.Pattern[str], text: str, position: int
    ) -> tuple[int, int] | None:
        """The last match ending at or before ``position``, else the last one (wrapping)."""
        return last_match(pattern, text, position) or last_match(pattern, text, len(text))

    # -- replacing ----------------------------------------------------------------

    def replace_one(self) -> bool:
        """Replace the selected match, then move to the next one."""
        target = self._target()
        pattern = self._pattern
        if target is None or pattern is None or not target.editable():
            return False
        start, end = target.selection()
        text = target.text()
        if end > start and pattern.fullmatch(text, start, end):
            target.replace_spans([(start, end)], self.replace_field.text())
        return self.find_next(1)

    def replace_all(self) -> int:
        """Replace every match as one undo step; how many were replaced."""
        target = self._target()
        pattern = self._pattern
        if target is None or pattern is None or not target.editable() or not self.replacing:
            return 0
        spans = [match.span() for match in pattern.finditer(target.text())]
        if spans:
            target.replace_spans(spans, self.replace_field.text())
        self._current = None
        self.count_label.setText(f"Replaced {len(spans)}")
        return len(spans)
