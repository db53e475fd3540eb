"""The Inbox frame's bar for a note changed elsewhere: keep either text, losing neither (R53)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

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
