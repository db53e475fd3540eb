"""The window's own model: its frames by id (R49), the active one, and whether it is switching.

:class:`FrameRegistry` is what the parts of the window share instead of the
window itself (napari's ``ViewerModel`` beside its ``QtViewer``): the workspace
switch, the pop-out host, kept notes and the menus read it, and ask it for the
frames showing a note. It holds no widgets of its own and imports no window
code; the frames it lists are the ones :class:`app.window.frames.WindowFrames`
mounted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from psygnal import Signal

from bridge.frames import ASSISTANT_FRAME_ID
from renderer.ambient.store import AmbientStore
from renderer.frames.base import FrameBase
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.providers import WorkspaceBrowserFrame


class FrameRegistry:
    """Every frame of the window under its id, and the ids popped-out notes still hold (R49).

    ``switching`` is True while a workspace is being opened (R7): no note is
    mounted meanwhile. Listeners hear of each frame added and of every change
    to the set of frames (close, pop-out, move), in the order they connected.
    """

    frame_added = Signal(FrameBase)
    """A frame was added (mounted, or brought back from a pop-out)."""
    frames_changed = Signal()
    """The set of frames, or their order, changed: whoever changed it emits this."""

    def __init__(self, store: AmbientStore, popped_out_ids: Callable[[], Iterable[str]]) -> None:
        self._store = store
        self._popped_out_ids = popped_out_ids
        self.frames: dict[str, FrameBase] = {}
        self.switching = False

    # -- reading ---------------------------------------------------------------

    def frame(self, frame_id: str) -> FrameBase:
        try:
            return self.frames[frame_id]
        except KeyError:
            raise KeyError(f"No frame is called “{frame_id}”.") from None

    def inbox_frames(self) -> list[InboxFrame]:
        return [frame for frame in self.frames.values() if isinstance(frame, InboxFrame)]

    def browsers(self) -> list[WorkspaceBrowserFrame]:
        return [frame for frame in self.frames.values() if isinstance(frame, WorkspaceBrowserFrame)]

    def showing(self, path: str) -> list[InboxFrame]:
        """The Inbox frames of this window that show the note at ``path``."""
        return [frame for frame in self.inbox_frames() if frame.path == path]

    @property
    def active_frame_id(self) -> str | None:
        """The last-activated frame (R2), when it is a frame of this window."""
        active = self._store.last_activated_frame
        return active if active in self.frames else None

    # -- ids (R49) ---------------------------------------------------------------

    def is_free_id(self, frame_id: str) -> bool:
        """True unless a frame here or a popped-out window holds ``frame_id`` (R49)."""
        return frame_id not in self.frames and frame_id not in set(self._popped_out_ids())

    def free_inbox_id(self) -> str:
        """The lowest ``inbox-N`` no frame holds, here or popped out (R49)."""
        number = 1
        while not self.is_free_id(f"inbox-{number}"):
            number += 1
        return f"inbox-{number}"

    def check_new_id(self, frame_id: str) -> None:
        """Raise ValueError (plain language) unless a new frame may take ``frame_id``."""
        if not frame_id or not frame_id.strip():
            raise ValueError("A frame id may not be empty.")
        if frame_id in self.frames:
            raise ValueError(f"A frame called “{frame_id}” is already open.")
        if frame_id in set(self._popped_out_ids()):
            raise ValueError(f"A frame called “{frame_id}” is open in its own window.")

    # -- changing ------------------------------------------------------------------

    def add(self, frame: FrameBase) -> None:
        self.frames[frame.frame_id] = frame
        self.frame_added.emit(frame)

    def discard(self, frame: FrameBase) -> None:
        self.frames.pop(frame.frame_id, None)

    def set_assistant(self, assistant: FrameBase) -> None:
        """The open workspace's assistant stands under the assistant's id (one per workspace)."""
        self.frames[ASSISTANT_FRAME_ID] = assistant
