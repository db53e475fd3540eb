"""The main window's side of popped-out notes (R29) and of bringing them back (R49).

The frame leaves the window (withdrawn from the store first, so the host no
longer resolves it) and its place in the notes column is noted on the handle;
when its window ends the host offers to bring the note back, under the same id
and into the same place. Its id stays taken while the handle exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.popouts import PopoutHandle
from renderer.frames.inbox import InboxFrame

if TYPE_CHECKING:
    from app.main_window import MainWindow


def popped_out_banner(path: str) -> str:
    """What is true of a popped-out note here (R29): not "this note", still readable by name."""
    return (
        f"{path} is now in its own window, with its own assistant. Here it is no longer "
        "“this note”; the assistant here can still read it by name, from its saved copy, "
        "which may be behind that window."
    )


def _topic(frame_id: str) -> str:
    return f"popout:{frame_id}"


class PopoutHost:
    def __init__(self, window: MainWindow) -> None:
        self._window = window
        window.popouts.attach_host(self._detach)
        window.popouts.return_offered.connect(self._offer_return)

    def pop_out(self, frame_id: str) -> None:
        """What the frame's ↗ button asks for."""
        window = self._window
        frame = window.frames.get(frame_id)
        if not isinstance(frame, InboxFrame):
            return
        path = frame.path
        position = window.inbox_column.indexOf(frame)
        resolved = window.store.resolve()
        handle = window.popouts.pop_out(frame, beside=window.frameGeometry())
        handle.position = position
        window.assistants.fallback.popped_out(path, resolved, frame_id)
        window.banners.show_message(popped_out_banner(path), topic=_topic(frame_id))

    def _detach(self, frame_id: str) -> str:
        window = self._window
        frame = window.frame(frame_id)
        if not isinstance(frame, InboxFrame):
            raise ValueError(f"“{frame_id}” is not an Inbox frame; only notes pop out.")
        workspace = frame.link.workspace
        window.remove_frame(frame)  # withdraws from the store first
        window.frames_changed.emit()
        return workspace

    def _offer_return(self, handle: PopoutHandle) -> None:
        banners = self._window.banners
        banners.dismiss_topic(_topic(handle.frame_id))
        ended = "ended unexpectedly" if handle.crashed else "was closed"
        banners.show_message(
            f"The window for {handle.path} {ended}. Bring the note back into this window?",
            tone="error" if handle.crashed else "info",
            actions=[("Bring back", lambda: self.bring_back(handle))],
            topic=_topic(handle.frame_id),
        )

    def bring_back(self, handle: PopoutHandle) -> InboxFrame | None:
        """Reopen a popped-out note here, under its id and in its old place (R49)."""
        window = self._window
        window.popouts.forget(handle)
        if handle.workspace != window.session.workspace:
            window.banners.show_message(
                f"{handle.path} belongs to workspace “{handle.workspace}”, which is not open."
            )
            return None
        frame_id = handle.frame_id if window.is_free_id(handle.frame_id) else window.free_inbox_id()
        return window.mount_inbox(frame_id, handle.path, handle.view, position=handle.position)
