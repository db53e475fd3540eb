"""The scenario verbs for finding and making notes (R47): ``new-note`` and ``quick-open``.

Each goes through the same code as the menu command: New note's creation over the
document API, and the real Quick open dialog, typed into and confirmed with Enter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.scenario.steps import NewNoteStep, QuickOpenStep
from app.scenario.waiting import StepError, wait_until

if TYPE_CHECKING:
    from app.window.main_window import MainWindow

CREATE_TIMEOUT_SECONDS = 20.0
LISTING_TIMEOUT_SECONDS = 20.0


def new_note(window: MainWindow, step: NewNoteStep) -> str:
    """File ▸ New note's own path: create through the document API, then open (R47).

    Returns the id of the frame it opened in.
    """
    if step.frame is not None and step.frame in window.frames:
        raise StepError(f"a frame named '{step.frame}' is already mounted")
    creation = window.driver.create_note(step.path, step.frame)
    wait_until(
        lambda: creation.frame is not None or creation.error is not None,
        timeout=CREATE_TIMEOUT_SECONDS,
        what=f"{step.path} to be created and opened",
        wake_on=[creation.opened, creation.failed],
    )
    if creation.frame is None:
        raise StepError(f"the new note {step.path} failed: {creation.error}")
    return creation.frame.frame_id


def quick_open(window: MainWindow, step: QuickOpenStep) -> str | None:
    """Ctrl+P, type the query, Enter: the best fuzzy match opens (R47).

    Returns the id of a frame it newly opened (None when the note was open already).
    """
    before = {frame.frame_id for frame in window.driver.inbox_frames()}
    dialog = window.menus.quick_open(step.frame)
    try:
        wait_until(
            lambda: dialog.is_listed,
            timeout=LISTING_TIMEOUT_SECONDS,
            what="the quick-open listing",
            wake_on=[dialog.listed],
        )
        dialog.filter.setText(step.query)
        matches = dialog.matches()
        if not matches:
            raise StepError(f"no note matches {step.query!r} (notes: {len(dialog.entries)})")
        QTest.keyClick(dialog.filter, Qt.Key.Key_Return)
    finally:
        if dialog.isVisible():
            dialog.reject()
    opened = [frame for frame in window.driver.inbox_frames() if frame.path == matches[0]]
    if not opened:
        raise StepError(f"quick open chose {matches[0]} but no frame shows it")
    return opened[0].frame_id if opened[0].frame_id not in before else None
