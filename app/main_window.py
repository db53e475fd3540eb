"""The main window: the frameset (Inbox, AI Assistant, providers), pop-outs and frame ids.

Every driver method here is what the matching user action does, through the same
code: :meth:`MainWindow.activate_frame` is the one activation path into the
store (R2, R5); frames are mounted only by :meth:`mount_inbox` and
:meth:`mount_provider`, and every unmount (close, pop-out, switch, quit) tears the
frame down the same way, its pending save queued first.

Frame ids are unique within a session (R49): an id stays taken while its frame is
open here or popped out, and a note brought back from its own window returns to
the place it left. Workspace switching and layouts live in
:mod:`app.workspace_switch`, kept text in :mod:`app.kept_notes`, menus in
:mod:`app.menus`, the columns in :mod:`app.frameset`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QWidget,
)

from app.assistant_dialog import AssistantSettingsDialog
from app.assistants import WorkspaceAssistants
from app.frameset import Frameset
from app.kept_notes import KeptNotes
from app.layout_state import LayoutStore
from app.menus import NO_NOTE_OPEN, WindowMenus
from app.popout_host import PopoutHost
from app.popouts import PopoutHandle, PopoutManager
from app.session import AppSession
from app.style import STYLESHEET
from app.workspace_switch import BROWSER_FRAME_ID, WorkspaceSwitch
from bridge.frames import ASSISTANT_FRAME_ID
from bridge.paths import check_workspace_path
from bridge.pointer import VIEWS, View
from renderer.ambient.store import AmbientStore
from renderer.frames.assistant import AssistantFrame
from renderer.frames.base import FrameBase
from renderer.frames.inbox import InboxFrame
from renderer.frames.providers import (
    WORKSPACE_PROVIDER,
    PlaceholderProviderFrame,
    WorkspaceBrowserFrame,
)
from renderer.qt import collector
from renderer.qt.recovery import KeptNote

__all__ = ["BROWSER_FRAME_ID", "NO_NOTE_OPEN", "MainWindow"]


class MainWindow(QMainWindow):
    """The frameset window over one :class:`AppSession`.

    ``demo_layout`` opens the starting layout (the workspace browser and two notes);
    by default only a demo-workspace session gets it, so QA starts from an empty frameset.
    A layout saved in the data folder for the workspace (R45) comes before either.
    """

    workspace_switched = Signal(str)
    """The new workspace id, once its frames are remounted."""
    workspace_switch_failed = Signal(str)
    """A plain-language reason; the previous workspace stays open."""
    frames_changed = Signal()

    def __init__(self, session: AppSession, *, demo_layout: bool | None = None) -> None:
        super().__init__()
        collector.hold()  # cycles are collected on this thread while the window is open
        self._session = session
        self.frames: dict[str, FrameBase] = {}
        self._closed = False
        self.setWindowTitle(f"Ambient Notes — {session.workspace}")
        self.setStyleSheet(STYLESHEET)
        self.resize(1360, 820)
        layouts = LayoutStore(session.data_dir)
        saved = layouts.load()
        self.switcher = WorkspaceSwitch(self, layouts, saved)

        self.frameset = Frameset(
            self, lambda: self.menus.ask_new_note(), lambda: self.menus.quick_open()
        )
        self.banners = self.frameset.banners
        self.providers_column = self.frameset.providers_column
        self.inbox_column = self.frameset.inbox_column
        self.splitter = self.frameset.splitter
        self.inbox_area = self.frameset.inbox_area
        self.no_note = self.frameset.no_note
        self.setCentralWidget(self.frameset)

        # Each workspace has its own assistant frame and conversation; the others wait hidden.
        shelf = QWidget(self)
        shelf.hide()
        self.assistants = WorkspaceAssistants(session, self.splitter, shelf, self.activate_frame)
        remembered = saved.layouts.get(session.workspace)
        conversation = remembered.conversation if remembered else None
        self.show_assistant(self.assistant_for(session.workspace, conversation))
        self.frameset.set_proportions()

        self._update_inbox_area()
        self.popout_host = PopoutHost(self)
        session.autosave.state_changed.connect(self._on_save_state)
        self.kept_notes = KeptNotes(self)
        self.menus = WindowMenus(self)
        if session.assistant_problem:
            self.banners.show_message(session.assistant_problem, tone="error")

        if layouts.set_aside_message is not None:
            self.banners.show_message(layouts.set_aside_message, tone="error", topic="layout-file")
        if remembered is not None:
            self.switcher.restore(remembered, providers=True)
        elif demo_layout if demo_layout is not None else session.demo:
            self.switcher.open_starting_layout()
        self.kept_notes.offer()

    # -- what the runner and tests reach -----------------------------------------

    @property
    def session(self) -> AppSession:
        return self._session

    @property
    def store(self) -> AmbientStore:
        return self._session.store

    @property
    def popouts(self) -> PopoutManager:
        return self._session.popouts

    @property
    def assistant(self) -> AssistantFrame:
        """The open workspace's AI Assistant frame."""
        assert self.assistants.current is not None
        return self.assistants.current

    def frame(self, frame_id: str) -> FrameBase:
        try:
            return self.frames[frame_id]
        except KeyError:
            raise KeyError(f"No frame is called “{frame_id}”.") from None

    def inbox_frames(self) -> list[InboxFrame]:
        return [frame for frame in self.frames.values() if isinstance(frame, InboxFrame)]

    def browsers(self) -> list[WorkspaceBrowserFrame]:
        return [frame for frame in self.frames.values() if isinstance(frame, WorkspaceBrowserFrame)]

    @property
    def is_switching_workspace(self) -> bool:
        return self.switcher.switching

    # -- mounting ------------------------------------------------------------------

    def mount_inbox(
        self, frame_id: str, path: str, view: View = "edit", *, position: int | None = None
    ) -> InboxFrame:
        """Add an Inbox frame on ``path``: it publishes at once (R1), loads off the GUI thread.

        ``position`` is its place in the notes column (default: last).
        """
        if self.is_switching_workspace:
            raise ValueError("A workspace is being opened; open notes once it is ready.")
        self._check_new_frame_id(frame_id)
        check_workspace_path(path)
        if view not in VIEWS:
            raise ValueError(f"Unknown view “{view}”; use one of {', '.join(VIEWS)}.")
        frame = InboxFrame(
            frame_id,
            path,
            view,
            link=self._session.link,
            store=self._session.store,
            runner=self._session.runner,
            autosave=self._session.autosave,
        )
        self._adopt(frame)
        frame.popout_requested.connect(self.popout_host.pop_out)
        frame.note_link_clicked.connect(self._open_from_browser)  # R62: a link to a note
        if position is None:
            self.inbox_column.addWidget(frame)
        else:
            self.inbox_column.insertWidget(max(0, position), frame)
        frame.mount()
        self.frames_changed.emit()
        return frame

    def mount_provider(self, frame_id: str, provider: str) -> FrameBase:
        """Add a provider frame: the workspace browser, or a placeholder for any other name."""
        self._check_new_frame_id(frame_id)
        frame: FrameBase
        if provider == WORKSPACE_PROVIDER:
            browser = WorkspaceBrowserFrame(
                frame_id, link=lambda: self._session.link, runner=self._session.runner
            )
            browser.open_requested.connect(self._open_from_browser)
            frame = browser
        else:
            frame = PlaceholderProviderFrame(frame_id, provider)
        self._adopt(frame)
        self.providers_column.addWidget(frame)
        self.frames_changed.emit()
        return frame

    def close_frame(self, frame_id: str) -> None:
        """Unmount a frame (its pending save is queued first). The assistant always stays."""
        if frame_id == ASSISTANT_FRAME_ID:
            raise ValueError("The AI Assistant frame cannot be closed.")
        frame = self.frame(frame_id)
        self.remove_frame(frame)
        self.frames_changed.emit()

    def open_note(self, path: str, frame_id: str | None = None) -> InboxFrame:
        """Open a note in a new Inbox frame (what the workspace browser does), or focus it."""
        for existing in self.inbox_frames():
            if existing.path == path:
                self.focus_frame(existing)
                return existing
        frame = self.mount_inbox(frame_id or self.free_inbox_id(), path)
        self.focus_frame(frame)
        return frame

    def move_frame(self, frame_id: str, offset: int) -> None:
        """Move a frame up (-1) or down (+1) within its column."""
        if self.frameset.shift(self.frame(frame_id), offset):
            self.frames_changed.emit()

    def _open_from_browser(self, path: str) -> None:
        try:
            self.open_note(path)
        except ValueError as error:
            self.banners.show_message(str(error), tone="error")

    # -- activation (R2, R5) -----------------------------------------------------------

    def activate_frame(self, frame_id: str) -> None:
        """The one activation path: tell the store, then show which frame is active."""
        if frame_id not in self.frames:
            raise KeyError(f"No frame is called “{frame_id}”.")
        if self.store.last_activated_frame != frame_id:
            self.store.activate(frame_id)
            for other in self.frames.values():
                other.set_active(other.frame_id == frame_id)

    # -- workspaces (R7, R45) ------------------------------------------------------------

    def switch_workspace(self, name: str) -> None:
        """Cross into workspace ``name`` (created empty if new); ``workspace_switched`` follows."""
        self.switcher.switch(name)

    def open_assistant_settings(self) -> AssistantSettingsDialog:
        return self.menus.open_assistant_settings()

    def assistant_for(self, workspace: str, conversation: str | None) -> AssistantFrame:
        """The workspace's assistant frame, made on first use (with ``conversation`` if given)."""
        return self.assistants.for_workspace(workspace, conversation)

    def show_assistant(self, assistant: AssistantFrame) -> None:
        self.assistants.show(assistant)
        self.frames[ASSISTANT_FRAME_ID] = assistant

    def offer_kept_notes(self, kept: list[KeptNote] | None = None) -> None:
        self.kept_notes.offer(kept)

    # -- frame ids (R49) -----------------------------------------------------------------

    def bring_back(self, handle: PopoutHandle) -> InboxFrame | None:
        """Reopen a popped-out note here, under its id and in its old place (R49)."""
        return self.popout_host.bring_back(handle)

    def is_free_id(self, frame_id: str) -> bool:
        """True unless a frame here or a popped-out window holds ``frame_id`` (R49)."""
        return frame_id not in self.frames and frame_id not in self._popped_out_ids()

    def free_inbox_id(self) -> str:
        """The lowest ``inbox-N`` no frame holds, here or popped out (R49)."""
        number = 1
        while not self.is_free_id(f"inbox-{number}"):
            number += 1
        return f"inbox-{number}"

    def _popped_out_ids(self) -> set[str]:
        return {handle.frame_id for handle in self.popouts.handles}

    def _check_new_frame_id(self, frame_id: str) -> None:
        if not frame_id or not frame_id.strip():
            raise ValueError("A frame id may not be empty.")
        if frame_id in self.frames:
            raise ValueError(f"A frame called “{frame_id}” is already open.")
        if frame_id in self._popped_out_ids():
            raise ValueError(f"A frame called “{frame_id}” is open in its own window.")

    # -- internals -------------------------------------------------------------------

    def _adopt(self, frame: FrameBase) -> None:
        self.frames[frame.frame_id] = frame
        frame.watch_activation()
        frame.activated.connect(self.activate_frame)
        frame.close_requested.connect(self.close_frame)
        if isinstance(frame, InboxFrame):
            self._update_inbox_area()

    def remove_frame(self, frame: FrameBase) -> None:
        """Tear a frame down (its pending save queued first) and take it out of the window."""
        frame.teardown()
        self.frames.pop(frame.frame_id, None)
        frame.hide()
        frame.setParent(None)
        frame.deleteLater()
        self._update_inbox_area()

    def _update_inbox_area(self) -> None:
        self.frameset.show_notes(
            any(isinstance(frame, InboxFrame) for frame in self.frames.values())
        )

    def _on_save_state(self, workspace: str, path: str, state: str) -> None:
        # R47: a note the app just saved for the first time appears in the list by itself.
        if state == "saved" and workspace == self._session.workspace:
            for browser in self.browsers():
                if path not in {info.path for info in browser.documents}:
                    browser.refresh()

    # -- focus -------------------------------------------------------------------------

    def focus_frame(self, frame: FrameBase) -> None:
        frame.focus_target().setFocus(Qt.FocusReason.ShortcutFocusReason)
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
        laid_out = self.frameset.column_frames()
        return [frame for frame in laid_out if frame.frame_id in self.frames] + [self.assistant]

    def focus_next_frame(self, step: int = 1) -> None:
        """F6 / Shift+F6: move keyboard focus to the next (or previous) frame."""
        ordered = self.frames_in_order()
        current = self.store.last_activated_frame
        ids = [frame.frame_id for frame in ordered]
        index = ids.index(current) if current in ids else -1
        self.focus_frame(ordered[(index + step) % len(ordered)])

    def focus_assistant(self) -> None:
        self.focus_frame(self.assistant)

    # -- quitting ------------------------------------------------------------------------

    def shutdown_frames(self) -> None:
        """Unmount every frame (pending saves are queued) and end popped-out children."""
        self.popouts.close_all()
        for frame in list(self.frames.values()):
            if not isinstance(frame, AssistantFrame):
                self.remove_frame(frame)
        self.assistants.teardown()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.switcher.persist(quitting=True)  # R45: the next start opens this layout
            self.shutdown_frames()
            collector.release()
        super().closeEvent(event)
