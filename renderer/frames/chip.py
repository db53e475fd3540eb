"""The context chip above the assistant's input: which note "this note" means right now.

The chip follows the store (R3) and carries the "Leave out" toggle, which
sends the next message without any note context and then resets.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from renderer.ambient.store import Resolution


def chip_text(resolution: Resolution | None) -> str:
    """What the context chip says "this note" is."""
    if resolution is None:
        return "No note open"
    return f"This note: {resolution.path} · {resolution.view} · {resolution.frame_id}"


class ContextChip(QWidget):
    """The chip and its "Leave out" toggle, in one row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._resolution: Resolution | None = None
        self.label = QLabel(chip_text(None), self)
        self.label.setObjectName("contextChip")
        self.label.setAccessibleName("Note the assistant will see")
        self.label.setToolTip(
            "The note “this note” means in your next message: its path, view and frame."
        )
        self.exclude_toggle = QToolButton(self)
        self.exclude_toggle.setObjectName("excludeToggle")
        self.exclude_toggle.setText("Leave out")
        self.exclude_toggle.setCheckable(True)
        self.exclude_toggle.setToolTip("Send the next message without any note context")
        self.exclude_toggle.setAccessibleName("Leave the note out of the next message")
        self.exclude_toggle.toggled.connect(lambda _on: self._update())
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 8, 2)
        row.addWidget(self.label, 1)
        row.addWidget(self.exclude_toggle)

    def show_resolution(self, resolution: Resolution | None) -> None:
        """Say which note a send would point at now."""
        self._resolution = resolution
        self._update()

    def take_exclusion(self) -> bool:
        """Whether the next send leaves the note out; the toggle resets for the send after."""
        excluded = self.exclude_toggle.isChecked()
        if excluded:
            self.exclude_toggle.setChecked(False)
        return excluded

    def _update(self) -> None:
        label = self.label
        excluded = self.exclude_toggle.isChecked()
        label.setProperty("excluded", excluded)
        label.setProperty("empty", self._resolution is None)
        text = chip_text(self._resolution)
        label.setText(text + (" — left out of the next message" if excluded else ""))
        label.setAccessibleDescription(label.text())
        label.style().unpolish(label)
        label.style().polish(label)
