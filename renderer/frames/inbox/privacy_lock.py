"""The lock in a note frame's title bar (R86): may the assistant see the note, and the switch.

Closed and labelled "Private" when ``.aiexclude`` keeps the note from the
assistant; open and unlabelled otherwise. A click keeps the note private or shares
it again ("Keep private from the assistant" / "Share with the assistant"). The icon
is drawn here: no font on every machine has a lock character.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QToolButton, QWidget

from bridge.privacy import CHIP_PRIVATE, KEEP_PRIVATE, SHARE
from renderer.frames.base import tool_button
from renderer.qt.privacy import PrivacyMarks

PRIVATE_BADGE = "Private"
_ICON_SIZE = 16


def lock_icon(locked: bool) -> QIcon:
    """A padlock, closed or open, drawn at 16 px (and twice that for dense screens)."""
    icon = QIcon()
    for scale in (1, 2):
        size = _ICON_SIZE * scale
        pixmap = QPixmap(size, size)
        pixmap.setDevicePixelRatio(scale)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = QColor("#b4232a") if locked else QColor("#6b7280")
        painter.setPen(QPen(colour, 1.6))
        # The shackle: an arch over the body, lifted to one side when open.
        shackle = QRectF(4.5, 1.5, 7, 8) if locked else QRectF(7.5, 0.5, 7, 8)
        painter.drawArc(shackle, 0, 180 * 16)
        middle = shackle.center().y()
        painter.drawLine(QPointF(shackle.left(), middle), QPointF(shackle.left(), 7.5))
        if locked:
            painter.drawLine(QPointF(shackle.right(), middle), QPointF(shackle.right(), 7.5))
        painter.setBrush(colour)
        painter.drawRoundedRect(QRectF(2.5, 7.5, 11, 7.5), 1.5, 1.5)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


class PrivacyLock:
    """The title-bar lock of one note frame; ``path`` is asked afresh at each look."""

    def __init__(self, marks: PrivacyMarks, path: Callable[[], str], parent: QWidget) -> None:
        self._marks = marks
        self._path = path
        self.problem: str | None = None
        """Why the last click did not do what it asked, in plain words, or None."""
        self.button: QToolButton = tool_button("", KEEP_PRIVATE, KEEP_PRIVATE, parent)
        self.button.setObjectName("privacyLock")
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.clicked.connect(self.toggle)
        marks.changed.connect(self.refresh)
        self.refresh()

    def close(self) -> None:
        """The frame is closing: stop following the file."""
        with contextlib.suppress(RuntimeError, TypeError):
            self._marks.changed.disconnect(self.refresh)

    @property
    def private(self) -> bool:
        return self._marks.is_private(self._path())

    def refresh(self) -> None:
        """Show the lock as ``.aiexclude`` reads now."""
        private = self.private
        self.button.setIcon(lock_icon(private))
        self.button.setText(PRIVATE_BADGE if private else "")
        action = SHARE if private else KEEP_PRIVATE
        self.button.setToolTip(f"{CHIP_PRIVATE}. {action}." if private else action)
        self.button.setAccessibleName(action)
        self.button.setProperty("private", private)
        self.button.setEnabled(self._marks.editable)

    def toggle(self) -> bool:
        """Keep the note private, or share it again; the lock follows once the file is written."""
        self.problem = None

        def done(problem: str | None) -> None:
            self.problem = problem
            if problem is not None:
                self.button.setToolTip(problem)

        return self._marks.set_private(self._path(), not self.private, on_done=done)
