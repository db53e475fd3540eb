"""Finding a step's note frame by its id, for the verbs and expect keys that act on one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.scenario.waiting import StepError
from renderer.frames.inbox import InboxFrame

if TYPE_CHECKING:
    from app.main_window import MainWindow


def note_frame(window: MainWindow, frame_id: str) -> InboxFrame:
    """The Inbox frame named ``frame_id``; a step error naming it when there is none."""
    frame = window.frames.get(frame_id)
    if not isinstance(frame, InboxFrame):
        raise StepError(f"there is no note frame named '{frame_id}'")
    return frame
