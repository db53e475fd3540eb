"""The window's menus and shortcuts, and the small prompts behind them.

The Frames menu names the real frames ("Focus inbox/today.md"), refreshed
whenever frames come and go and each time the menu opens.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu

from app.assistant_dialog import AssistantSettingsDialog
from app.banner import Banners
from app.finding import QuickOpenDialog, WorkspacePickerDialog, open_dialog
from app.folders import show_workspace_folder
from app.frame_registry import FrameRegistry
from app.note_commands import NoteCommands, NoteCreation
from app.session import AppSession
from app.window_frames import WindowFrames
from app.workspace_switch import BROWSER_FRAME_ID
from bridge.frames import ASSISTANT_FRAME_ID
from renderer.frames.providers import WORKSPACE_PROVIDER

MAX_FRAME_SHORTCUTS = 9


class WindowMenus:
    """Builds File, Frames and Assistant on ``window``; owns the actions the shortcuts hang on."""

    def __init__(
        self,
        window: QMainWindow,
        session: AppSession,
        registry: FrameRegistry,
        frames: WindowFrames,
        banners: Banners,
        notes: NoteCommands,
        switch_workspace: Callable[[str], None],
    ) -> None:
        self._window = window
        self._session = session
        self._registry = registry
        self._frames = frames
        self._banners = banners
        self._notes = notes
        self._switch_workspace = switch_workspace
        self._build_file_menu()
        self._build_frames_menu()
        self.assistant_menu = assistant_menu = window.menuBar().addMenu("&Assistant")
        self._add(assistant_menu, "Assistant &settings…", "", self.open_assistant_settings)
        self._add(
            assistant_menu, "&Clear conversation", "", lambda: frames.assistant.ask_to_clear()
        )
        self.frames_menu.aboutToShow.connect(self.name_frames)
        registry.when_changed(self.name_frames)
        self.name_frames()

    def _build_file_menu(self) -> None:
        window = self._window
        file_menu = window.menuBar().addMenu("&File")
        self._add(file_menu, "&New note…", "Ctrl+N", self.ask_new_note)
        self._add(file_menu, "&Open note…", "Ctrl+O", self.ask_open_note)
        self._add(file_menu, "&Quick open…", "Ctrl+P", self.quick_open)
        self._add(file_menu, "&Switch workspace…", "Ctrl+Shift+O", self.ask_workspace)
        self._add(
            file_menu,
            "Show &workspace folder",
            "",
            lambda: show_workspace_folder(self._session, self._banners),
        )
        file_menu.addSeparator()
        self._add(file_menu, "&Quit", "Ctrl+Q", window.close)

    def _build_frames_menu(self) -> None:
        frames = self._frames
        self.frames_menu = self._window.menuBar().addMenu("F&rames")
        frames_menu = self.frames_menu
        self._add(frames_menu, "Focus the &assistant", "Ctrl+L", frames.focus_assistant)
        self._add(frames_menu, "&Next frame", "F6", lambda: frames.focus_next_frame(1))
        self._add(frames_menu, "&Previous frame", "Shift+F6", lambda: frames.focus_next_frame(-1))
        self.focus_actions: list[QAction] = [
            self._add(
                frames_menu,
                f"Focus note frame &{number}",
                f"Ctrl+{number}",
                lambda _checked=False, n=number: frames.focus_frame_number(n),
            )
            for number in range(1, MAX_FRAME_SHORTCUTS + 1)
        ]
        self._add(frames_menu, "Focus the &workspace browser", "Ctrl+Shift+E", self._focus_browser)
        self._add(frames_menu, "Add a &workspace browser", "", self._add_browser)
        frames_menu.addSeparator()
        self._add(frames_menu, "Move frame &up", "Ctrl+Shift+Up", lambda: self._move_active(-1))
        self._add(frames_menu, "Move frame &down", "Ctrl+Shift+Down", lambda: self._move_active(1))
        self._add(frames_menu, "&Close frame", "Ctrl+W", self._close_active)

    def name_frames(self) -> None:
        """One "Focus PATH" entry per note frame, top to bottom; the unused ones hidden."""
        notes = self._frames.note_frames_in_order()
        for number, action in enumerate(self.focus_actions, start=1):
            if number <= len(notes):
                # "&" would mark a mnemonic; a path's own ampersands are doubled to show as is.
                path = notes[number - 1].path.replace("&", "&&")
                action.setText(f"Focus {path}")
                action.setVisible(True)
            else:
                action.setVisible(False)

    def _add(self, menu: QMenu, title: str, shortcut: str, slot: Callable[..., object]) -> QAction:
        action = QAction(title, self._window)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # -- prompts -------------------------------------------------------------------

    def open_assistant_settings(self) -> AssistantSettingsDialog:
        """Assistant ▸ Settings… (R37); a save applies to the backend without a restart."""
        session = self._session
        dialog = AssistantSettingsDialog(
            backend=session.backend,
            runner=session.runner,
            store=session.assistant_settings,
            current=self._frames.assistant.assistant_info,
            parent=self._window,
        )
        dialog.applied.connect(self._frames.assistants.show_assistant_info)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def ask_open_note(self) -> None:
        path, accepted = QInputDialog.getText(
            self._window, "Open note", "Workspace path of the note:"
        )
        if accepted and path.strip():
            self._open_chosen(path.strip())

    def ask_new_note(self) -> NoteCreation | None:
        path, accepted = QInputDialog.getText(
            self._window,
            "New note",
            "Path of the new note, e.g. notes/ideas (a name without an extension gets .md):",
        )
        if accepted and path.strip():
            return self._notes.create_note(path)
        return None

    def quick_open(self, frame_id: str | None = None) -> QuickOpenDialog:
        """Ctrl+P; the note chosen opens in a new frame (called ``frame_id`` when given)."""
        session = self._session
        known = [info for browser in self._registry.browsers() for info in browser.documents]
        dialog = QuickOpenDialog(session.link, session.runner, known, self._window)
        open_dialog(dialog, lambda path: self._open_chosen(path, frame_id))
        return dialog

    def ask_workspace(self) -> WorkspacePickerDialog:
        session = self._session
        dialog = WorkspacePickerDialog(
            session.backend, session.runner, session.workspace, self._window
        )

        def chosen(name: str) -> None:
            if name != session.workspace:  # the open workspace stays open as it is
                self._switch_workspace(name)

        open_dialog(dialog, chosen)
        return dialog

    def _open_chosen(self, path: str, frame_id: str | None = None) -> None:
        try:
            self._frames.open_note(path, frame_id)
        except ValueError as error:
            self._banners.show_message(str(error), tone="error")

    # -- frames --------------------------------------------------------------------

    def _move_active(self, offset: int) -> None:
        active = self._registry.active_frame_id
        if active is not None:
            self._frames.move_frame(active, offset)

    def _close_active(self) -> None:
        active = self._registry.active_frame_id
        if active is not None and active != ASSISTANT_FRAME_ID:
            self._frames.close_frame(active)

    def _focus_browser(self) -> None:
        browsers = self._registry.browsers()
        if browsers:
            self._frames.focus_frame(browsers[0])

    def _add_browser(self) -> None:
        if BROWSER_FRAME_ID not in self._registry.frames:
            self._frames.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
