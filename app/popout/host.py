"""The main window's side of popped-out notes (R29) and of bringing them back (R49).

The frame leaves the window (withdrawn from the store first, so the host no
longer resolves it) and its place in the notes column is noted on the handle;
when its window ends the host offers to bring the note back, under the same id
and into the same place. Its id stays taken while the handle exists.
"""

from __future__ import annotations

from app.popout.processes import PopoutHandle
from app.session import AppSession
from app.window.banner import Banners
from app.window.frame_registry import FrameRegistry
from app.window.frames import WindowFrames
from app.window.frameset import Frameset
from renderer.frames.base import FrameBase
from renderer.frames.inbox.frame import InboxFrame

STILL_STARTING = "The assistant service is still starting: pop the note out in a moment."


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
    """Pops out the notes whose ↗ button is pressed, and offers them back when their window ends."""

    def __init__(
        self,
        session: AppSession,
        registry: FrameRegistry,
        frames: WindowFrames,
        frameset: Frameset,
        banners: Banners,
    ) -> None:
        self._session = session
        self._registry = registry
        self._frames = frames
        self._frameset = frameset
        self._banners = banners
        registry.frame_added.connect(self._offer_pop_out)
        session.popouts.attach_host(self._detach)
        session.popouts.return_offered.connect(self._offer_return)

    def _offer_pop_out(self, frame: FrameBase) -> None:
        if isinstance(frame, InboxFrame):
            frame.popout_requested.connect(self.pop_out)

    def pop_out(self, frame_id: str) -> None:
        """What the frame's ↗ button asks for."""
        frame = self._registry.frames.get(frame_id)
        if not isinstance(frame, InboxFrame):
            return
        if not self._session.backend.answering:  # the child needs the backend's address
            self._banners.show_message(STILL_STARTING, topic=_topic(frame_id))
            return
        path = frame.path
        position = self._frameset.inbox_column.indexOf(frame)
        resolved = self._session.store.resolve()
        beside = self._frameset.window().frameGeometry()
        handle = self._session.popouts.pop_out(frame, beside=beside)
        handle.position = position
        self._frames.assistants.fallback.popped_out(path, resolved, frame_id)
        self._banners.show_message(popped_out_banner(path), topic=_topic(frame_id))

    def _detach(self, frame_id: str) -> str:
        frame = self._registry.frame(frame_id)
        if not isinstance(frame, InboxFrame):
            raise ValueError(f"“{frame_id}” is not an Inbox frame; only notes pop out.")
        workspace = frame.link.workspace
        self._frames.remove_frame(frame)  # withdraws from the store first
        self._registry.frames_changed.emit()
        return workspace

    def _offer_return(self, handle: PopoutHandle) -> None:
        banners = self._banners
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
        registry = self._registry
        self._session.popouts.forget(handle)
        if handle.workspace != self._session.workspace:
            self._banners.show_message(
                f"{handle.path} belongs to workspace “{handle.workspace}”, which is not open."
            )
            return None
        free = registry.is_free_id(handle.frame_id)
        frame_id = handle.frame_id if free else registry.free_inbox_id()
        frame = self._frames.mount_inbox(
            frame_id, handle.path, handle.view, position=handle.position
        )
        self._frames.focus_frame(frame)  # R81: the note brought back is "this note" again
        return frame
