"""The window's menus and shortcuts, and the small prompts behind them.

The Frames menu names the real frames ("Focus inbox/today.md"), refreshed
whenever frames come and go and each time the menu opens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.assistant_dialog import AssistantSettingsDialog
from app.finding import QuickOpenDialog, WorkspacePickerDialog, open_dialog
from app.note_commands import NoteCreation, create_note
from bridge.frames import ASSISTANT_FRAME_ID
from renderer.frames.providers import WORKSPACE_PROVIDER

if TYPE_CHECKING:
    from app.main_window import MainWindow

MAX_FRAME_SHORTCUTS = 9
NO_NOTE_OPEN = (
    "No note is open. Double-click one in the workspace list, find one with Quick open "
    "(Ctrl+P) or start one with New note (Ctrl+N). The assistant then knows which note "
    "“this note” means."
)


def no_note_page(new_note: Callable[[], object], quick_open: Callable[[], object]) -> QWidget:
    """What the notes column shows with no note open: how to open one, and buttons for it."""
    page = QWidget()
    page.setObjectName("noNotePage")
    label = QLabel(NO_NOTE_OPEN, page)
    label.setObjectName("noNoteHint")
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    buttons = QHBoxLayout()
    buttons.addStretch(1)
    for text, name, tip, action in (
        ("New note…", "Make a new note", "File ▸ New note… (Ctrl+N)", new_note),
        ("Quick open…", "Find a note by its path", "File ▸ Quick open… (Ctrl+P)", quick_open),
    ):
        button = QPushButton(text, page)
        button.setAccessibleName(name)
        button.setToolTip(tip)
        button.clicked.connect(lambda _checked=False, act=action: act())
        buttons.addWidget(button)
    buttons.addStretch(1)
    layout = QVBoxLayout(page)
    layout.setContentsMargins(32, 32, 32, 32)
    layout.addStretch(1)
    layout.addWidget(label)
    layout.addSpacing(12)
    layout.addLayout(buttons)
    layout.addStretch(2)
    return page


class WindowMenus:
    """Builds File and Frames; owns the actions the shortcuts hang on."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window
        bar = window.menuBar()
        file_menu = bar.addMenu("&File")
        self._add(file_menu, "&New note…", "Ctrl+N", self.ask_new_note)
        self._add(file_menu, "&Open note…", "Ctrl+O", self.ask_open_note)
        self._add(file_menu, "&Quick open…", "Ctrl+P", self.quick_open)
        self._add(file_menu, "&Switch workspace…", "Ctrl+Shift+O", self.ask_workspace)
        file_menu.addSeparator()
        self._add(file_menu, "&Quit", "Ctrl+Q", window.close)
        self.frames_menu = bar.addMenu("F&rames")
        frames_menu = self.frames_menu
        self._add(frames_menu, "Focus the &assistant", "Ctrl+L", window.focus_assistant)
        self._add(frames_menu, "&Next frame", "F6", lambda: window.focus_next_frame(1))
        self._add(frames_menu, "&Previous frame", "Shift+F6", lambda: window.focus_next_frame(-1))
        self.focus_actions: list[QAction] = [
            self._add(
                frames_menu,
                f"Focus note frame &{number}",
                f"Ctrl+{number}",
                lambda _checked=False, n=number: window.focus_frame_number(n),
            )
            for number in range(1, MAX_FRAME_SHORTCUTS + 1)
        ]
        self._add(frames_menu, "Focus the &workspace browser", "Ctrl+Shift+E", self._focus_browser)
        self._add(frames_menu, "Add a &workspace browser", "", self._add_browser)
        frames_menu.addSeparator()
        self._add(frames_menu, "Move frame &up", "Ctrl+Shift+Up", lambda: self._move_active(-1))
        self._add(frames_menu, "Move frame &down", "Ctrl+Shift+Down", lambda: self._move_active(1))
        self._add(frames_menu, "&Close frame", "Ctrl+W", self._close_active)
        assistant_menu = bar.addMenu("&Assistant")
        self._add(assistant_menu, "Assistant &settings…", "", self.open_assistant_settings)
        self._add(
            assistant_menu, "&Clear conversation", "", lambda: window.assistant.clear_conversation()
        )
        frames_menu.aboutToShow.connect(self.name_frames)
        window.frames_changed.connect(self.name_frames)
        self.name_frames()

    def name_frames(self) -> None:
        """One "Focus PATH" entry per note frame, top to bottom; the unused ones hidden."""
        notes = self._window.note_frames_in_order()
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
        window = self._window
        session = window.session
        dialog = AssistantSettingsDialog(
            backend=session.backend,
            runner=session.runner,
            store=session.assistant_settings,
            current=window.assistant.assistant_info,
            parent=window,
        )
        dialog.applied.connect(window.assistants.show_assistant_info)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def ask_open_note(self) -> None:
        window = self._window
        path, accepted = QInputDialog.getText(window, "Open note", "Workspace path of the note:")
        if accepted and path.strip():
            try:
                window.open_note(path.strip())
            except ValueError as error:
                window.banners.show_message(str(error), tone="error")

    def ask_new_note(self) -> NoteCreation | None:
        window = self._window
        path, accepted = QInputDialog.getText(
            window,
            "New note",
            "Path of the new note, e.g. notes/ideas (a name without an extension gets .md):",
        )
        if accepted and path.strip():
            return create_note(window, path)
        return None

    def quick_open(self, frame_id: str | None = None) -> QuickOpenDialog:
        """Ctrl+P; the note chosen opens in a new frame (called ``frame_id`` when given)."""
        window = self._window
        known = [info for browser in window.browsers() for info in browser.documents]
        dialog = QuickOpenDialog(window.session.link, window.session.runner, known, window)
        open_dialog(dialog, lambda path: self._open_chosen(path, frame_id))
        return dialog

    def ask_workspace(self) -> WorkspacePickerDialog:
        window = self._window
        session = window.session
        dialog = WorkspacePickerDialog(session.backend, session.runner, session.workspace, window)

        def chosen(name: str) -> None:
            if name != session.workspace:  # the open workspace stays open as it is
                window.switch_workspace(name)

        open_dialog(dialog, chosen)
        return dialog

    def _open_chosen(self, path: str, frame_id: str | None = None) -> None:
        try:
            self._window.open_note(path, frame_id)
        except ValueError as error:
            self._window.banners.show_message(str(error), tone="error")

    # -- frames --------------------------------------------------------------------

    def _move_active(self, offset: int) -> None:
        window = self._window
        active = window.store.last_activated_frame
        if active is not None and active in window.frames:
            window.move_frame(active, offset)

    def _close_active(self) -> None:
        window = self._window
        active = window.store.last_activated_frame
        if active is not None and active in window.frames and active != ASSISTANT_FRAME_ID:
            window.close_frame(active)

    def _focus_browser(self) -> None:
        browsers = self._window.browsers()
        if browsers:
            self._window.focus_frame(browsers[0])

    def _add_browser(self) -> None:
        from app.main_window import BROWSER_FRAME_ID

        if BROWSER_FRAME_ID not in self._window.frames:
            self._window.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
