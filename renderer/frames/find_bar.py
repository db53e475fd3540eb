"""Find and Replace over a note's editor, its preview or the conversation (R84).

The bar never reads a whole note at once (a 5 MiB note's text takes the GUI
thread hundreds of milliseconds to copy): it counts the matches a slice at a
time on the event loop's timer, a few milliseconds each, keeping where each one
starts; F3 and Shift+F3 then move through those places, and Replace all replaces
them. Matching ignores case character by character, so a match is as long as
what was typed. Positions are the target's own (UTF-16 units in Qt's documents).
"""

from __future__ import annotations

import re
import time
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import Final, NamedTuple, Protocol

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
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

from bridge.markdown import utf16_length
from renderer.qt.edits import utf16_positions
from renderer.qt.inline_slices import DocumentSlices


class FindKeys(NamedTuple):
    """The keys of Find and Replace; the window's actions and Help read them from here."""

    find: str = "Ctrl+F"
    next: str = "F3"
    previous: str = "Shift+F3"
    replace: str = "Ctrl+H"
    close: str = "Esc"
    replace_all: str = "Ctrl+Alt+Return"


FIND_KEYS: Final = FindKeys()

SLICE_UNITS: Final = 64 * 1024
"""Positions one counting slice reads and scans, before the step checks the clock."""
STEP_SECONDS: Final = 0.008
"""A counting step yields to the event loop after this long (a margin under R67's 100 ms)."""
WAIT_SECONDS: Final = 0.03
"""F3 while the count runs finishes it on the spot for this long (a small note at once)."""
MANY_SPANS: Final = 1000
"""Past this many matches Replace all puts the whole new text in at once (still one undo step)."""


class FindTarget(Protocol):
    """What the bar searches: a text read in slices, a selection, maybe a way to change it."""

    def length(self) -> int: ...
    def read(self, start: int, end: int) -> str: ...
    def selection(self) -> tuple[int, int]: ...
    def select(self, start: int, end: int) -> None: ...
    def editable(self) -> bool: ...
    def replace_spans(self, spans: list[tuple[int, int]], replacement: str) -> None: ...
    def give_focus(self) -> None: ...
    def watch_changes(self, changed: Callable[[], None]) -> None: ...


class TextWidgetTarget:
    """A QPlainTextEdit or QTextEdit as a :class:`FindTarget` (the note's editor or preview)."""

    def __init__(self, widget: QPlainTextEdit | QTextEdit) -> None:
        self.widget = widget
        self._document: QTextDocument | None = None
        self._watching: list[Callable[[], None]] = []

    def _current(self) -> QTextDocument:
        """The widget's document now: a shared note (R53) or a new preview drawing swaps it."""
        document = self.widget.document()
        if document is not self._document:
            if self._document is not None and shiboken6.isValid(self._document):
                self._document.contentsChanged.disconnect(self._changed)
            self._document = document
            document.contentsChanged.connect(self._changed)
        return document

    def _changed(self) -> None:
        for changed in self._watching:
            changed()

    def watch_changes(self, changed: Callable[[], None]) -> None:
        self._current()
        self._watching.append(changed)

    def length(self) -> int:
        return DocumentSlices(self._current()).length()

    def read(self, start: int, end: int) -> str:
        return DocumentSlices(self._current()).read(start, end)

    def selection(self) -> tuple[int, int]:
        cursor = self.widget.textCursor()
        return cursor.selectionStart(), cursor.selectionEnd()

    def select(self, start: int, end: int) -> None:
        cursor = QTextCursor(self._current())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self.widget.setTextCursor(cursor)
        self.widget.ensureCursorVisible()

    def editable(self) -> bool:
        return not self.widget.isReadOnly()

    def replace_spans(self, spans: list[tuple[int, int]], replacement: str) -> None:
        """Replace each span (in order, not overlapping) as one undo step."""
        cursor = QTextCursor(self._current())
        cursor.beginEditBlock()
        try:
            if len(spans) > MANY_SPANS:
                # One insertion instead of thousands, each laying the document out again.
                text = self.read(0, self.length())
                indices = _unit_indices(text, [value for span in spans for value in span])
                pieces: list[str] = []
                previous = 0
                for index in range(0, len(indices), 2):
                    pieces.extend((text[previous : indices[index]], replacement))
                    previous = indices[index + 1]
                pieces.append(text[previous:])
                cursor.select(QTextCursor.SelectionType.Document)
                cursor.insertText("".join(pieces))
                return
            # From the last to the first: an earlier span's positions stay where they were.
            for start, end in reversed(spans):
                cursor.setPosition(start)
                cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText(replacement)
        finally:
            cursor.endEditBlock()

    def give_focus(self) -> None:
        self.widget.setFocus(Qt.FocusReason.OtherFocusReason)


def _unit_indices(text: str, units: list[int]) -> list[int]:
    """Each UTF-16 position (ascending) in ``text`` as an index of its code points."""
    if utf16_length(text) == len(text):
        return units
    found: list[int] = []
    index = counted = 0
    for unit in units:
        while counted < unit and index < len(text):
            counted += 2 if ord(text[index]) > 0xFFFF else 1
            index += 1
        found.append(index)
    return found


def literal_pattern(query: str) -> re.Pattern[str]:
    """What the person typed, matched literally, case ignored character by character."""
    return re.compile(re.escape(query), re.IGNORECASE)


