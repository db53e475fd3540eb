"""R84: the actions declared once; the Edit and Help menus, Ctrl+S, the README's shortcut table."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QTableWidget, QTextBrowser

from app.commands.actions import ACTIONS, shortcut_rows, with_shortcut_table
from tests.app.conftest import AppFactory, AppUnderTest

README = Path(__file__).resolve().parents[2] / "README.md"


def _active(app: AppUnderTest) -> None:
    app.window.activateWindow()
    app.qtbot.waitUntil(lambda: app.window.isActiveWindow())


def _menu_titles(app: AppUnderTest) -> list[str]:
    return [action.text() for action in app.window.menuBar().actions()]


def test_every_declared_action_is_one_menu_item_with_its_keys(make_app: AppFactory) -> None:
    app = make_app()
    menus = app.window.menus
    assert _menu_titles(app) == ["&File", "&Edit", "F&rames", "&Assistant", "&Help"]
    for declaration in ACTIONS:
        action = menus.actions[declaration.id]
        assert action.objectName() == declaration.id
        menu = menus.menus[declaration.menu]
        assert action in menu.actions(), declaration.id
        if not declaration.shown_keys:
            assert action.shortcuts() == declaration.key_sequences(), declaration.id
    edit = [action.text() for action in menus.menus["Edit"].actions() if action.text()]
    assert edit[:6] == ["&Undo", "&Redo", "Cu&t", "&Copy", "&Paste", "Select &all"]
    assert menus.actions["edit.undo"].shortcuts() == QKeySequence.keyBindings(
        QKeySequence.StandardKey.Undo
    )


def test_the_readme_lists_the_shortcuts_help_shows(make_app: AppFactory) -> None:
    app = make_app()
    text = README.read_text(encoding="utf-8")
    assert with_shortcut_table(text) == text, (
        "run: QT_QPA_PLATFORM=offscreen python -m app.commands.actions README.md"
    )
    _active(app)
    QTest.keyClick(app.window, Qt.Key.Key_F1)
    dialog = app.qtbot.waitUntil(lambda: _open_dialog("Keyboard shortcuts") is not None) or (
        _open_dialog("Keyboard shortcuts")
    )
    assert isinstance(dialog, QDialog)
    table = dialog.findChild(QTableWidget, "shortcutTable")
    assert table is not None
    shown = [
        tuple(table.item(row, column).text() for column in range(3))
        for row in range(table.rowCount())
    ]
    assert shown == shortcut_rows()
    for row in shown:
        assert f"| {row[0]} | {row[1]} | {row[2]} |" in text
    assert ("File menu", "Ctrl+S", "Save now") in shown
    assert ("Edit menu", "Ctrl+F", "Find") in shown
    dialog.close()


def _open_dialog(title: str) -> QDialog | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible() and widget.windowTitle() == title:
            return widget
    return None


def test_ctrl_s_saves_at_once_without_waiting_for_autosave(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    autosave = app.session.autosave
    _active(app)
    frame.editor.setFocus()
    frame.editor.moveCursor(frame.editor.textCursor().MoveOperation.End)
    QTest.keyClicks(frame.editor, "saved by hand")
    assert autosave.is_dirty("inbox-1")  # autosave waits for a pause in the typing
    QTest.keyClick(frame.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not autosave.is_dirty("inbox-1")  # queued now, not after the pause
    assert autosave.pending_for(app.session.workspace, "notes/a.md")
    app.qtbot.waitUntil(lambda: "saved by hand" in app.saved_text("notes/a.md"), timeout=10_000)


def test_edit_menu_commands_act_on_the_focused_widget(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    _active(app)
    message = app.window.assistant.input
    message.setFocus()
    QTest.keyClicks(message, "typed by hand")
    app.window.menus.trigger("edit.select-all")
    app.window.menus.trigger("edit.cut")
    assert message.toPlainText() == ""
    frame.editor.setFocus()
    frame.editor.moveCursor(frame.editor.textCursor().MoveOperation.End)
    app.window.menus.trigger("edit.paste")
    assert frame.read_text().endswith("typed by hand")
    app.window.menus.trigger("edit.undo")
    assert not frame.read_text().endswith("typed by hand")
    app.window.menus.trigger("edit.redo")
    assert frame.read_text().endswith("typed by hand")


def test_help_says_what_the_assistant_understands_and_about_names_the_folders(
    make_app: AppFactory,
) -> None:
    app = make_app()
    _active(app)
    app.window.menus.trigger("help.assistant")
    app.qtbot.waitUntil(lambda: _open_dialog("What the assistant understands") is not None)
    dialog = _open_dialog("What the assistant understands")
    assert dialog is not None
    browser = dialog.findChild(QTextBrowser, "assistantHelp")
    assert browser is not None
    # Filled once the backend answers, off the GUI thread (the app imports no assistant).
    app.qtbot.waitUntil(lambda: "list my notes" in browser.toPlainText())
    assert "summarise this" in browser.toPlainText()
    dialog.close()
    app.window.menus.trigger("help.about")
    app.qtbot.waitUntil(lambda: _open_dialog("About Ambient Notes") is not None)
    about = _open_dialog("About Ambient Notes")
    assert about is not None
    label = about.findChild(QLabel, "aboutText")
    assert label is not None
    assert str(app.data_dir) in label.text()
    assert str(app.workspace_dir) in label.text()
    assert "Ambient Notes 0." in label.text()
    about.close()
