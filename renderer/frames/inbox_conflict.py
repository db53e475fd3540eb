"""The Inbox frame's bar for a note changed elsewhere: keep either text, losing neither (R53)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from renderer.qt.backend import WorkspaceLink
from renderer.qt.recovery import RecoveryStore

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


class ConflictBar(QWidget):
    """Says the note changed elsewhere, with "Keep mine" and "Keep the other"; hidden otherwise."""

    def __init__(
        self,
        path: str,
        keep_mine: Callable[[], None],
        keep_other: Callable[[], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("frameConflict")
        self.label = QLabel(CONFLICT_MESSAGE, self)
        self.label.setWordWrap(True)
        self.mine_button = QPushButton("Keep mine", self)
        self.mine_button.setAccessibleName(f"Keep your text of {path}")
        self.mine_button.clicked.connect(keep_mine)
        self.other_button = QPushButton("Keep the other", self)
        self.other_button.setAccessibleName(f"Keep the text of {path} saved elsewhere")
        self.other_button.clicked.connect(keep_other)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.mine_button)
        layout.addWidget(self.other_button)
        self.setVisible(False)
