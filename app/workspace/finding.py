"""Finding notes and workspaces (R47): Quick open with a fuzzy filter, and the workspace picker.

Both dialogs are non-modal to the event loop (``open()``, never ``exec()``): their
listings arrive from worker threads, and the window keeps working meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bridge.errors import BackendError
from bridge.wire import DocumentEntry
from renderer.ambient.backend import BackendLink, WorkspaceLink
from renderer.qt.tasks import TaskRunner

QUICK_OPEN_LIMIT = 200
"""At most this many matches are listed; typing more narrows them."""


def fuzzy_score(query: str, candidate: str) -> tuple[int, int] | None:
    """How well ``query`` matches ``candidate`` as a subsequence (lower is better), or None.

    One pass over the candidate (linear in its size): the score counts the breaks
    between matched runs, then where the first match starts. Case is ignored.
    """
    wanted = query.casefold()
    if not wanted:
        return (0, 0)
    text = candidate.casefold()
    index = 0
    breaks = 0
    first = -1
    previous = -2
    for position, character in enumerate(text):
        if character != wanted[index]:
            continue
        if first < 0:
            first = position
        if position != previous + 1:
            breaks += 1
        previous = position
        index += 1
        if index == len(wanted):
            return (breaks, first)
    return None


def fuzzy_filter(query: str, candidates: Iterable[str], limit: int = QUICK_OPEN_LIMIT) -> list[str]:
    """The candidates ``query`` matches, best first (fewest breaks, earliest, shortest)."""
    scored: list[tuple[tuple[int, int], int, str]] = []
    for candidate in candidates:
        score = fuzzy_score(query, candidate)
        if score is not None:
            scored.append((score, len(candidate), candidate))
    scored.sort()
    return [candidate for _score, _length, candidate in scored[:limit]]


class _FilterLine(QLineEdit):
    """The filter: Up and Down move through the list below while typing goes on here."""

    moved = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up):
            self.moved.emit(1 if event.key() == Qt.Key.Key_Down else -1)
            return
        super().keyPressEvent(event)


class _PickerDialog(QDialog):
    """A filter line over a list; Enter accepts the highlighted entry (or the typed text)."""

    chosen = Signal(str)
    listed = Signal()

    def __init__(self, title: str, hint: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(420)
        self.filter = _FilterLine(self)
        self.filter.setPlaceholderText(hint)
        self.filter.setAccessibleName(hint)
        self.list = QListWidget(self)
        self.list.setAccessibleName(title)
        self.status = QLabel("Loading…", self)
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.status)
        self.entries: list[str] = []
        self.is_listed = False
        self.filter.textChanged.connect(lambda _text: self._show())
        self.filter.returnPressed.connect(self._accept_current)
        self.filter.moved.connect(self._move)
        self.list.itemActivated.connect(lambda item: self._choose(item.text()))

    def set_entries(self, entries: list[str], status: str) -> None:
        if not shiboken6.isValid(self):
            return  # closed (and deleted) before the listing came back: nothing to show
        self.entries = entries
        self.is_listed = True
        self.status.setText(status)
        self._show()
        self.listed.emit()

    def matches(self) -> list[str]:
        return fuzzy_filter(self.filter.text().strip(), self.entries)

    def _show(self) -> None:
        self.list.clear()
        for entry in self.matches():
            item = QListWidgetItem(entry)
            item.setToolTip(entry)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)

    def _move(self, step: int) -> None:
        if self.list.count():
            row = max(0, min(self.list.count() - 1, self.list.currentRow() + step))
            self.list.setCurrentRow(row)

    def _accept_current(self) -> None:
        item = self.list.currentItem()
        self._choose(item.text() if item is not None else self.typed())

    def typed(self) -> str:
        """What Enter takes when nothing in the list matches (overridden where allowed)."""
        return ""

    def _choose(self, entry: str) -> None:
        if not entry:
            return
        self.accept()
        self.chosen.emit(entry)


class QuickOpenDialog(_PickerDialog):
    """Ctrl+P: the workspace's notes, narrowed by a fuzzy subsequence filter; Enter opens."""

    def __init__(
        self,
        link: WorkspaceLink,
        runner: TaskRunner,
        known: list[DocumentEntry],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("Quick open", "Type part of a note's path", parent)
        if known:  # what the browser listed already shows at once; the fresh listing follows
            self.entries = [info.path for info in known]
            self._show()

        def fetch() -> list[DocumentEntry]:
            return link.call(lambda client, key: client.list_documents(key))

        runner.submit(
            fetch,
            on_done=lambda documents: self._listed(cast(list[DocumentEntry], documents)),
            on_error=self._failed,
        )

    def _listed(self, documents: list[DocumentEntry]) -> None:
        count = len(documents)
        self.set_entries(
            [info.path for info in documents],
            f"{count} note{'s' if count != 1 else ''} · Enter opens the highlighted one",
        )

    def _failed(self, error: BaseException) -> None:
        message = error.message if isinstance(error, BackendError) else "unexpected problem"
        self.set_entries(self.entries, f"The notes could not be listed: {message}")


NO_OTHER_WORKSPACES = "There are no other workspaces yet."


class WorkspacePickerDialog(_PickerDialog):
    """File ▸ Switch workspace: the backend's workspaces; a new name typed here is created."""

    def __init__(
        self, backend: BackendLink, runner: TaskRunner, current: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            "Switch workspace", "Workspace name (a new name creates an empty one)", parent
        )
        self._current = current
        runner.submit(
            lambda: backend.client().list_workspaces(),
            on_done=lambda names: self._listed(cast(list[str], names)),
            on_error=self._failed,
        )

    def typed(self) -> str:
        return self.filter.text().strip()

    def _accept_current(self) -> None:
        typed = self.typed()
        # An exact name typed wins over the highlighted fuzzy match: it may be a new one.
        if typed and (typed in self.entries or not self.matches()):
            self._choose(typed)
            return
        super()._accept_current()

    def _listed(self, names: list[str]) -> None:
        shown = [name for name in names if name != self._current]
        if not shown:  # an empty list alone looks broken
            self.set_entries(
                [], f"Open now: {self._current}. {NO_OTHER_WORKSPACES} Type a name to create one."
            )
            return
        self.set_entries(
            shown, f"Open now: {self._current}. Enter switches; a new name is created."
        )

    def _failed(self, error: BaseException) -> None:
        message = error.message if isinstance(error, BackendError) else "unexpected problem"
        self.set_entries([], f"The workspaces could not be listed ({message}); type a name.")


def open_dialog(dialog: _PickerDialog, on_chosen: Callable[[str], None]) -> _PickerDialog:
    """Show ``dialog`` without blocking; ``on_chosen`` runs with the entry picked."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.chosen.connect(on_chosen)
    dialog.open()
    dialog.filter.setFocus()
    return dialog
