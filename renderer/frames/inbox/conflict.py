"""The Inbox frame's bar for a note changed elsewhere: keep either text, losing neither (R53)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from bridge.errors import BackendError
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.recovery import RecoveryStore
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.tasks import TaskRunner

CONFLICT_MESSAGE = (
    "This note was changed elsewhere (another window, app or device) since it was opened, "
    "so your text was not saved over it. Keep which text? The other one is kept in this "
    "app's data folder, nothing is lost."
)
OTHER_COPY_LABEL = "changed elsewhere"
MINE_COPY_LABEL = "your version"


def kept_copy_path(path: str, label: str) -> str:
    """Where the text not chosen is kept: a sibling note named after ``path`` and ``label``."""
    folder, _, name = path.rpartition("/")
    stem, dot, suffix = name.rpartition(".")
    kept = f"{stem} ({label}).{suffix}" if dot and stem else f"{name} ({label})"
    return f"{folder}/{kept}" if folder else kept


MINE_KEPT_REASON = "The note was changed elsewhere, and the other text was kept in it."
OTHER_KEPT_REASON = "The note was changed elsewhere, and your text was saved over this one."


def keep_copy(recovery: RecoveryStore | None, workspace: str, path: str, text: str) -> None:
    """Keep the text not chosen, yours, as the kept text of a sibling note (R53)."""
    if recovery is not None:
        mine = kept_copy_path(path, MINE_COPY_LABEL)
        recovery.keep(workspace, mine, text, MINE_KEPT_REASON, 0)


def keep_saved_copy(link: WorkspaceLink, path: str, recovery: RecoveryStore | None) -> str:
    """On a worker: keep the note's saved text (the other one) as a sibling's; its ETag."""
    text, etag = link.call(lambda client, session: client.get_document_tagged(session, path))
    if recovery is not None:
        other = kept_copy_path(path, OTHER_COPY_LABEL)
        recovery.keep(link.workspace, other, text, OTHER_KEPT_REASON, 0)
    return etag


class ConflictedNote(Protocol):
    """The Inbox frame as the bar reads it, at the moment of a choice: its id, note and text."""

    @property
    def frame_id(self) -> str: ...

    @property
    def path(self) -> str: ...

    def read_text(self) -> str: ...


class ConflictBar(QWidget):
    """Says the note changed elsewhere, with "Keep mine" and "Keep the other"; hidden otherwise.

    The bar carries out the choice itself: the text not chosen is kept as a sibling
    note's kept text, then the chosen one is saved (mine) or loaded (the other).
    """

    def __init__(
        self,
        note: ConflictedNote,
        *,
        link: WorkspaceLink,
        autosave: AutosaveCoordinator,
        runner: TaskRunner,
        reload: Callable[[], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._note = note
        self._link = link
        self._autosave = autosave
        self._runner = runner
        self._reload = reload
        """Loads the note into the frame again (its saved text, the other one)."""
        self.setObjectName("frameConflict")
        self.label = QLabel(CONFLICT_MESSAGE, self)
        self.label.setWordWrap(True)
        self.mine_button = QPushButton("Keep mine", self)
        self.mine_button.setAccessibleName(f"Keep your text of {note.path}")
        self.mine_button.clicked.connect(self.keep_mine)
        self.other_button = QPushButton("Keep the other", self)
        self.other_button.setAccessibleName(f"Keep the text of {note.path} saved elsewhere")
        self.other_button.clicked.connect(self.keep_other)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.mine_button)
        layout.addWidget(self.other_button)
        self.setVisible(False)

    def show_conflict(self) -> None:
        """Show the bar with its first message: a failed try of an earlier conflict is over."""
        self.label.setText(CONFLICT_MESSAGE)
        self.setVisible(True)

    def keep_mine(self) -> None:
        """Save this text over the other one, which is kept as a sibling note's kept text."""
        link, path, frame_id = self._link, self._note.path, self._note.frame_id
        keep_other = partial(keep_saved_copy, link, path, self._autosave.recovery)

        def rebase(etag: object) -> None:
            self.setVisible(False)
            self._autosave.rebase(link.workspace, path, str(etag), frame_id)

        self._runner.submit(keep_other, on_done=rebase, on_error=self._show_keep_failed)

    def keep_other(self) -> None:
        """Load the other text into the editor; this one is kept as a sibling note's kept text."""
        note = self._note
        keep_copy(self._autosave.recovery, self._link.workspace, note.path, note.read_text())
        self._autosave.drop_pending(note.frame_id)
        self._reload()

    def _show_keep_failed(self, error: BaseException) -> None:
        message = error.message if isinstance(error, BackendError) else str(error)
        self.label.setText(f"The other text could not be read: {message} Try again.")
