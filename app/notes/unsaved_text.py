"""Text that no file holds: its save failed and its safety copy failed too (R77).

A full disk fails both the note's save and the copy kept in ``unsaved-notes/``:
the typing is then only in an editor, or, for a note closed meanwhile, only in the
retry of its save. The person is told at once, with a dialog that offers to save
the text somewhere else (another disk), and quitting stops with the same dialog
while any such text is left: quitting would lose it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Final

from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.session import AppSession
from app.window.frame_registry import FrameRegistry

TITLE: Final = "Text not saved anywhere"
WHILE_RUNNING: Final = (
    "{paths} could not be saved, and no safety copy could be kept either ({reason}). "
    "Your text is only on screen. Save it somewhere else, on another disk, to keep it."
)
AT_QUIT: Final = (
    "{paths} could not be saved, and no safety copy could be kept either. Quitting now "
    "would lose that text. Save it somewhere else, on another disk, first."
)
SAVE_AS: Final = "Save as…"
KEEP_OPEN: Final = "Keep the app open"
QUIT_ANYWAY: Final = "Quit and lose it"
SAVE_AS_FAILED: Final = "{path} could not be written there: {reason} Choose another place."

ChoosePath = Callable[[QWidget, str], str | None]
"""(parent, suggested file name) → the chosen file, or None when the person cancelled."""
WriteText = Callable[[Path, str], None]


def choose_with_file_dialog(parent: QWidget, suggested: str) -> str | None:
    chosen, _filter = QFileDialog.getSaveFileName(parent, SAVE_AS, suggested)
    return chosen or None


def write_text(target: Path, text: str) -> None:
    target.write_text(text, encoding="utf-8")


class UnsavedTextDialog(QDialog):
    """Which notes no file holds, and a way to save each one elsewhere.

    Accepted once every note is saved somewhere (or the person chose to quit anyway),
    rejected when the person keeps the app open.
    """

    def __init__(
        self,
        notes: list[tuple[str, str]],
        text_of: Callable[[str, str], str | None],
        saved_elsewhere: Callable[[str, str], None],
        *,
        quitting: bool,
        reason: str = "",
        choose_path: ChoosePath = choose_with_file_dialog,
        write: WriteText = write_text,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        self.notes = list(notes)
        self._text_of = text_of
        self._saved_elsewhere = saved_elsewhere
        self.choose_path = choose_path
        self.write = write
        self.quit_anyway = False
        paths = ", ".join(path for _workspace, path in notes)
        template = AT_QUIT if quitting else WHILE_RUNNING
        self.message = QLabel(template.format(paths=paths, reason=reason.rstrip(".")), self)
        self.message.setWordWrap(True)
        self.problem = QLabel("", self)
        self.problem.setWordWrap(True)
        self.problem.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.problem)
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        titles = [SAVE_AS, KEEP_OPEN] + ([QUIT_ANYWAY] if quitting else [])
        for title in titles:
            button = QPushButton(title, self)
            button.setAccessibleName(title)
            buttons.addWidget(button)
            self.buttons[title] = button
        layout.addLayout(buttons)
        self.buttons[SAVE_AS].setDefault(True)
        self.buttons[SAVE_AS].clicked.connect(self.save_next)
        self.buttons[KEEP_OPEN].clicked.connect(self.reject)
        if quitting:
            self.buttons[QUIT_ANYWAY].clicked.connect(self._quit_anyway)

    def save_next(self) -> None:
        """Ask where to save the first note left, and write its text there."""
        while self.notes:
            workspace, path = self.notes[0]
            text = self._text_of(workspace, path)
            if text is None:  # saved or kept meanwhile: nothing is at risk any more
                self.notes.pop(0)
                continue
            chosen = self.choose_path(self, PurePosixPath(path).name)
            if chosen is None:
                return
            try:
                self.write(Path(chosen), text)
            except OSError as error:
                self.problem.setText(
                    SAVE_AS_FAILED.format(path=path, reason=error.strerror or error)
                )
                self.problem.setVisible(True)
                return
            self._saved_elsewhere(workspace, path)
            self.notes.pop(0)
            self.problem.setVisible(False)
        self.accept()

    def _quit_anyway(self) -> None:
        self.quit_anyway = True
        self.accept()


class UnsavedText:
    """The window's watch over text no file holds: the dialog now, and at quit."""

    def __init__(self, session: AppSession, registry: FrameRegistry, window: QWidget) -> None:
        self._session = session
        self._registry = registry
        self._window = window
        self.dialog: UnsavedTextDialog | None = None
        self.choose_path: ChoosePath = choose_with_file_dialog
        self.write: WriteText = write_text
        self._told: set[tuple[str, str]] = set()
        """Notes the dialog already named while running: a retry that fails again is quiet."""
        session.autosave.save_failed.connect(self._on_save_failed)
        session.autosave.state_changed.connect(self._on_save_state)

    def notes(self) -> list[tuple[str, str]]:
        """The notes whose text no file holds now, with a text still there to save."""
        return [
            key
            for key in self._session.recovery.unprotected_notes()
            if self.text_of(*key) is not None
        ]

    def text_of(self, workspace: str, path: str) -> str | None:
        """The newest text of that note: its editor's, else the failed save's."""
        recovery = self._session.recovery
        if not recovery.unprotected(workspace, path):
            return None
        if workspace == self._session.workspace:
            frames = self._registry.showing(path)
            if frames:
                return frames[0].read_text()
        return self._session.autosave.failed_text(workspace, path)

    def _on_save_state(self, workspace: str, path: str, state: str) -> None:
        if state == "saved":
            self._told.discard((workspace, path))

    def _on_save_failed(self, workspace: str, path: str, message: str) -> None:
        if not self._session.recovery.unprotected(workspace, path):
            return
        if (workspace, path) in self._told:
            return  # the person knows; the app keeps trying on its own
        self._told.add((workspace, path))
        if self.dialog is not None and self.dialog.isVisible():
            if (workspace, path) not in self.dialog.notes:
                self.dialog.notes.append((workspace, path))
            return
        self.dialog = self._dialog(self.notes(), quitting=False, reason=message)
        self.dialog.open()

    def stops_quit(self, quit_again: Callable[[], object]) -> bool:
        """At quit: True (and the dialog shows) while some text would be lost by quitting.

        ``quit_again`` runs once every such text is saved elsewhere, or the person
        chose to quit anyway.
        """
        if self.dialog is not None and self.dialog.quit_anyway:
            return False
        notes = self.notes()
        if not notes:
            return False
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.close()
        dialog = self.dialog = self._dialog(notes, quitting=True)
        dialog.accepted.connect(quit_again)
        dialog.open()
        return True

    def _dialog(
        self, notes: list[tuple[str, str]], *, quitting: bool, reason: str = ""
    ) -> UnsavedTextDialog:
        recovery = self._session.recovery
        return UnsavedTextDialog(
            notes,
            self.text_of,
            recovery.saved_elsewhere,
            quitting=quitting,
            reason=reason,
            choose_path=self.choose_path,
            write=self.write,
            parent=self._window,
        )
