"""Reaching a popped-out frame's window from a scenario (R29, R88).

A popped-out note runs in its own process (:mod:`app.popout.processes`): the host gives it
the backend, the workspace, the path, the frame id and the view on its command
line, and hears back only that it started and when it ended. The runner cannot
put input events into another process, so a step that acts on a popped-out frame
(``type``, ``select``, ``activate``, ``inline``…) or an ``expect`` that reads it
drives the same :class:`~app.popout.window.PopoutWindow` class, built here from the same
command-line facts (same backend, workspace, path, frame id and view) with its own
store, as the child builds it. It stays open, and in the pictures beside the main
window, until the scenario ends. The child process keeps running meanwhile; it
never edits, so it saves nothing over what is typed here.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from app.scenario.lookup import note_frame, popped_out_handle
from app.scenario.waiting import wait_until

if TYPE_CHECKING:
    from app.popout.window import PopoutWindow
    from app.window.main_window import MainWindow
    from renderer.frames.inbox.frame import InboxFrame

LOAD_TIMEOUT_SECONDS = 20.0

_held: dict[str, PopoutWindow] = {}
"""The popped-out windows the steps drive, by frame id, until the scenario ends."""


def held_popout(frame_id: str | None) -> PopoutWindow | None:
    return _held.get(frame_id) if frame_id is not None else None


def close_held_popouts() -> None:
    """Close the popped-out windows the steps opened (the scenario ends)."""
    while _held:
        _frame_id, popout = _held.popitem()
        _close(popout)


def _close(popout: PopoutWindow) -> None:
    popout.close()
    with contextlib.suppress(Exception):
        wait_until(lambda: not popout.isVisible(), timeout=LOAD_TIMEOUT_SECONDS, what="closing")
    popout.shutdown_workers()
    popout.deleteLater()


def reachable_frame(window: MainWindow, frame_id: str) -> InboxFrame:
    """The note frame ``frame_id``: in the main window, or in its popped-out window."""
    if frame_id in window.frames:
        return note_frame(window, frame_id)
    held = _held.get(frame_id)
    if held is not None:
        return held.frame
    handle = popped_out_handle(window, frame_id)
    if handle is None:
        return note_frame(window, frame_id)  # the step error naming the frames there are
    from app.popout.window import PopoutWindow
    from app.session import connect_workspace

    link = connect_workspace(window.session.backend, handle.workspace)
    popout = PopoutWindow(link, handle.frame_id, handle.path, handle.view)
    popout.show()
    _held[frame_id] = popout
    wait_until(
        lambda: popout.frame.is_loaded,
        timeout=LOAD_TIMEOUT_SECONDS,
        what=f"the popped-out {handle.path} to load",
        wake_on=[popout.frame.loaded],
    )
    return popout.frame
