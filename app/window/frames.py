"""Mounting, closing, activating and focusing the window's frames, over its registry.

Frames are mounted only by :meth:`WindowFrames.mount_inbox` and
:meth:`WindowFrames.mount_provider`, and every unmount (close, pop-out, switch,
quit) tears the frame down the same way, its pending save queued first.
:meth:`WindowFrames.activate_frame` is the one activation path into the store
(R2, R5), and its :class:`~renderer.frames.focus_keeper.FocusKeeper` keeps the
keyboard focus in the frame the store names (R81). Which frames exist and their
ids (R49) are kept in the :class:`app.window.frame_registry.FrameRegistry`; where they
stand, in the :class:`app.window.frameset.Frameset`.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.assistant.assistants import WorkspaceAssistants
from app.assistant.proposals import ProposalApplier
from app.session import AppSession
from app.window.frame_registry import FrameRegistry
from app.window.frameset import Frameset
from bridge.frames import ASSISTANT_FRAME_ID
from bridge.paths import check_workspace_path
from bridge.views import DEFAULT_VIEW, view_named
from renderer.frames.assistant.frame import AssistantFrame
from renderer.frames.base import FrameBase
from renderer.frames.focus_keeper import FocusKeeper
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.providers import (
    WORKSPACE_PROVIDER,
    PlaceholderProviderFrame,
    WorkspaceBrowserFrame,
)


class WindowFrames:
    """The frames of one window: what each user action on a frame does, through one path.

    ``shelf`` is the hidden widget where the assistants of the other workspaces wait.
    """

    def __init__(
        self, session: AppSession, registry: FrameRegistry, frameset: Frameset, shelf: QWidget
    ) -> None:
        self._session = session
        self._registry = registry
        self._frameset = frameset
        # Each workspace has its own assistant frame and conversation; the others wait hidden.
        self.proposals = ProposalApplier(session, registry)
        self.assistants = WorkspaceAssistants(
            session, frameset.splitter, shelf, self.activate_frame, self.proposals.review
        )
        # R80: the frame "this note" means is marked, by the resolution the chip shows.
        session.store.resolution_changed.connect(self.mark_this_note)
        # R81: the keys go into the frame the store names, whoever changed it.
        self.focus = FocusKeeper(
            session.store,
            frameset.window(),
            lambda: registry.frames,
            self.activate_frame,
            paused=lambda: registry.switching,
        )

    @property
    def assistant(self) -> AssistantFrame:
        """The open workspace's AI Assistant frame."""
        assert self.assistants.current is not None
        return self.assistants.current

    def assistant_for(self, workspace: str, conversation: str | None) -> AssistantFrame:
        """The workspace's assistant frame, made on first use (with ``conversation`` if given)."""
        return self.assistants.for_workspace(workspace, conversation)

    def show_assistant(self, assistant: AssistantFrame) -> None:
        self.assistants.show(assistant)
        self._registry.set_assistant(assistant)

    # -- mounting ------------------------------------------------------------------

    def mount_inbox(
        self, frame_id: str, path: str, view: str = DEFAULT_VIEW, *, position: int | None = None
    ) -> InboxFrame:
        """Add an Inbox frame on ``path``: it publishes at once (R1), loads off the GUI thread.

        ``position`` is its place in the notes column (default: last).
        """
        if self._registry.switching:
            raise ValueError("A workspace is being opened; open notes once it is ready.")
        self._registry.check_new_id(frame_id)
        check_workspace_path(path)
        first_view = view_named(view)
        session = self._session
        frame = InboxFrame(
            frame_id,
            path,
            first_view,
            link=session.link,
            store=session.store,
            runner=session.runner,
            autosave=session.autosave,
            privacy=session.privacy_marks,
        )
        # R53: a note another frame already shows is that frame's live document, one save.
        showing = [shown for shown in self._registry.showing(path) if not shown.owner]
        owner = next((shown for shown in showing if shown.is_loaded), None)
        # Still loading there (not failed): wait for that load rather than load a second copy.
        loading = None if owner else next((s for s in showing if s.problem.isHidden()), None)
        self._adopt(frame)
        frame.note_link_clicked.connect(self._open_from_browser)  # R62: a link to a note
        column = self._frameset.inbox_column
        if position is None:
            column.addWidget(frame)
        else:
            column.insertWidget(max(0, position), frame)
        frame.mount(share=owner, loading=loading)
        self._registry.frames_changed.emit()
        return frame

    def mount_provider(self, frame_id: str, provider: str) -> FrameBase:
        """Add a provider frame: the workspace browser, or a placeholder for any other name."""
        self._registry.check_new_id(frame_id)
        frame: FrameBase
        if provider == WORKSPACE_PROVIDER:
            session = self._session
            browser = WorkspaceBrowserFrame(
                frame_id,
                link=lambda: session.link,
                runner=session.runner,
                privacy=session.privacy_marks,
            )
            browser.open_requested.connect(self._open_from_browser)
            frame = browser
        else:
            frame = PlaceholderProviderFrame(frame_id, provider)
        self._adopt(frame)
        self._frameset.providers_column.addWidget(frame)
        self._registry.frames_changed.emit()
        return frame

    def close_frame(self, frame_id: str) -> None:
        """Unmount a frame (its pending save is queued first). The assistant always stays."""
        if frame_id == ASSISTANT_FRAME_ID:
            raise ValueError("The AI Assistant frame cannot be closed.")
        self.remove_frame(self._registry.frame(frame_id))
        self._registry.frames_changed.emit()

    def open_note(self, path: str, frame_id: str | None = None) -> InboxFrame:
        """Open a note in a new Inbox frame (what the workspace browser does), or focus it."""
        for existing in self._registry.showing(path):
            self.focus_frame(existing)
            return existing
        frame = self.mount_inbox(frame_id or self._registry.free_inbox_id(), path)
        self.focus_frame(frame)
        return frame

    def move_frame(self, frame_id: str, offset: int) -> None:
        """Move a frame up (-1) or down (+1) within its column."""
        if self._frameset.shift(self._registry.frame(frame_id), offset):
            self._registry.frames_changed.emit()

    def remove_frame(self, frame: FrameBase) -> None:
        """Tear a frame down (its pending save queued first) and take it out of the window."""
        frame.teardown()
        self._registry.discard(frame)
        frame.hide()
        frame.setParent(None)
        frame.deleteLater()
        self.update_inbox_area()

    def update_inbox_area(self) -> None:
        """The notes column while a note is open, else the page that says how to open one."""
        self._frameset.show_notes(bool(self._registry.inbox_frames()))
        self._frameset.fold_notes(self._session.store.last_activated_frame)

    def on_save_state(self, workspace: str, path: str, state: str) -> None:
        # R47: a note the app just saved for the first time appears in the list by itself.
        if state == "saved" and workspace == self._session.workspace:
            for browser in self._registry.browsers():
                if path not in {info.path for info in browser.documents}:
                    browser.refresh()

    def _open_from_browser(self, path: str) -> None:
        try:
            self.open_note(path)
        except ValueError as error:
            self._frameset.banners.show_message(str(error), tone="error")

    def _adopt(self, frame: FrameBase) -> None:
        self._registry.add(frame)
        frame.watch_activation()
        frame.activated.connect(self.activate_frame)
        frame.close_requested.connect(self.close_frame)
        if isinstance(frame, InboxFrame):
            self.update_inbox_area()

    # -- activation (R2, R5) and focus -----------------------------------------------

    def activate_frame(self, frame_id: str) -> None:
        """The one activation path: tell the store, show which frame is active, focus it (R81)."""
        frames = self._registry.frames
        if frame_id not in frames:
            raise KeyError(f"No frame is called “{frame_id}”.")
        store = self._session.store
        if isinstance(frames[frame_id], InboxFrame):
            self._frameset.fold_notes(frame_id)  # a folded note opens before the keeper focuses it
        if store.last_activated_frame != frame_id:
            for other in frames.values():
                other.set_active(other.frame_id == frame_id)
            store.activate(frame_id)  # the focus keeper hears of it and moves the focus
        else:
            self.focus.settle()  # already active: the focus may still be elsewhere

    def mark_this_note(self) -> None:
        """Mark the frame the store resolves "this note" to, and only that one (R80)."""
        resolution = self._session.store.resolve()
        chosen = None if resolution is None else resolution.frame_id
        for frame in self._registry.frames.values():
            frame.set_this_note(frame.frame_id == chosen)

    def focus_frame(self, frame: FrameBase) -> None:
        """A frame shortcut, or the app choosing a frame: it is activated and takes the keys."""
        self.activate_frame(frame.frame_id)

    def focus_frame_number(self, number: int) -> None:
        """Ctrl+N: focus the N-th Inbox frame, top to bottom."""
        frames = self.note_frames_in_order()
        if 1 <= number <= len(frames):
            self.focus_frame(frames[number - 1])

    def note_frames_in_order(self) -> list[InboxFrame]:
        return [frame for frame in self.frames_in_order() if isinstance(frame, InboxFrame)]

    def frames_in_order(self) -> list[FrameBase]:
        """Every frame as laid out: providers, then notes top to bottom, then the assistant."""
        frames = self._registry.frames
        laid_out = self._frameset.column_frames()
        return [frame for frame in laid_out if frame.frame_id in frames] + [self.assistant]

    def focus_next_frame(self, step: int = 1) -> None:
        """F6 / Shift+F6: move keyboard focus to the next (or previous) frame."""
        ordered = self.frames_in_order()
        current = self._session.store.last_activated_frame
        ids = [frame.frame_id for frame in ordered]
        index = ids.index(current) if current in ids else -1
        self.focus_frame(ordered[(index + step) % len(ordered)])

    def focus_assistant(self) -> None:
        self.focus_frame(self.assistant)

    # -- quitting ------------------------------------------------------------------------

    def shutdown_frames(self) -> None:
        """Unmount every frame (pending saves are queued) and end popped-out children."""
        self._session.store.resolution_changed.disconnect(self.mark_this_note)
        self.focus.stop()
        self._session.popouts.close_all()
        for frame in list(self._registry.frames.values()):
            if not isinstance(frame, AssistantFrame):
                self.remove_frame(frame)
        self.assistants.teardown()
