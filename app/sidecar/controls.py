"""The sidecar in the window: the Assistant menu's toggle, and what the menu bar says while on."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu

from app.sidecar.sharing import MENU_TITLE, ActiveNoteSharing

OFF_TEXT: Final = ""
STARTING_TEXT: Final = "Starting to share the active note…"
ON_TEXT: Final = "Sharing the active note with other tools · {count}"


def connected_text(count: int) -> str:
    tools = (
        "no tool connected" if count == 0 else f"{count} tool{'s' if count > 1 else ''} connected"
    )
    return ON_TEXT.format(count=tools)


class SharingControls:
    """A checkable menu entry and a label in the menu bar's corner, kept in step."""

    def __init__(self, sharing: ActiveNoteSharing, menu: QMenu, window: QMainWindow) -> None:
        self._sharing = sharing
        menu.addSeparator()
        self.action = QAction(MENU_TITLE, window)
        self.action.setCheckable(True)
        self.action.toggled.connect(self._on_toggled)
        menu.addAction(self.action)
        self.label = QLabel(OFF_TEXT, window)
        self.label.setObjectName("sharingStatus")
        self.label.setContentsMargins(8, 0, 8, 0)
        window.menuBar().setCornerWidget(self.label, Qt.Corner.TopRightCorner)
        sharing.state_changed.connect(self.refresh)
        self.refresh()

    def _on_toggled(self, checked: bool) -> None:
        if checked != self._sharing.chosen:
            self._sharing.choose(checked)

    def refresh(self) -> None:
        sharing = self._sharing
        self.action.blockSignals(True)
        self.action.setChecked(sharing.chosen)
        self.action.blockSignals(False)
        server = sharing.server
        if sharing.is_on:
            self.label.setText(connected_text(sharing.connected))
        else:
            self.label.setText(STARTING_TEXT if sharing.chosen else OFF_TEXT)
        lines = [f"Tools connect to {server.url}"] if server is not None else []
        lines.extend(sharing.problems if sharing.is_on else [])  # R76: what is missing, and why
        self.label.setToolTip("\n".join(lines))
        self.label.setVisible(sharing.chosen)
