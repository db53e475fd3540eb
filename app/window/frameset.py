"""The main window's columns: providers, the notes (or the no-note page), the assistant.

This is layout only: which frames exist and their ids are the
:class:`app.window.frame_registry.FrameRegistry`'s, mounting and activation
:class:`app.window.frames.WindowFrames`'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QChildEvent, QEvent, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.window.banner import BannerArea
from renderer.frames.base import FrameBase

PROVIDERS_MIN_WIDTH = 160
NOTES_MIN_WIDTH = 280

NO_NOTE_OPEN = (
    "No note is open. Double-click one in the workspace list, find one with Quick open "
    "(Ctrl+P) or start one with New note (Ctrl+N). The assistant then knows which note "
    "“this note” means."
)


class NoNotePage(QWidget):
    """What the notes column shows with no note open: how to open one, and buttons for it.

    The buttons do nothing until :meth:`offer` gives them the window's commands.
    """

    def __init__(self) -> None:
        super().__init__()
        self._new_note: Callable[[], object] = _nothing
        self._quick_open: Callable[[], object] = _nothing
        _fill_no_note_page(self, lambda: self._new_note(), lambda: self._quick_open())

    def offer(self, new_note: Callable[[], object], quick_open: Callable[[], object]) -> None:
        """New note… and Quick open…: what the page's two buttons do."""
        self._new_note = new_note
        self._quick_open = quick_open


def _nothing() -> None:
    return None


def _fill_no_note_page(
    page: QWidget, new_note: Callable[[], object], quick_open: Callable[[], object]
) -> None:
    page.setObjectName("noNotePage")
    label = QLabel(NO_NOTE_OPEN, page)
    label.setObjectName("noNoteHint")
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    buttons = QHBoxLayout()
    buttons.addStretch(1)
    for text, name, tip, action in (
        ("New note…", "Make a new note", "File ▸ New note… (Ctrl+N)", new_note),
        ("Quick open…", "Find a note by its path", "File ▸ Quick open… (Ctrl+P)", quick_open),
    ):
        button = QPushButton(text, page)
        button.setAccessibleName(name)
        button.setToolTip(tip)
        button.clicked.connect(lambda _checked=False, act=action: act())
        buttons.addWidget(button)
    buttons.addStretch(1)
    layout = QVBoxLayout(page)
    layout.setContentsMargins(32, 32, 32, 32)
    layout.addStretch(1)
    layout.addWidget(label)
    layout.addSpacing(12)
    layout.addLayout(buttons)
    layout.addStretch(2)


class _ProvidersColumn(QSplitter):
    """The providers column, shown only while it holds a frame: never an empty strip."""

    def childEvent(self, event: QChildEvent) -> None:
        super().childEvent(event)
        # A frame is counted once polished and no longer once removed.
        if event.type() in (QEvent.Type.ChildPolished, QEvent.Type.ChildRemoved):
            self.setVisible(self.count() > 0)


FOLD_FROM_NOTES: Final = 4
"""From this many open notes, all but the active one fold to their title bars."""


class Frameset(QWidget):
    """The central widget: a banner area over the columns, side by side in a splitter."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("centre")
        self.banners = BannerArea(self)
        self.providers_column = _ProvidersColumn(Qt.Orientation.Vertical)
        self.providers_column.setVisible(False)
        self.inbox_column = QSplitter(Qt.Orientation.Vertical)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for column in (self.providers_column, self.inbox_column):
            column.setChildrenCollapsible(False)
            column.setHandleWidth(8)
        self.splitter.setHandleWidth(8)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.providers_column)
        self.no_note = NoNotePage()
        # With no note open the middle column says how to open one instead of vanishing.
        self.inbox_area = QStackedWidget()
        self.inbox_area.addWidget(self.inbox_column)
        self.inbox_area.addWidget(self.no_note)
        self.splitter.addWidget(self.inbox_area)
        # R46: explicit minimum widths, so no content (a long path, a long chip) can make a
        # column, and so the window, wider: what does not fit is elided or clipped instead.
        self.providers_column.setMinimumWidth(PROVIDERS_MIN_WIDTH)
        self.inbox_area.setMinimumWidth(NOTES_MIN_WIDTH)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        layout.addWidget(self.banners)
        layout.addWidget(self.splitter, 1)

    def set_proportions(self) -> None:
        """Once the assistant column is in: its share and the starting widths."""
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 5)
        self.splitter.setStretchFactor(2, 4)
        self.splitter.setSizes([270, 610, 480])

    def show_notes(self, has_notes: bool) -> None:
        """The notes column when a note is open, else the page that says how to open one."""
        self.inbox_area.setCurrentWidget(self.inbox_column if has_notes else self.no_note)

    def fold_notes(self, active: str | None) -> None:
        """With many notes open, fold all but the active one to their title bars (R84).

        The active note gets the column's height; a fold opens again when its frame is
        activated (a click on its title, Ctrl+number, F6).
        """
        column = self.inbox_column
        frames = [
            widget
            for index in range(column.count())
            if isinstance(widget := column.widget(index), FrameBase)
        ]
        many = len(frames) >= FOLD_FROM_NOTES
        unfolded = active if any(frame.frame_id == active for frame in frames) else None
        if many and unfolded is None and frames:
            # The assistant (or nothing) is active: the note open now stays open.
            open_now = [frame.frame_id for frame in frames if not frame.folded]
            unfolded = open_now[-1] if open_now else frames[-1].frame_id
        for frame in frames:
            frame.fold(many and frame.frame_id != unfolded)
        if many:
            total = sum(column.sizes())
            folded = [frame.maximumHeight() if frame.folded else 0 for frame in frames]
            rest = max(0, total - sum(folded))
            column.setSizes([height if height else rest for height in folded])

    def column_frames(self) -> list[FrameBase]:
        """The frames as laid out: providers top to bottom, then notes top to bottom."""
        ordered: list[FrameBase] = []
        for column in (self.providers_column, self.inbox_column):
            for index in range(column.count()):
                widget = column.widget(index)
                if isinstance(widget, FrameBase):
                    ordered.append(widget)
        return ordered

    def shift(self, frame: FrameBase, offset: int) -> bool:
        """Move ``frame`` by ``offset`` places within its column; True when it moved."""
        for column in (self.inbox_column, self.providers_column):
            index = column.indexOf(frame)
            if index >= 0:
                target = max(0, min(column.count() - 1, index + offset))
                if target != index:
                    column.insertWidget(target, frame)
                    return True
                return False
        return False
