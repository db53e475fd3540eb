"""Finding a step's frame by its id, for every verb and expect key that acts on one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.scenario.waiting import StepError
from renderer.frames.base import FrameBase
from renderer.frames.inbox.frame import InboxFrame

if TYPE_CHECKING:
    from app.popout.processes import PopoutHandle
    from app.window.main_window import MainWindow


def popped_out_handle(window: MainWindow, frame_id: str) -> PopoutHandle | None:
    """The newest still-running pop-out of ``frame_id``, if it was popped out."""
    handles = [
        handle
        for handle in window.session.popouts.handles
        if handle.frame_id == frame_id and handle.exit_code is None
    ]
    return handles[-1] if handles else None


def frame(window: MainWindow, frame_id: str) -> FrameBase:
    """The mounted frame ``frame_id``; a step error naming the frames there are if none."""
    found = window.frames.get(frame_id)
    if found is None:
        known = ", ".join(sorted(window.frames)) or "none"
        handle = popped_out_handle(window, frame_id)
        if handle is not None:
            raise StepError(
                f"'{frame_id}' was popped out into its own window ({handle.path}); this step "
                f"acts on the main window only (frames here: {known})"
            )
        raise StepError(f"there is no frame '{frame_id}' (frames now: {known})")
    return found


def note_frame(window: MainWindow, frame_id: str) -> InboxFrame:
    """The Inbox frame named ``frame_id``; a step error saying what is there instead."""
    found = frame(window, frame_id)
    if not isinstance(found, InboxFrame):
        raise StepError(f"'{frame_id}' is not an Inbox frame")
    return found
