"""The main window: the frameset (Inbox, AI Assistant, providers), menus, shortcuts, pop-outs.

Every driver method here is what the matching user action does, through the same
code: :meth:`MainWindow.activate_frame` is the one activation path into the
store (R2, R5); frames are mounted only by :meth:`mount_inbox` and
:meth:`mount_provider`, and every unmount (close, pop-out, switch, quit) tears the
frame down the same way, its pending save queued first.

Workspace switching (R7): pending saves are queued into the old workspace, the
store crosses the boundary (choice and history cleared, captures in flight
invalidated), and once the new workspace is open and those saves have landed the
Inbox frames are remounted on it. A frame whose note does not exist in the new
workspace is closed, with a banner naming it.

No note text is lost: a save that fails after its frame is gone (closed, switched
away from, quitting) keeps its text in the session's recovery folder; a banner
offers to restore it, now or whenever its workspace is opened again.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QInputDialog,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.assistant_dialog import AssistantSettingsDialog
from app.banner import BannerArea, save_failed_text_on_screen
from app.demo import DEMO_FRAMES
from app.popouts import PopoutHandle, PopoutManager
from app.session import AppSession, SessionError, connect_workspace, invalid_workspace_message
from app.style import STYLESHEET
from bridge.documents import DocumentInfo
from bridge.errors import BackendError
from bridge.paths import check_workspace_path
from bridge.pointer import VIEWS, View
from renderer.ambient.store import AmbientStore
from renderer.frames.assistant import ASSISTANT_FRAME_ID, AssistantFrame
from renderer.frames.base import FrameBase
from renderer.frames.inbox import InboxFrame
from renderer.frames.providers import (
    WORKSPACE_PROVIDER,
    PlaceholderProviderFrame,
    WorkspaceBrowserFrame,
)
from renderer.qt.backend import WorkspaceLink
from renderer.qt.recovery import KeptNote
from workers.identity import is_workspace_id

BROWSER_FRAME_ID = "workspace"
_MAX_FRAME_SHORTCUTS = 9
NO_NOTE_OPEN = (
    "No note is open. Double-click one in the workspace list, or open one by its path "
    "(a new path starts a new note). The assistant then knows which note “this note” means."
)


class MainWindow(QMainWindow):
    """The frameset window over one :class:`AppSession`.

    ``demo_layout`` opens the starting layout (the workspace browser and two notes);
    by default only a demo-workspace session gets it, so QA starts from an empty frameset.
    """

    workspace_switched = Signal(str)
    """The new workspace id, once its frames are remounted."""
    workspace_switch_failed = Signal(str)
    """A plain-language reason; the previous workspace stays open."""
    frames_changed = Signal()

    def __init__(self, session: AppSession, *, demo_layout: bool | None = None) -> None:
        super().__init__()
        self._session = session
        self.frames: dict[str, FrameBase] = {}
        self._switching = False
        self.setWindowTitle(f"Ambient Notes — {session.workspace}")
        self.setStyleSheet(STYLESHEET)
        self.resize(1360, 820)

        centre = QWidget(self)
        centre.setObjectName("centre")
        self.banners = BannerArea(centre)
        self.providers_column = QSplitter(Qt.Orientation.Vertical)
        self.inbox_column = QSplitter(Qt.Orientation.Vertical)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for column in (self.providers_column, self.inbox_column):
            column.setChildrenCollapsible(False)
            column.setHandleWidth(8)
        self.splitter.setHandleWidth(8)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.providers_column)
        self.no_note = self._build_no_note_page()
        # With no note open the middle column says how to open one instead of vanishing.
        self.inbox_area = QStackedWidget()
        self.inbox_area.addWidget(self.inbox_column)
        self.inbox_area.addWidget(self.no_note)
        self.splitter.addWidget(self.inbox_area)
        layout = QVBoxLayout(centre)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        layout.addWidget(self.banners)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(centre)

        self.assistant = AssistantFrame(
            store=session.store,
            runner=session.runner,
            autosave=session.autosave,
            link=lambda: self._session.link,
            conversation=session.conversation_for(session.workspace),
        )
        self.assistant.load_conversation(self.assistant.conversation)  # R34: shown on reopening
        self._adopt(self.assistant)
        self.splitter.addWidget(self.assistant)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 5)
        self.splitter.setStretchFactor(2, 4)
        self.splitter.setSizes([270, 610, 480])

        self._update_inbox_area()
        session.popouts.attach_host(self._detach_for_popout)
        session.popouts.return_offered.connect(self._offer_return)
        session.autosave.save_failed.connect(self._on_save_failed)
        session.autosave.state_changed.connect(self._on_save_state)
        self._build_menus()
        if session.assistant_problem:
            self.banners.show_message(session.assistant_problem, tone="error")

        if demo_layout if demo_layout is not None else session.demo:
            self._open_starting_layout()
        self.offer_kept_notes()

    def _open_starting_layout(self) -> None:
        """The browser and two notes: the demo's, or the first two the workspace lists."""
        browser = self.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
        if self._session.demo:
            for frame_id, path in DEMO_FRAMES:
                self.mount_inbox(frame_id, path)
            # Start where a person would: typing in the first note, which is "this note".
            self.frame(DEMO_FRAMES[0][0]).focus_target().setFocus()
            return
        assert isinstance(browser, WorkspaceBrowserFrame)

        def open_first(documents: list[DocumentInfo]) -> None:
            for index, info in enumerate(documents[: len(DEMO_FRAMES)], start=1):
                if f"inbox-{index}" not in self.frames and not self._switching:
                    self.mount_inbox(f"inbox-{index}", info.path)
            if "inbox-1" in self.frames:
                self.frame("inbox-1").focus_target().setFocus()

        browser.listed_once(open_first)

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

    def frame(self, frame_id: str) -> FrameBase:
        try:
            return self.frames[frame_id]
        except KeyError:
            raise KeyError(f"No frame is called “{frame_id}”.") from None

    def inbox_frames(self) -> list[InboxFrame]:
        return [frame for frame in self.frames.values() if isinstance(frame, InboxFrame)]

    @property
    def is_switching_workspace(self) -> bool:
        return self._switching

    # -- mounting ------------------------------------------------------------------

    def mount_inbox(self, frame_id: str, path: str, view: View = "edit") -> InboxFrame:
        """Add an Inbox frame on ``path``: it publishes at once (R1), loads off the GUI thread."""
        if self._switching:
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
        frame.popout_requested.connect(self._on_popout_requested)
        self.inbox_column.addWidget(frame)
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
        self._remove(frame)
        self.frames_changed.emit()

    def open_note(self, path: str) -> InboxFrame:
        """Open a note in a new Inbox frame (what the workspace browser does), or focus it."""
        for existing in self.inbox_frames():
            if existing.path == path:
                self._focus_frame(existing)
                return existing
        frame = self.mount_inbox(self._free_inbox_id(), path)
        self._focus_frame(frame)
        return frame

    def move_frame(self, frame_id: str, offset: int) -> None:
        """Move a frame up (-1) or down (+1) within its column."""
        frame = self.frame(frame_id)
        for column in (self.inbox_column, self.providers_column):
            index = column.indexOf(frame)
            if index >= 0:
                target = max(0, min(column.count() - 1, index + offset))
                if target != index:
                    column.insertWidget(target, frame)
                return

    def _move_active(self, offset: int) -> None:
        active = self.store.last_activated_frame
        if active is not None and active in self.frames:
            self.move_frame(active, offset)

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

    # -- workspace boundary (R7) -----------------------------------------------------

    def switch_workspace(self, name: str) -> None:
        """Cross into workspace ``name`` (created empty if new); ``workspace_switched`` follows."""
        if self._switching:
            self._fail_switch("A workspace is already being opened; wait for it to finish.")
            return
        if not is_workspace_id(name):
            self._fail_switch(invalid_workspace_message(name))
            return
        self._switching = True
        previous = self._session.link
        specs = [(frame.frame_id, frame.path, frame.view) for frame in self.inbox_frames()]
        for inbox in self.inbox_frames():
            self._remove(inbox)  # queues each pending save into the old workspace
        self.store.cross_workspace_boundary()
        for frame in self.frames.values():
            frame.set_active(False)
        flush = self._session.autosave.flush()
        backend = self._session.backend
        outcome: dict[str, object] = {}

        recovery = self._session.recovery

        def open_new() -> tuple[WorkspaceLink, list[DocumentInfo], list[KeptNote]]:
            link = connect_workspace(backend, name)
            documents = link.call(lambda client, session: client.list_documents(session))
            return link, documents, recovery.kept_for(link.workspace)

        def proceed() -> None:
            if "flushed" not in outcome or "opened" not in outcome:
                return
            opened = outcome["opened"]
            self._switching = False
            if isinstance(opened, BaseException):
                self._remount(previous, specs, None)
                self.offer_kept_notes()
                message = str(opened) if isinstance(opened, BackendError | SessionError) else ""
                self._fail_switch(message or f"The workspace “{name}” could not be opened.")
                return
            link, documents, kept = cast(
                tuple[WorkspaceLink, list[DocumentInfo], list[KeptNote]], opened
            )
            self._remount(link, specs, {info.path for info in documents})
            self.assistant.load_conversation(self._session.conversation_for(link.workspace))
            self.offer_kept_notes(kept)
            self.workspace_switched.emit(link.workspace)

        def on_flushed(_ok: bool) -> None:
            outcome["flushed"] = True
            proceed()

        def on_opened(value: object) -> None:
            outcome["opened"] = value
            proceed()

        flush.finished.connect(on_flushed)
        self._session.runner.submit(open_new, on_done=on_opened, on_error=on_opened)

    def _remount(
        self,
        link: WorkspaceLink,
        specs: list[tuple[str, str, View]],
        existing: set[str] | None,
    ) -> None:
        self._session.link = link
        self.setWindowTitle(f"Ambient Notes — {link.workspace}")
        closed: list[str] = []
        for frame_id, path, view in specs:
            if existing is not None and path not in existing:
                closed.append(path)
                continue
            if frame_id not in self.frames:
                self.mount_inbox(frame_id, path, view)
        for frame in self.frames.values():
            if isinstance(frame, WorkspaceBrowserFrame):
                frame.refresh()
        if closed:
            self.banners.show_message(
                f"Workspace “{link.workspace}” has no {', '.join(closed)}, so "
                f"{'that frame was' if len(closed) == 1 else 'those frames were'} closed.",
            )

    def _fail_switch(self, message: str) -> None:
        self.banners.show_message(message, tone="error")
        self.workspace_switch_failed.emit(message)

    # -- pop-out (R29) -----------------------------------------------------------------

    def _on_popout_requested(self, frame_id: str) -> None:
        frame = self.frames.get(frame_id)
        if isinstance(frame, InboxFrame):
            path = frame.path
            self.popouts.pop_out(frame)
            self.banners.show_message(
                f"{path} is now in its own window, with its own assistant. "
                "The assistant here no longer sees it.",
                topic=f"popout:{frame_id}",
            )

    def _detach_for_popout(self, frame_id: str) -> str:
        frame = self.frame(frame_id)
        if not isinstance(frame, InboxFrame):
            raise ValueError(f"“{frame_id}” is not an Inbox frame; only notes pop out.")
        workspace = frame.link.workspace
        self._remove(frame)  # withdraws from the store first: the host no longer resolves it
        self.frames_changed.emit()
        return workspace

    def _offer_return(self, handle: PopoutHandle) -> None:
        self.banners.dismiss_topic(f"popout:{handle.frame_id}")
        ended = "ended unexpectedly" if handle.crashed else "was closed"
        self.banners.show_message(
            f"The window for {handle.path} {ended}. Bring the note back into this window?",
            tone="error" if handle.crashed else "info",
            actions=[("Bring back", lambda: self.bring_back(handle))],
        )

    def bring_back(self, handle: PopoutHandle) -> InboxFrame | None:
        """Reopen a popped-out note here (when it belongs to the open workspace)."""
        self.popouts.forget(handle)
        if handle.workspace != self._session.workspace:
            self.banners.show_message(
                f"{handle.path} belongs to workspace “{handle.workspace}”, which is not open."
            )
            return None
        frame_id = handle.frame_id if handle.frame_id not in self.frames else self._free_inbox_id()
        return self.mount_inbox(frame_id, handle.path, handle.view)

    # -- internals -------------------------------------------------------------------

    def _check_new_frame_id(self, frame_id: str) -> None:
        if not frame_id or not frame_id.strip():
            raise ValueError("A frame id may not be empty.")
        if frame_id in self.frames:
            raise ValueError(f"A frame called “{frame_id}” is already open.")

    def _free_inbox_id(self) -> str:
        number = 1
        while f"inbox-{number}" in self.frames:
            number += 1
        return f"inbox-{number}"

    def _adopt(self, frame: FrameBase) -> None:
        self.frames[frame.frame_id] = frame
        frame.watch_activation()
        frame.activated.connect(self.activate_frame)
        frame.close_requested.connect(self.close_frame)
        if isinstance(frame, InboxFrame):
            self._update_inbox_area()

    def _remove(self, frame: FrameBase) -> None:
        frame.teardown()
        self.frames.pop(frame.frame_id, None)
        frame.hide()
        frame.setParent(None)
        frame.deleteLater()
        self._update_inbox_area()

    def _build_no_note_page(self) -> QWidget:
        page = QWidget()
        page.setObjectName("noNotePage")
        label = QLabel(NO_NOTE_OPEN, page)
        label.setObjectName("noNoteHint")
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        button = QPushButton("Open a note…", page)
        button.setAccessibleName("Open a note by its path")
        button.setToolTip("File ▸ Open note… (Ctrl+O)")
        button.clicked.connect(self._ask_open_note)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(32, 32, 32, 32)
        layout.addStretch(1)
        layout.addWidget(label)
        layout.addSpacing(12)
        layout.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        return page

    def _update_inbox_area(self) -> None:
        has_notes = any(isinstance(frame, InboxFrame) for frame in self.frames.values())
        self.inbox_area.setCurrentWidget(self.inbox_column if has_notes else self.no_note)

    def _focus_frame(self, frame: FrameBase) -> None:
        frame.focus_target().setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.activate_frame(frame.frame_id)

    def focus_frame_number(self, number: int) -> None:
        """Ctrl+N: focus the N-th Inbox frame, top to bottom."""
        frames = [frame for frame in self.frames_in_order() if isinstance(frame, InboxFrame)]
        if 1 <= number <= len(frames):
            self._focus_frame(frames[number - 1])

    def frames_in_order(self) -> list[FrameBase]:
        """Every frame as laid out: providers, then notes top to bottom, then the assistant."""
        ordered: list[FrameBase] = []
        for column in (self.providers_column, self.inbox_column):
            for index in range(column.count()):
                widget = column.widget(index)
                if isinstance(widget, FrameBase) and widget.frame_id in self.frames:
                    ordered.append(widget)
        ordered.append(self.assistant)
        return ordered

    def focus_next_frame(self, step: int = 1) -> None:
        """F6 / Shift+F6: move keyboard focus to the next (or previous) frame."""
        ordered = self.frames_in_order()
        current = self.store.last_activated_frame
        ids = [frame.frame_id for frame in ordered]
        index = ids.index(current) if current in ids else -1
        self._focus_frame(ordered[(index + step) % len(ordered)])

    def focus_assistant(self) -> None:
        self._focus_frame(self.assistant)

    def _on_save_failed(self, workspace: str, path: str, message: str) -> None:
        topic = _save_topic(workspace, path)
        still_open = workspace == self._session.workspace and any(
            frame.path == path for frame in self.inbox_frames()
        )
        if still_open:
            self.banners.show_message(
                save_failed_text_on_screen(path, message),
                tone="error",
                topic=topic,
            )
            return
        if not self._session.recovery.holds(workspace, path):
            self.banners.show_message(
                f"{path} could not be saved: {message}", tone="error", topic=topic
            )
            return
        kept = f"{path} could not be saved: {message} Your text is kept in this app's data folder."
        if workspace != self._session.workspace or self._switching:
            self.banners.show_message(
                f"{kept} Open workspace “{workspace}” again to restore it.",
                tone="error",
                topic=topic,
            )
            return
        self.banners.show_message(
            kept,
            tone="error",
            actions=[("Restore", lambda: self.restore_kept(workspace, path))],
            topic=topic,
        )

    def _on_save_state(self, workspace: str, path: str, state: str) -> None:
        if state == "saved":  # a failure reported earlier no longer holds
            self.banners.dismiss_topic(_save_topic(workspace, path))

    # -- kept text (no note text lost) -------------------------------------------------

    def offer_kept_notes(self, kept: list[KeptNote] | None = None) -> None:
        """Offer the text kept for the open workspace (from this run or an earlier one).

        ``kept`` is that workspace's kept notes when a worker already read the folder.
        """
        workspace = self._session.workspace
        if kept is None:
            kept = self._session.recovery.kept_for(workspace)
        if not kept:
            return
        paths = [note.path for note in kept]
        names = ", ".join(paths)
        self.banners.show_message(
            f"Text that could not be saved earlier is kept for {names}. "
            "Restore it to open the note with that text and save it.",
            actions=[("Restore", lambda: self._restore_all(workspace, paths))],
            topic="kept-notes",
        )

    def _restore_all(self, workspace: str, paths: list[str]) -> None:
        for path in paths:
            self.restore_kept(workspace, path)

    def restore_kept(self, workspace: str, path: str) -> InboxFrame | None:
        """Open ``path`` with the text kept for it; autosave then saves it (and drops the copy)."""
        recovery = self._session.recovery
        if workspace != self._session.workspace:
            self.banners.show_message(
                f"The kept text of {path} belongs to workspace “{workspace}”; open it first."
            )
            return None
        kept = recovery.get(workspace, path)
        if kept is None:
            self.banners.show_message(f"No text is kept for {path} any more.")
            return None
        try:
            frame = self.open_note(path)
        except ValueError as error:
            self.banners.show_message(str(error), tone="error")
            return None

        def apply() -> None:
            frame.loaded.disconnect(apply)
            frame.load_failed.disconnect(refused)
            recovery.adopt(workspace, path)
            frame.replace_text(kept.text)

        def refused(message: str) -> None:
            frame.loaded.disconnect(apply)
            frame.load_failed.disconnect(refused)
            self.banners.show_message(
                f"{path} could not be opened to restore its text ({message}); "
                "the text stays kept. Try again later.",
                tone="error",
            )

        if frame.is_loaded:
            recovery.adopt(workspace, path)
            frame.replace_text(kept.text)
        else:
            frame.loaded.connect(apply)
            frame.load_failed.connect(refused)
        return frame

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self._add_action(file_menu, "&Open note…", "Ctrl+O", self._ask_open_note)
        self._add_action(file_menu, "&Switch workspace…", "Ctrl+Shift+O", self._ask_workspace)
        file_menu.addSeparator()
        self._add_action(file_menu, "&Quit", "Ctrl+Q", self.close)
        frames_menu = self.menuBar().addMenu("F&rames")
        self._add_action(frames_menu, "Focus the &assistant", "Ctrl+L", self.focus_assistant)
        self._add_action(frames_menu, "&Next frame", "F6", lambda: self.focus_next_frame(1))
        self._add_action(
            frames_menu, "&Previous frame", "Shift+F6", lambda: self.focus_next_frame(-1)
        )
        for number in range(1, _MAX_FRAME_SHORTCUTS + 1):
            self._add_action(
                frames_menu,
                f"Focus note frame &{number}",
                f"Ctrl+{number}",
                lambda _checked=False, n=number: self.focus_frame_number(n),
            )
        self._add_action(
            frames_menu,
            "Focus the &workspace browser",
            "Ctrl+Shift+E",
            self._focus_browser,
        )
        self._add_action(frames_menu, "Add a &workspace browser", "", self._add_browser)
        frames_menu.addSeparator()
        self._add_action(
            frames_menu, "Move frame &up", "Ctrl+Shift+Up", lambda: self._move_active(-1)
        )
        self._add_action(
            frames_menu, "Move frame &down", "Ctrl+Shift+Down", lambda: self._move_active(1)
        )
        self._add_action(frames_menu, "&Close frame", "Ctrl+W", self._close_active)
        assistant_menu = self.menuBar().addMenu("&Assistant")
        self._add_action(assistant_menu, "Assistant &settings…", "", self.open_assistant_settings)
        clear = self.assistant.clear_conversation
        self._add_action(assistant_menu, "&Clear conversation", "", clear)

    def open_assistant_settings(self) -> AssistantSettingsDialog:
        """Assistant ▸ Settings… (R37); a save applies to the backend without a restart."""
        dialog = AssistantSettingsDialog(
            backend=self._session.backend,
            runner=self._session.runner,
            store=self._session.assistant_settings,
            current=self.assistant.assistant_info,
            parent=self,
        )
        dialog.applied.connect(self.assistant.show_assistant)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _add_action(self, menu: object, title: str, shortcut: str, slot: object) -> QAction:
        action = QAction(title, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)  # type: ignore[attr-defined]
        return action

    def _close_active(self) -> None:
        active = self.store.last_activated_frame
        if active is not None and active in self.frames and active != ASSISTANT_FRAME_ID:
            self.close_frame(active)

    def _focus_browser(self) -> None:
        for frame in self.frames.values():
            if isinstance(frame, WorkspaceBrowserFrame):
                self._focus_frame(frame)
                return

    def _add_browser(self) -> None:
        if BROWSER_FRAME_ID not in self.frames:
            self.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)

    def _ask_open_note(self) -> None:
        path, accepted = QInputDialog.getText(self, "Open note", "Workspace path of the note:")
        if accepted and path.strip():
            try:
                self.open_note(path.strip())
            except ValueError as error:
                self.banners.show_message(str(error), tone="error")

    def _ask_workspace(self) -> None:
        name, accepted = QInputDialog.getText(
            self, "Switch workspace", "Workspace name (created empty if new):"
        )
        if accepted and name.strip():
            self.switch_workspace(name.strip())

    def shutdown_frames(self) -> None:
        """Unmount every frame (pending saves are queued) and end popped-out children."""
        self.popouts.close_all()
        for frame in list(self.frames.values()):
            if frame is not self.assistant:
                self._remove(frame)
        self.assistant.teardown()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown_frames()
        super().closeEvent(event)


def _save_topic(workspace: str, path: str) -> str:
    return f"save:{workspace}:{path}"
