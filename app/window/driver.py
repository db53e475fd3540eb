"""What a person does in the main window, as one object the QA scenarios and the tests drive.

Each method goes through the same code as the menu command, key or click it
names; none is a second implementation. The window's parts keep their own jobs
(:class:`~app.window.frame_registry.FrameRegistry` which frames exist, :class:`~app.window.frames.
WindowFrames` mounting and focus, :class:`~app.workspace.switch.WorkspaceSwitch` the
boundary...); the driver only gathers the actions a scenario step or a test needs,
so the window itself carries no list of forwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.assistant.settings_dialog import AssistantSettingsDialog
from app.commands.menus import WindowMenus
from app.notes.kept_notes import KeptNotes
from app.notes.note_commands import NoteCommands, NoteCreation
from app.popout.host import PopoutHost
from app.popout.processes import PopoutHandle
from app.window.frame_registry import FrameRegistry
from app.window.frames import WindowFrames
from app.workspace.switch import WorkspaceSwitch
from bridge.views import DEFAULT_VIEW
from renderer.frames.base import FrameBase
from renderer.frames.inbox.frame import InboxFrame


@dataclass(frozen=True)
class WindowDriver:
    """The user's actions on one main window, over the window's own parts."""

    registry: FrameRegistry
    frames: WindowFrames
    notes: NoteCommands
    switcher: WorkspaceSwitch
    menus: WindowMenus
    kept_notes: KeptNotes
    popout_host: PopoutHost

    # -- what is there ---------------------------------------------------------------

    def frame(self, frame_id: str) -> FrameBase:
        return self.registry.frame(frame_id)

    def inbox_frames(self) -> list[InboxFrame]:
        return self.registry.inbox_frames()

    def note_frames_in_order(self) -> list[InboxFrame]:
        """The notes column, top to bottom."""
        return self.frames.note_frames_in_order()

    # -- what the user does ----------------------------------------------------------

    def trigger(self, action_id: str) -> None:
        """The menu item (or its keys) declared as ``action_id`` in :mod:`app.commands.actions`."""
        self.menus.trigger(action_id)

    def mount_inbox(
        self, frame_id: str, path: str, view: str = DEFAULT_VIEW, *, position: int | None = None
    ) -> InboxFrame:
        """Add an Inbox frame on ``path`` (at ``position`` in the notes column, default last)."""
        return self.frames.mount_inbox(frame_id, path, view, position=position)

    def mount_provider(self, frame_id: str, provider: str) -> FrameBase:
        return self.frames.mount_provider(frame_id, provider)

    def close_frame(self, frame_id: str) -> None:
        """The frame's close button."""
        self.frames.close_frame(frame_id)

    def open_note(self, path: str, frame_id: str | None = None) -> InboxFrame:
        """Open ``path`` as a link or the browser does (focusing a frame that shows it)."""
        return self.frames.open_note(path, frame_id)

    def create_note(self, path: str, frame_id: str | None = None) -> NoteCreation:
        """File ▸ New note… with ``path`` typed (R47)."""
        return self.notes.create_note(path, frame_id)

    def move_frame(self, frame_id: str, offset: int) -> None:
        """Frames ▸ Move up / Move down."""
        self.frames.move_frame(frame_id, offset)

    def activate_frame(self, frame_id: str) -> None:
        """A click into the frame (R2, R5)."""
        self.frames.activate_frame(frame_id)

    def focus_frame_number(self, number: int) -> None:
        """Ctrl+1…9."""
        self.frames.focus_frame_number(number)

    def switch_workspace(self, name: str) -> None:
        """Cross into workspace ``name`` (created empty if new); ``workspace_switched`` follows."""
        self.switcher.switch(name)

    def open_assistant_settings(self) -> AssistantSettingsDialog:
        """Assistant ▸ Settings…"""
        return self.menus.open_assistant_settings()

    def offer_kept_notes(self, kept: list[str] | None = None) -> None:
        """The banner offering text kept from a session that ended before it was saved."""
        self.kept_notes.offer(kept)

    def bring_back(self, handle: PopoutHandle) -> InboxFrame | None:
        """Reopen a popped-out note here, under its id and in its old place (R49)."""
        return self.popout_host.bring_back(handle)
