"""R85 and R84: the keyboard leaves the assistant's input, every control is named for a screen
reader, an answer is announced at its start and end (never per token), many notes fold."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from tests.app.conftest import AppFactory, AppUnderTest

CONTROLS = (QAbstractButton, QLineEdit, QPlainTextEdit, QTextEdit)
ROLES = {
    QAccessible.Role.Button,
    QAccessible.Role.CheckBox,
    QAccessible.Role.EditableText,
    QAccessible.Role.StaticText,
    QAccessible.Role.ButtonMenu,
    QAccessible.Role.ButtonDropDown,
    QAccessible.Role.RadioButton,
}


def _active(app: AppUnderTest) -> None:
    app.window.activateWindow()
    app.qtbot.waitUntil(lambda: app.window.isActiveWindow())


def test_tab_and_shift_tab_leave_the_assistants_input_and_enter_still_sends(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    _active(app)
    assistant = app.window.assistant
    QTest.keyClick(app.window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: assistant.input.hasFocus())
    QTest.keyClicks(assistant.input, "hello")
    QTest.keyClick(assistant.input, Qt.Key.Key_Tab)
    assert assistant.input.toPlainText() == "hello"  # no tab character typed
    assert not assistant.input.hasFocus()
    assert app.window.focusWidget() is assistant.send_button
    QTest.keyClick(assistant.send_button, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert assistant.input.hasFocus()
    QTest.keyClick(assistant.input, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert app.window.focusWidget() is assistant.exclude_toggle  # the order follows the window
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=15_000):
        assistant.input.setFocus()
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)


def test_every_control_has_an_accessible_name_and_role(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    app.send("tick off the first task")
    frame.open_find(replace=True)
    unnamed: list[str] = []
    for widget in app.window.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisibleTo(app.window):
            continue
        interface = QAccessible.queryAccessibleInterface(widget)
        assert interface is not None
        if not interface.text(QAccessible.Text.Name).strip():
            unnamed.append(f"{type(widget).__name__} {widget.objectName()!r}")
        assert interface.role() in ROLES | {QAccessible.Role.Client}, widget
    assert unnamed == []


def test_the_chip_describes_the_input(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    app.qtbot.waitUntil(lambda: "notes/a.md" in assistant.chip.text())
    interface = QAccessible.queryAccessibleInterface(assistant.input)
    description = interface.text(QAccessible.Text.Description)
    assert "notes/a.md" in description
    assert description == assistant.chip.accessibleDescription()


def test_an_answer_is_announced_when_it_starts_and_ends_never_per_token(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    said: list[str] = []
    assistant.announcer.announced.connect(said.append)
    _active(app)
    assistant.input.setFocus()
    QTest.keyClicks(assistant.input, "tick off the first task")
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=15_000) as blocker:
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)
        assert said == ["Answering…"]
    record = blocker.args[0]
    reply = record.reply.reply
    assert len(said) == 3, said  # start, end, and the proposal's buttons
    assert said[1] and said[1] in " ".join(reply.replace("*", "").split())
    assert "Apply or Discard" in said[2]


def test_with_six_notes_open_the_active_one_shows_twenty_lines(make_app: AppFactory) -> None:
    notes = {f"notes/n{number}.md": "line\n" * 60 for number in range(1, 7)}
    app = make_app(notes)
    frames = [app.mount(f"inbox-{number}", f"notes/n{number}.md") for number in range(1, 7)]
    _active(app)
    QTest.keyClick(app.window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: frames[2].editor.hasFocus())
    line_height = QFontMetrics(frames[2].editor.font()).lineSpacing()
    app.qtbot.waitUntil(lambda: frames[2].editor.viewport().height() >= 20 * line_height)
    assert [frame.folded for frame in frames] == [True, True, False, True, True, True]
    QTest.keyClick(frames[2].editor, Qt.Key.Key_F6)  # the next frame opens, this one folds
    app.qtbot.waitUntil(lambda: frames[3].editor.hasFocus())
    assert frames[2].folded and not frames[3].folded
    app.qtbot.waitUntil(lambda: frames[3].editor.viewport().height() >= 20 * line_height)
