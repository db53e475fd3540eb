"""The window's menus and shortcuts, built from the declarations, and the prompts behind them.

Every item comes from :data:`app.commands.actions.ACTIONS`; this class is the
:class:`~app.commands.actions.ActionHost` their handlers call. The Frames menu names the
real frames ("Focus inbox/today.md"), refreshed whenever frames come and go and
each time the menu opens.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QInputDialog,
    QMainWindow,
    QMenu,
)

from app.assistant.inline_menu import inbox_to_ask
from app.assistant.settings_dialog import AssistantSettingsDialog
from app.commands.actions import (
    ACTIONS,
    MAX_FRAME_SHORTCUTS,
    MENU_TITLES,
    MENUS,
    ActionDeclaration,
    EditCommand,
    MenuName,
)
from app.commands.help import about_dialog, assistant_help_dialog, open_help, shortcuts_dialog
from app.notes.note_commands import NoteCommands, NoteCreation
from app.session import AppSession
from app.window.banner import Banners
from app.window.frame_registry import FrameRegistry
from app.window.frames import WindowFrames
from app.workspace.finding import QuickOpenDialog, WorkspacePickerDialog, open_dialog
from app.workspace.folders import show_workspace_folder
from app.workspace.switch import BROWSER_FRAME_ID
from bridge.frames import ASSISTANT_FRAME_ID
from renderer.frames.assistant.frame import AssistantFrame
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.providers import WORKSPACE_PROVIDER


class WindowMenus:
    """The :class:`ActionHost`: builds the menus from :data:`app.commands.actions.ACTIONS`.

    ``actions`` holds each declared action's QAction by id: the shortcuts hang on them,
    and ``window.driver.trigger(id)`` triggers them as the menu item does.
    """

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
        self.menus: dict[MenuName, QMenu] = {
            name: window.menuBar().addMenu(MENU_TITLES[name]) for name in MENUS
        }
        self.actions: dict[str, QAction] = {}
        for declaration in ACTIONS:
            self.actions[declaration.id] = self._add(declaration)
        for menu in self.menus.values():
            menu.aboutToShow.connect(self.update_enabled)
        self.frames_menu = self.menus["Frames"]
        self.assistant_menu = self.menus["Assistant"]
        self.focus_actions: list[QAction] = [
            self.actions[f"frames.focus-{number}"] for number in range(1, MAX_FRAME_SHORTCUTS + 1)
        ]
        self.frames_menu.aboutToShow.connect(self.name_frames)
        registry.frames_changed.connect(self.name_frames)
        self.name_frames()

    def _add(self, declaration: ActionDeclaration) -> QAction:
        menu = self.menus[declaration.menu]
        if declaration.separator_before:
            menu.addSeparator()
        action = QAction(declaration.title, self._window)
        action.setObjectName(declaration.id)
        if declaration.shown_keys:
            # Bound by the widget that owns it; the menu only names it.
            action.setText(f"{declaration.title}\t{declaration.shown_keys}")
        else:
            action.setShortcuts(declaration.key_sequences())
        handler = declaration.handler
        enabled_when = declaration.enabled_when

        def run(_checked: bool = False) -> None:
            if enabled_when is None or enabled_when(self):
                handler(self)

        action.triggered.connect(run)
        menu.addAction(action)
        return action

    def trigger(self, action_id: str) -> None:
        """Do what the menu item ``action_id`` (or its shortcut) does."""
        self.actions[action_id].trigger()

    def update_enabled(self) -> None:
        """Grey out what cannot be done now (each declaration's ``enabled_when``)."""
        for declaration in ACTIONS:
            if declaration.enabled_when is not None:
                self.actions[declaration.id].setEnabled(declaration.enabled_when(self))

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

    # -- File ----------------------------------------------------------------------

    def show_workspace_folder(self) -> None:
        show_workspace_folder(self._session, self._banners)

    def save_now(self) -> None:
        """Ctrl+S: save every pending edit now (autosave goes on as before)."""
        self._session.autosave.flush()

    def quit(self) -> None:
        self._window.close()

    # -- Edit ----------------------------------------------------------------------

    def edit_focused(self, command: EditCommand) -> None:
        """Undo, Redo, Cut, Copy, Paste or Select all, on the widget with keyboard focus."""
        focused = QApplication.focusWidget()
        # Text widgets have all six; a list has selectAll; anything else does nothing.
        method = getattr(focused, command, None) if focused is not None else None
        if callable(method):
            method()

    def _find_frame(self) -> InboxFrame | AssistantFrame | None:
        """The conversation when the assistant has focus, else the note Ask AI is about."""
        focused = QApplication.focusWidget()
        assistant = self._frames.assistant
        if focused is not None and assistant.isAncestorOf(focused):
            return assistant
        return inbox_to_ask(self._registry)

    def has_note(self) -> bool:
        return self._find_frame() is not None

    def find(self, *, replace: bool) -> None:
        """Ctrl+F and Ctrl+H: the find bar of the focused note (or of the conversation)."""
        frame = self._find_frame()
        if frame is not None:
            frame.open_find(replace=replace)

    def find_again(self, step: int) -> None:
        """F3 and Shift+F3."""
        frame = self._find_frame()
        if frame is not None:
            frame.find_bar.find_next(step)

    def ask_ai(self) -> None:
        frame = inbox_to_ask(self._registry)
        if frame is not None:
            frame.ask_ai()

    # -- Frames --------------------------------------------------------------------

    def focus_assistant(self) -> None:
        self._frames.focus_assistant()

    def focus_next_frame(self, step: int) -> None:
        self._frames.focus_next_frame(step)

    def focus_frame_number(self, number: int) -> None:
        self._frames.focus_frame_number(number)

    # -- Assistant -----------------------------------------------------------------

    def clear_conversation(self) -> None:
        self._frames.assistant.ask_to_clear()

    # -- Help ----------------------------------------------------------------------

    def show_shortcuts(self) -> QDialog:
        return open_help(shortcuts_dialog(self._window))

    def show_assistant_help(self) -> QDialog:
        return open_help(assistant_help_dialog(self._window, self._session))

    def show_about(self) -> QDialog:
        return open_help(about_dialog(self._window, self._session))

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

    def move_active(self, offset: int) -> None:
        active = self._registry.active_frame_id
        if active is not None:
            self._frames.move_frame(active, offset)

    def can_close_active(self) -> bool:
        active = self._registry.active_frame_id
        return active is not None and active != ASSISTANT_FRAME_ID

    def close_active(self) -> None:
        active = self._registry.active_frame_id
        if active is not None and self.can_close_active():
            self._frames.close_frame(active)

    def focus_browser(self) -> None:
        browsers = self._registry.browsers()
        if browsers:
            self._frames.focus_frame(browsers[0])

    def add_browser(self) -> None:
        if BROWSER_FRAME_ID not in self._registry.frames:
            self._frames.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
