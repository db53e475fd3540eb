"""Pictures for reports: the main window beside a popped-out note's window (R29).

A popped-out note runs in its own process, whose window the runner cannot
grab. For the picture, the same :class:`~app.popout.window.PopoutWindow` class is
rendered here on the same backend and workspace, grabbed and closed again;
it has its own store, so the main window's state is untouched.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QWidget

from app.scenario.popout_windows import held_popout
from app.scenario.waiting import wait_until
from app.session import AppSession, connect_workspace
from bridge.views import View

if TYPE_CHECKING:
    from app.window.main_window import MainWindow

_GAP = 24
_CAPTION_HEIGHT = 40
_BACKGROUND = QColor("#e9ecf2")
_INK = QColor("#1f2430")
_LOAD_SECONDS = 20.0
DIRECT_CHILDREN = Qt.FindChildOption.FindDirectChildrenOnly
MAIN_CAPTION = "Main window: its assistant cannot see the popped-out note"
POPOUT_CAPTION = "Popped-out window: a separate process with its own store"


Region = tuple[int, int, int, int]
"""Where a frame is in a saved picture: x, y, width, height in the picture's pixels."""
POPOUT_REGION = "popout:"
"""Prefix of the region of a popped-out window's picture (``popout:inbox-2``)."""


LATEST_TURN_REGION = "assistant:latest"
"""The assistant's latest turn, as far as it is in view."""
CHIP_REGION = "assistant:chip"
"""The assistant from its context chip down: the chip and the message input."""


def _frame_regions(window: MainWindow, scale: float, offset: QPoint) -> dict[str, Region]:
    """Each visible frame's rectangle in the window's picture (the slides crop to them)."""

    def placed(widget: QWidget, top: int | None = None) -> Region:
        corner = widget.mapTo(window, QPoint(0, 0))
        start = corner.y() if top is None else max(corner.y(), top)
        return (
            offset.x() + round(corner.x() * scale),
            offset.y() + round(start * scale),
            round(widget.width() * scale),
            round((corner.y() + widget.height() - start) * scale),
        )

    regions: dict[str, Region] = {}
    for frame_id, frame in window.frames.items():
        if frame.isVisible():
            regions[frame_id] = placed(frame)
    assistant = window.assistant
    turns = [
        child
        for child in assistant.transcript.findChildren(QWidget, options=DIRECT_CHILDREN)
        if child.isVisible() and child is not assistant.welcome
    ]
    if turns and assistant.isVisible():
        latest = max(turns, key=lambda child: child.y())
        viewport = assistant.transcript_view.viewport()
        visible_top = viewport.mapTo(window, QPoint(0, 0)).y()
        visible_bottom = visible_top + viewport.height()
        turn_top = max(latest.mapTo(window, QPoint(0, 0)).y() - 6, visible_top)
        turn_bottom = min(
            latest.mapTo(window, QPoint(0, 0)).y() + latest.height() + 6, visible_bottom
        )
        x, _y, width, _height = placed(assistant)
        regions[LATEST_TURN_REGION] = (
            x,
            offset.y() + round(turn_top * scale),
            width,
            round(max(0, turn_bottom - turn_top) * scale),
        )
        regions[CHIP_REGION] = placed(
            assistant, assistant.context_chip.mapTo(window, QPoint(0, 0)).y() - 6
        )
    return regions


def save_window_picture(
    window: MainWindow, size: tuple[int, int], target: Path, *, popped_out: str | None = None
) -> dict[str, Region] | None:
    """Save the window at ``size`` (R46: every picture of a run has the same size, whatever a
    step did to the window); after a pop-out, beside the popped-out note's window (R29).

    Returns where each frame is in the picture (None when it could not be saved)."""
    if (window.width(), window.height()) != size:
        window.resize(*size)
    picture = window.grab().toImage()
    scale = picture.devicePixelRatio()
    regions = _frame_regions(window, scale, QPoint(0, 0))
    if popped_out is not None:
        handles = [
            handle for handle in window.session.popouts.handles if handle.frame_id == popped_out
        ]
        if handles:
            handle = handles[-1]
            held = held_popout(popped_out)  # the one an inline step drives, as it is now
            try:
                popout = (
                    held.grab().toImage()
                    if held is not None
                    else render_popout(
                        window.session, handle.workspace, handle.frame_id, handle.path, handle.view
                    )
                )
            except Exception:
                popout = None  # a picture is a nicety; the step itself already passed
            if popout is not None:
                main_width = picture.width()
                picture = side_by_side(picture, popout)
                top = _GAP + _CAPTION_HEIGHT
                regions = _frame_regions(window, scale, QPoint(_GAP, top))
                regions[POPOUT_REGION + popped_out] = (
                    _GAP + main_width + _GAP,
                    _GAP,
                    popout.width(),
                    popout.height() + _CAPTION_HEIGHT,
                )
    return regions if picture.save(str(target)) else None


def render_popout(
    session: AppSession, workspace: str, frame_id: str, path: str, view: View
) -> QImage:
    """A picture of the popped-out window for ``path`` as its process shows it."""
    from app.popout.window import PopoutWindow

    link = connect_workspace(session.backend, workspace)
    # The window announces readiness on stdout for its host; here that line is noise.
    with contextlib.redirect_stdout(io.StringIO()):
        window = PopoutWindow(link, frame_id, path, view)
        try:
            window.show()
            wait_until(
                lambda: window.frame.is_loaded,
                timeout=_LOAD_SECONDS,
                what=f"the popped-out {path} to load",
                wake_on=[window.frame.loaded],
            )
            return window.grab().toImage()
        finally:
            window.close()
            with contextlib.suppress(Exception):
                wait_until(lambda: not window.isVisible(), timeout=_LOAD_SECONDS, what="closing")
            window.runner.shutdown()
            window.deleteLater()


def side_by_side(main: QImage, popout: QImage) -> QImage:
    """The two windows next to each other, each captioned."""
    width = main.width() + _GAP + popout.width() + 2 * _GAP
    height = max(main.height(), popout.height()) + _CAPTION_HEIGHT + 2 * _GAP
    canvas = QImage(width, height, QImage.Format.Format_ARGB32)
    canvas.fill(_BACKGROUND)
    painter = QPainter(canvas)
    try:
        font = QFont(painter.font())
        font.setPointSizeF(13)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(_INK)
        left = _GAP
        right = _GAP + main.width() + _GAP
        top = _GAP + _CAPTION_HEIGHT
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(QRect(left, _GAP, main.width(), _CAPTION_HEIGHT), align, MAIN_CAPTION)
        painter.drawText(QRect(right, _GAP, popout.width(), _CAPTION_HEIGHT), align, POPOUT_CAPTION)
        painter.drawImage(QPoint(left, top), main)
        painter.drawImage(QPoint(right, top), popout)
    finally:
        painter.end()
    return canvas
