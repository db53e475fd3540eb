"""The context chip above the assistant's input: what "this note" means in the next send.

The chip follows the store (R3): the note's path, with the selection's lines
when there is one (``notes/a.md:3–7``, R48), its view and frame. It listens only
while it can be seen, and reads the store again each time it is shown: a hidden
workspace's chip does no work as a selection changes in any note. Its "Leave
out" toggle sends the next message without any note context and then resets.
Neither the chip's text nor the toggle's state changes the column's width (R46):
a long path is shortened in the middle as it is painted, and the whole text is
the tooltip and what assistive technology reads.
"""

from __future__ import annotations

from collections.abc import Callable

from psygnal import SignalInstance
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QHideEvent, QPainter, QPaintEvent, QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from bridge.privacy import CHIP_PRIVATE
from bridge.views import EDIT
from renderer.ambient.lines import LineRange, span_lines
from renderer.ambient.store import AmbientStore, Resolution
from renderer.frames.path_text import shorten_path, shortest_path

_NO_NOTE = "No note open"
_PREFIX = "This note: "
_LEFT_OUT = " — left out of the next message"
_MIN_WIDTH = 80
_TOGGLE_TEXT = "Leave out"
_LEFT_OUT_SHORT = " — left out"
_TOGGLE_PADDING = 20  # the stylesheet's padding and border on both sides, with room to spare


def chip_location(resolution: Resolution, lines: LineRange | None = None) -> str:
    """``path`` or ``path:lines``: where in which note the next send points (R48)."""
    return resolution.path if lines is None else f"{resolution.path}:{lines}"


def chip_text(resolution: Resolution | None, lines: LineRange | None = None) -> str:
    """What the context chip says "this note" is."""
    if resolution is None:
        return _NO_NOTE
    location = chip_location(resolution, lines)
    return f"{_PREFIX}{location} · {resolution.view} · {resolution.frame_id}"


Layout = tuple[str, str, str]
"""A way to show the chip: text before the path, the path, and text after it."""


