"""The Help menu's windows: the keyboard shortcuts, what the assistant understands, About (R84).

The shortcut list is :func:`app.commands.actions.shortcut_rows`, the same rows the README's
table is generated from. What the assistant understands is the offline
assistant's own list of what it can do, with its examples, from its message
catalogue in the person's language (English when the catalogue has none): the
backend says it (``GET /v1/assistant/abilities``), asked on a worker thread, so the
app never imports the backend's assistant and a remote backend's list is its own.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from app.commands.actions import shortcut_rows
from app.session import AppSession
from bridge.errors import BackendError
from bridge.wire import AssistantAbilities

PACKAGE: Final = "ambient-notes"
SHORTCUT_COLUMNS: Final = ("Where", "Keys", "What it does")


def _dialog(title: str, parent: QWidget, content: QWidget) -> QDialog:
    dialog = QDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setAccessibleName(title)
    layout = QVBoxLayout(dialog)
    content.setParent(dialog)
    layout.addWidget(content, 1)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    dialog.resize(640, 520)
    return dialog


def open_help(dialog: QDialog) -> QDialog:
    """Show a Help window without blocking the event loop; it is deleted once closed."""
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def shortcuts_dialog(parent: QWidget) -> QDialog:
    """Help ▸ Keyboard shortcuts: every key the app binds, from the declarations."""
    rows = shortcut_rows()
    table = QTableWidget(len(rows), len(SHORTCUT_COLUMNS))
    table.setObjectName("shortcutTable")
    table.setAccessibleName("Keyboard shortcuts")
    table.setHorizontalHeaderLabels(list(SHORTCUT_COLUMNS))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    for row, cells in enumerate(rows):
        for column, text in enumerate(cells):
            table.setItem(row, column, QTableWidgetItem(text))
    return _dialog("Keyboard shortcuts", parent, table)


def person_language() -> str:
    """The two-letter language of the person's locale ("ja", "fr"...)."""
    return QLocale.system().name().split("_")[0].lower()


ASKING: Final = "Asking the assistant what it understands…"
UNANSWERED: Final = "The assistant's list could not be read: {reason}"


def assistant_help_dialog(
    parent: QWidget, session: AppSession, language: str | None = None
) -> QDialog:
    """Help ▸ What the assistant understands: shown at once, filled when the backend says."""
    text = QTextBrowser()
    text.setObjectName("assistantHelp")
    text.setAccessibleName("What the assistant understands")
    text.setOpenLinks(False)
    text.setPlainText(ASKING)
    dialog = _dialog("What the assistant understands", parent, text)
    asked = language or person_language()

    def answered(abilities: object) -> None:
        # The window may have closed meanwhile: then nothing is left to fill.
        if isValid(text) and isinstance(abilities, AssistantAbilities):
            text.setMarkdown(abilities.text)

    def failed(error: BaseException) -> None:
        if isValid(text):
            reason = error.message if isinstance(error, BackendError) else str(error)
            text.setPlainText(UNANSWERED.format(reason=reason))

    session.runner.submit(
        lambda: session.backend.client().assistant_abilities(asked), answered, failed
    )
    return dialog


def app_version() -> str:
    # Imported here: importlib.metadata is not needed before About opens (start-up, issue 33).
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PACKAGE)
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def about_text(session: AppSession) -> str:
    """Version, data folder and workspace folder, as About says them."""
    folder = session.workspace_folder()
    where = (
        str(folder)
        if folder is not None
        else f"kept by the backend at {session.backend_url}, not on this machine"
    )
    return (
        f"Ambient Notes {app_version()}\n\n"
        f"Data folder: {session.data_dir}\n"
        f"Workspace folder: {where}"
    )


def about_dialog(parent: QWidget, session: AppSession) -> QDialog:
    """Help ▸ About Ambient Notes."""
    label = QLabel(about_text(session))
    label.setObjectName("aboutText")
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(
        Qt.TextInteractionFlag.TextSelectableByMouse
        | Qt.TextInteractionFlag.TextSelectableByKeyboard
    )
    label.setWordWrap(True)
    label.setAccessibleName("About Ambient Notes")
    dialog = _dialog("About Ambient Notes", parent, label)
    dialog.resize(560, 200)
    return dialog
