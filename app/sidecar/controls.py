"""The sidecar in the window: the Assistant menu's toggle, and what the menu bar says while on.

The status never clips (R80): it says the whole sentence when the menu bar has room
for it, else a shorter form ("Sharing · 1 tool"), and its tooltip always says it all,
with where tools find the server (the discovery files).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QMenuBar

from app.sidecar import discovery
from app.sidecar.sharing import MENU_TITLE, ActiveNoteSharing

OFF_TEXT: Final = ""
STARTING_TEXT: Final = "Starting to share the active note…"
STARTING_SHORT: Final = "Starting to share…"
ON_TEXT: Final = "Sharing the active note with other tools · {count}"
ON_SHORT: Final = "Sharing · {count}"
ON_SHORTEST: Final = "Sharing"
EXPLAINED: Final = (
    "Sharing is on. A tool you connect (Claude Code, Gemini CLI or another MCP client) can "
    "now see which note you are looking at and what you selected (get_active_note), read "
    "that note's saved text (read_active_note) and list your notes; a change it suggests "
    "waits for your Accept. Only a tool given the access token can connect: the app writes "
    "it, readable by your user alone, to {file}. Turn sharing off in the Assistant menu."
)
"""Said once the person turns sharing on: what connected tools can read and what guards it."""
_GAP: Final = 16
"""Pixels kept free between the last menu and the status."""


def connected_text(count: int) -> str:
    tools = (
        "no tool connected" if count == 0 else f"{count} tool{'s' if count > 1 else ''} connected"
    )
    return ON_TEXT.format(count=tools)


def status_forms(on: bool, chosen: bool, count: int) -> list[str]:
    """What the status may say, longest first: the first that fits is shown."""
    if on:
        tools = "no tool" if count == 0 else f"{count} tool{'s' if count > 1 else ''}"
        return [connected_text(count), ON_SHORT.format(count=tools), ON_SHORTEST]
    return [STARTING_TEXT, STARTING_SHORT] if chosen else [OFF_TEXT]


class SharingControls(QObject):
    """A checkable menu entry and a label in the menu bar's corner, kept in step."""

    def __init__(
        self,
        sharing: ActiveNoteSharing,
        menu: QMenu,
        window: QMainWindow,
        tell: Callable[[str], object],
    ) -> None:
        """``tell`` shows a sentence to the person (a banner) when they turn sharing on."""
        super().__init__(window)
        self._sharing = sharing
        self._tell = tell
        self._explain = False
        self._forms: list[str] = [OFF_TEXT]
        menu.addSeparator()
        self.action = QAction(MENU_TITLE, window)
        self.action.setCheckable(True)
        self.action.toggled.connect(self._on_toggled)
        self.action.setToolTip(self.explanation())
        menu.setToolTipsVisible(True)
        menu.addAction(self.action)
        self._bar: QMenuBar = window.menuBar()
        self.label = QLabel(OFF_TEXT, window)
        self.label.setObjectName("sharingStatus")
        self.label.setContentsMargins(8, 0, 8, 0)
        self._bar.setCornerWidget(self.label, Qt.Corner.TopRightCorner)
        self._bar.installEventFilter(self)
        sharing.state_changed.connect(self.refresh)
        self.refresh()

    def explanation(self) -> str:
        return EXPLAINED.format(file=self._sharing.pointer_file)

    def _on_toggled(self, checked: bool) -> None:
        if checked != self._sharing.chosen:
            self._explain = checked  # said once it is on: a start that shares says nothing
            self._sharing.choose(checked)

    def refresh(self) -> None:
        sharing = self._sharing
        if sharing.is_on and self._explain:
            self._explain = False
            self._tell(self.explanation())
        self.action.blockSignals(True)
        self.action.setChecked(sharing.chosen)
        self.action.blockSignals(False)
        self._forms = status_forms(sharing.is_on, sharing.chosen, sharing.connected)
        self.label.setToolTip(self._tooltip() if sharing.chosen else "")
        self.label.setVisible(sharing.chosen)
        self._fit()

    def full_text(self) -> str:
        """The whole sentence, whichever form the menu bar has room for."""
        return self._forms[0]

    def _tooltip(self) -> str:
        sharing = self._sharing
        lines = [self._forms[0], self.explanation()]
        if sharing.server is not None:
            lines.append(f"Tools connect to {sharing.server.url}.")
        folder = os.path.join(str(discovery.companion_folder()), "gemini-ide-server-*.json")
        lines.append(f"They find it in {sharing.pointer_file} (Gemini CLI: {folder}).")
        lines.extend(sharing.problems if sharing.is_on else [])  # R76: what is missing, and why
        return "\n".join(lines)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._bar and event.type() == QEvent.Type.Resize:
            self._fit()
        return False

    def room(self) -> int:
        """Pixels the status may take: the menu bar right of its last menu."""
        menus = [self._bar.actionGeometry(action) for action in self._bar.actions()]
        right = max((geometry.right() for geometry in menus), default=0)
        return max(0, self._bar.width() - right - _GAP)

    def _fit(self) -> None:
        label = self.label
        margins = label.contentsMargins()
        extra = margins.left() + margins.right() + 4
        metrics, room = label.fontMetrics(), self.room()
        text = next(
            (form for form in self._forms if metrics.horizontalAdvance(form) + extra <= room),
            self._forms[-1],
        )
        if text == label.text():
            return
        label.setText(text)
        # The menu bar sizes its corner widget only when the widget is set: set it again,
        # or a longer text is cut to the width of the one before.
        self._bar.setCornerWidget(label, Qt.Corner.TopRightCorner)
        label.setVisible(self._sharing.chosen)