class ChipLabel(QLabel):
    """A one-line label painted in the first of its layouts that fits, the path shortened.

    :meth:`text` stays the whole text. The label asks for no width of its own,
    so no text can widen the column it sits in.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layouts: list[Layout] = []
        self.setMinimumWidth(_MIN_WIDTH)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def set_layouts(self, whole: str, layouts: list[Layout]) -> None:
        """Say ``whole``, painted as the first of ``layouts`` (fullest first) that fits.

        A layout fits when its path, shortened in the middle, still shows its start
        and its file name; the last one is shortened as a whole if need be.
        """
        self._layouts = layouts
        self.setText(whole)
        self.setToolTip(whole)
        self.setAccessibleDescription(whole)

    def shown_text(self) -> str:
        """The text as painted at the current width."""
        metrics = QFontMetrics(self.font())
        width = self.contentsRect().width() - 2 * self.margin()
        for head, path, tail in self._layouts:
            room = width - metrics.horizontalAdvance(head + tail)
            if metrics.horizontalAdvance(path) <= room:
                return head + path + tail
            if path and room >= metrics.horizontalAdvance(shortest_path(path)):
                return head + shorten_path(metrics, path, room) + tail
        last = "".join(self._layouts[-1]) if self._layouts else self.text()
        return metrics.elidedText(last, Qt.TextElideMode.ElideMiddle, width)

    def sizeHint(self) -> QSize:
        return QSize(_MIN_WIDTH, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(_MIN_WIDTH, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        # What QLabel paints for plain text, with the shortened text in place of the whole.
        painter = QPainter(self)
        self.drawFrame(painter)
        rect = self.contentsRect().adjusted(
            self.margin(), self.margin(), -self.margin(), -self.margin()
        )
        self.style().drawItemText(
            painter,
            rect,
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            self.foregroundRole(),
        )


class ContextChip(QWidget):
    """The chip and its "Leave out" toggle, in one row of fixed geometry."""

    text_changed = Signal(str)
    """The chip's whole text, each time it changes (the input's accessible description, R85)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._resolution: Resolution | None = None
        self._private = False
        self._lines: LineRange | None = None
        self._store: AmbientStore | None = None
        self._listening: tuple[tuple[SignalInstance, Callable[..., None]], ...] = ()
        self.label = ChipLabel(self)
        self.label.setObjectName("contextChip")
        self.label.setAccessibleName("Note the assistant will see")
        self.exclude_toggle = QToolButton(self)
        self.exclude_toggle.setObjectName("excludeToggle")
        self.exclude_toggle.setText(_TOGGLE_TEXT)
        self.exclude_toggle.setCheckable(True)
        self.exclude_toggle.setToolTip("Send the next message without any note context")
        self.exclude_toggle.setAccessibleName("Leave the note out of the next message")
        self.exclude_toggle.toggled.connect(lambda _on: self._update())
        # Checked, the toggle's text is bold: its width is fixed for that, so toggling it
        # never moves the chip's edge.
        bold = QFont(self.exclude_toggle.font())
        bold.setBold(True)
        self.exclude_toggle.setFixedWidth(
            QFontMetrics(bold).horizontalAdvance(_TOGGLE_TEXT) + _TOGGLE_PADDING
        )
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 8, 2)
        row.addWidget(self.label, 1)
        row.addWidget(self.exclude_toggle)
        self._update()

    @property
    def resolution(self) -> Resolution | None:
        """The note the chip shows."""
        return self._resolution

    @property
    def lines(self) -> LineRange | None:
        """The lines of the selection the chip shows, or None without a selection."""
        return self._lines

    @property
    def location(self) -> str | None:
        """``path`` or ``path:lines`` as the chip shows it; None with no note open."""
        return None if self._resolution is None else chip_location(self._resolution, self._lines)

    def follow(self, store: AmbientStore) -> Callable[[], None]:
        """Show what ``store`` resolves, now and on every change while the chip is visible.

        A selection change or a load in the resolved frame changes its lines.
        Hidden, the chip does not listen; shown again, it reads the store at once.
        Returns the unsubscriber, which may be called more than once.
        """
        self._store = store
        if self.isVisible():
            self._listen(store)
        self.refresh()

        def unsubscribe() -> None:
            self._store = None
            self._stop_listening()

        return unsubscribe

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._store is not None and not self._listening:
            self._listen(self._store)
            self.refresh()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._stop_listening()

    def _listen(self, store: AmbientStore) -> None:
        # psygnal calls ``refresh`` with none of the signal's arguments: it takes none.
        self._listening = (
            (store.resolution_changed, self.refresh),
            (store.frame_selection_changed, self._on_frame_changed),
            (store.frame_loaded, self._on_frame_changed),
        )
        for signal, listener in self._listening:
            signal.connect(listener)

    def _stop_listening(self) -> None:
        listening, self._listening = self._listening, ()
        for signal, listener in listening:
            signal.disconnect(listener)

    def refresh(self) -> None:
        """Read the resolution and the selection's lines from the store again."""
        store = self._store
        resolution = None if store is None else store.resolve()
        self._resolution = resolution
        # R86: a private note's selection is not even counted; the chip says it is private.
        self._private = (
            store is not None and resolution is not None and store.is_private(resolution.path)
        )
        self._lines = None if store is None or self._private else _resolved_lines(store)
        self._update()

    def take_exclusion(self) -> bool:
        """Whether the next send leaves the note out; the toggle resets for the send after."""
        excluded = self.exclude_toggle.isChecked()
        if excluded:
            self.exclude_toggle.setChecked(False)
        return excluded

    def _on_frame_changed(self, frame_id: str) -> None:
        if self._resolution is not None and self._resolution.frame_id == frame_id:
            self.refresh()

    def _update(self) -> None:
        label = self.label
        # With no note open there is nothing to leave out; a choice made for a note that
        # has since closed does not carry over to the next one.
        self.exclude_toggle.setEnabled(self._resolution is not None and not self._private)
        if self._resolution is None and self.exclude_toggle.isChecked():
            self.exclude_toggle.setChecked(False)  # toggled: this runs again, unchecked
            return
        excluded = self.exclude_toggle.isChecked()
        empty = self._resolution is None
        restyle = (label.property("excluded"), label.property("empty")) != (excluded, empty)
        label.setProperty("excluded", excluded)
        label.setProperty("empty", empty)
        left_out, left_out_short = (_LEFT_OUT, _LEFT_OUT_SHORT) if excluded else ("", "")
        whole = chip_text(self._resolution, self._lines) + left_out
        resolution = self._resolution
        label.setProperty("private", self._private)
        if resolution is not None and self._private:
            whole = f"{CHIP_PRIVATE} ({resolution.path})"
            layouts = [(f"{CHIP_PRIVATE} (", resolution.path, ")"), (CHIP_PRIVATE, "", "")]
        elif resolution is None:
            layouts = [(_NO_NOTE, "", left_out), (_NO_NOTE, "", left_out_short)]
        else:
            # The path and its lines matter most; then the wording, which every chip shares
            # (the main window's and a pop-out's), then the view and the frame.
            lines = "" if self._lines is None else f":{self._lines}"
            path = resolution.path
            view, frame = f" · {resolution.view}", f" · {resolution.frame_id}"
            layouts = [
                (_PREFIX, path, lines + view + frame + left_out),
                (_PREFIX, path, lines + view + left_out_short),
                (_PREFIX, path, lines + left_out_short),
                ("", path, lines + left_out_short),
            ]
        changed = label.text() != whole
        label.set_layouts(whole, layouts)
        if changed:
            self.text_changed.emit(whole)
        if restyle:  # the stylesheet reads these properties; polishing again is not cheap
            label.style().unpolish(label)
            label.style().polish(label)
        label.update()


def _resolved_lines(store: AmbientStore) -> LineRange | None:
    """The lines of the selection in the note "this note" means, when it is in the edit view.

    Only the edit view sends a selection (R8). Only the selection's span is read
    (from the start of its first line to its end), so a selection change costs what
    the selection costs, not the note (R67); nothing of it is kept.
    """
    runtime = store.resolve_runtime()
    if runtime is None or runtime.current_view() != EDIT or not runtime.is_loaded():
        return None
    return span_lines(runtime.read_selected_span())
