"""Edit ▸ Ask AI about the selection… in every window with an editor (R68).

The menu item names Ctrl+I, the editor's own shortcut (each frame's editor has it,
so two windows never fight over one), and opens the inline prompt in the Inbox
frame it is about: the one with keyboard focus, else the last activated one, else
the only one.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QWidget

from app.window.frame_registry import FrameRegistry
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.inbox.inline_prompt import ACTION_TEXT, SHORTCUT


def add_edit_menu(
    window: QMainWindow, target: Callable[[], InboxFrame | None], before: QMenu | None = None
) -> QAction:
    """An Edit menu (before ``before``, when given) holding the inline command."""
    menu = QMenu("&Edit", window)
    bar = window.menuBar()
    if before is not None:
        bar.insertMenu(before.menuAction(), menu)
    else:
        bar.addMenu(menu)
    # The shortcut is shown, not bound here: the editor binds it while it has focus.
    action = QAction(f"{ACTION_TEXT}\t{SHORTCUT}", window)
    action.setObjectName("askAiAction")

    def ask() -> None:
        frame = target()
        if frame is not None:
            frame.ask_ai()

    action.triggered.connect(ask)
    menu.addAction(action)
    return action


def focused_inbox(frames: list[InboxFrame]) -> InboxFrame | None:
    """The Inbox frame holding keyboard focus, if any."""
    focused: QWidget | None = QApplication.focusWidget()
    for frame in frames:
        if focused is not None and (focused is frame or frame.isAncestorOf(focused)):
            return frame
    return None


def inbox_to_ask(registry: FrameRegistry) -> InboxFrame | None:
    """The frame Edit ▸ Ask AI is about in the main window."""
    frames = registry.inbox_frames()
    found = focused_inbox(frames)
    if found is not None:
        return found
    active = registry.active_frame_id
    for frame in frames:
        if frame.frame_id == active:
            return frame
    return frames[0] if len(frames) == 1 else None