class MatchCount(QObject):
    """Counts the matches in a target, a bounded slice per turn of the event loop.

    ``starts`` keeps where each match starts (the target's positions), so moving to
    the next one is a binary search.
    """

    progressed = Signal()
    finished = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self._steps: Iterator[None] | None = None
        self.starts: array[int] = array("q")
        self.length = 0
        """A match's length in the target's positions."""
        self.done = True

    @property
    def count(self) -> int:
        return len(self.starts)

    def start(self, pattern: re.Pattern[str] | None, query: str, target: FindTarget) -> None:
        self.stop()
        self.starts = array("q")
        self.length = utf16_length(query)
        if pattern is None:
            self.finished.emit()
            return
        self.done = False
        self._steps = self._scan(pattern, target)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._steps = None
        self.done = True

    def _scan(self, pattern: re.Pattern[str], target: FindTarget) -> Iterator[None]:
        total = target.length()
        reach = max(0, self.length - 1)
        position = 0
        deadline = time.perf_counter() + STEP_SECONDS
        while position < total:
            end = min(total, position + SLICE_UNITS)
            # A match may start in this slice and end past it: it is this slice's.
            text = target.read(position, min(total, end + reach))
            offsets = [match.start() for match in pattern.finditer(text)]
            if offsets and utf16_length(text) != len(text):
                offsets = utf16_positions(text, offsets)
            limit = end - position
            for offset in offsets:
                if offset >= limit:
                    break
                if self.starts and position + offset < self.starts[-1] + self.length:
                    continue  # overlaps the match before, across the slices' seam
                self.starts.append(position + offset)
            position = end
            if time.perf_counter() >= deadline:
                yield
                deadline = time.perf_counter() + STEP_SECONDS

    def _step(self) -> None:
        if self._steps is None:
            return
        try:
            next(self._steps)
        except StopIteration:
            self._finish()
            return
        self.progressed.emit()

    def _finish(self) -> None:
        self._timer.stop()
        self._steps = None
        self.done = True
        self.finished.emit()

    def finish_within(self, seconds: float) -> bool:
        """Count on now for up to ``seconds``; whether the count is complete."""
        deadline = time.perf_counter() + seconds
        while self._steps is not None and time.perf_counter() < deadline:
            try:
                next(self._steps)
            except StopIteration:
                self._finish()
        return self.done

    def after(self, position: int) -> int | None:
        """The first match starting at or after ``position``, else the first (wrapping)."""
        if not self.starts:
            return None
        found = bisect_left(self.starts, position)
        return self.starts[found if found < len(self.starts) else 0]

    def before(self, position: int) -> int | None:
        """The last match ending at or before ``position``, else the last (wrapping)."""
        if not self.starts:
            return None
        found = bisect_right(self.starts, position - self.length) - 1
        return self.starts[found]  # -1: the last one

    def index_of(self, start: int) -> int | None:
        """The 1-based number of the match starting at ``start``, if one does."""
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
MAX_QUERY_FROM_SELECTION: Final = 200
"""A selection up to this long becomes the query when the bar opens."""


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
        self._pending_step = 0
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
        replace_all = QShortcut(QKeySequence(FIND_KEYS.replace_all), self)
        replace_all.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        replace_all.activated.connect(self.replace_all)
        self._show_replace(False)
        self.hide()

    def event(self, event: QEvent) -> bool:
        # Esc belongs to the bar while it has the keyboard: the assistant's own Esc (Stop)
        # around it would otherwise make the key ambiguous, and neither would act.
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        super().keyPressEvent(event)

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
        if 0 < end - start <= MAX_QUERY_FROM_SELECTION:
            selected = target.read(start, end)
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
        self._watch(target)
        self.counter.start(self._pattern, self.find_field.text(), target)
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
            step, self._pending_step = self._pending_step, 0
            if step:
                self.find_next(step)

    # -- moving ---------------------------------------------------------------------

    def find_next(self, step: int = 1) -> bool:
        """F3 (``step`` 1) or Shift+F3 (-1): select the next or previous match, wrapping around.

        While a long note is still being counted, the move happens when the count ends.
        """
        target = self._target()
        if target is None:
            return False
        if not self.isVisible():
            self.open()
        if self._pattern is None:
            return False
        counter = self.counter
        if not counter.finish_within(WAIT_SECONDS):
            self._pending_step = step
            return False
        start, end = target.selection()
        found = counter.after(end) if step > 0 else counter.before(start)
        if found is None:
            self._current = None
            self._show_count()
            return False
        target.select(found, found + counter.length)
        self._current = found
        self._show_count()
        return True

    # -- replacing ------------------------------------------------------------------

    def replace_one(self) -> bool:
        """Replace the selected match, then move to the next one."""
        target = self._target()
        if target is None or self._pattern is None or not target.editable():
            return False
        if not self.counter.finish_within(WAIT_SECONDS):
            return False
        start, end = target.selection()
        selected_is_a_match = (
            end - start == self.counter.length and self.counter.index_of(start) is not None
        )
        if end > start and selected_is_a_match:
            target.replace_spans([(start, end)], self.replace_field.text())
            self.counter.finish_within(WAIT_SECONDS)  # the text changed: counted anew
        return self.find_next(1)

    def replace_all(self) -> int:
        """Replace every match as one undo step; how many were replaced.

        It waits for the count to finish (linear in the note): the person asked for
        the whole note to change.
        """
        target = self._target()
        if target is None or self._pattern is None or not target.editable() or not self.replacing:
            return 0
        counter = self.counter
        counter.finish_within(float("inf"))
        spans = [(start, start + counter.length) for start in counter.starts]
        if spans:
            target.replace_spans(spans, self.replace_field.text())
        self._current = None
        counter.finish_within(WAIT_SECONDS)
        self.count_label.setText(f"Replaced {len(spans)}")
        self.count_label.setAccessibleDescription(f"Replaced {len(spans)}")
        return len(spans)
