"""R84: Find and Replace in a note's edit view, its preview and the conversation, by keyboard."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.app.conftest import AppFactory, AppUnderTest

NOTE = "# Fruit\napple pie\nAn Apple a day\npear\nAPPLE 😀 apple\n"


def _active(app: AppUnderTest) -> None:
    app.window.activateWindow()
    app.qtbot.waitUntil(lambda: app.window.isActiveWindow())


def _key(
    app: AppUnderTest, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """A key to whichever widget has the keyboard focus, as a person presses it."""
    focused = app.window.focusWidget()
    assert focused is not None
    QTest.keyClick(focused, key, modifier)


def test_ctrl_f_counts_f3_moves_and_esc_goes_back_to_the_note(make_app: AppFactory) -> None:
    app = make_app({"notes/fruit.md": NOTE})
    frame = app.mount("inbox-1", "notes/fruit.md")
    _active(app)
    frame.editor.setFocus()
    bar = frame.find_bar
    assert not bar.isVisible()
    _key(app, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: bar.find_field.hasFocus())
    QTest.keyClicks(bar.find_field, "apple")
    app.qtbot.waitUntil(lambda: bar.count_label.text() == "4 matches")
    QTest.keyClick(bar.find_field, Qt.Key.Key_Return)  # Enter: the next match
    assert frame.editor.textCursor().selectedText() == "apple"
    assert bar.count_label.text() == "1 of 4"
    _key(app, Qt.Key.Key_F3)
    assert frame.editor.textCursor().selectedText() == "Apple"
    assert bar.count_label.text() == "2 of 4"
    _key(app, Qt.Key.Key_F3)
    _key(app, Qt.Key.Key_F3)  # past the emoji: positions are the editor's own
    assert frame.editor.textCursor().selectedText() == "apple"
    assert bar.count_label.text() == "4 of 4"
    _key(app, Qt.Key.Key_F3)  # wraps round
    assert bar.count_label.text() == "1 of 4"
    _key(app, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)  # and back
    assert bar.count_label.text() == "4 of 4"
    QTest.keyClick(bar.find_field, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    assert frame.editor.hasFocus()
    assert frame.editor.textCursor().selectedText() == "apple"


def test_ctrl_h_replaces_one_then_all_as_one_undo_step(make_app: AppFactory) -> None:
    app = make_app({"notes/fruit.md": NOTE})
    frame = app.mount("inbox-1", "notes/fruit.md")
    _active(app)
    frame.editor.setFocus()
    bar = frame.find_bar
    _key(app, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: bar.find_field.hasFocus())
    assert bar.replace_field.isVisible()
    QTest.keyClicks(bar.find_field, "apple")
    QTest.keyClick(bar.find_field, Qt.Key.Key_Return)
    reached = []
    for _press in range(4):  # the order follows the bar: ↑, ↓, ✕, then the second row
        _key(app, Qt.Key.Key_Tab)
        reached.append(app.window.focusWidget())
    assert reached == [bar.previous_button, bar.next_button, bar.close_button, bar.replace_field]
    QTest.keyClicks(bar.replace_field, "plum")
    QTest.keyClick(bar.replace_field, Qt.Key.Key_Return)  # Enter: replace this one
    assert frame.read_text().startswith("# Fruit\nplum pie\n")
    app.qtbot.waitUntil(lambda: bar.count_label.text() == "1 of 3")
    QTest.keyClick(
        bar.replace_field,
        Qt.Key.Key_Return,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier,
    )
    assert frame.read_text() == "# Fruit\nplum pie\nAn plum a day\npear\nplum 😀 plum\n"
    assert bar.count_label.text() == "Replaced 3"
    QTest.keyClick(bar.find_field, Qt.Key.Key_Escape)
    _key(app, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one step: all three back
    assert frame.read_text() == "# Fruit\nplum pie\nAn Apple a day\npear\nAPPLE 😀 apple\n"
    app.qtbot.waitUntil(
        lambda: "APPLE 😀 apple" in app.saved_text("notes/fruit.md"), timeout=10_000
    )


def test_find_in_the_preview_finds_the_text_as_shown(make_app: AppFactory) -> None:
    app = make_app({"notes/fruit.md": "# Fruit\n\n**apple** pie and `apple` juice\n"})
    frame = app.mount("inbox-1", "notes/fruit.md", view="preview")
    app.qtbot.waitUntil(lambda: not frame.renders.busy and "pie" in frame.preview.toPlainText())
    _active(app)
    frame.preview.setFocus()
    _key(app, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = frame.find_bar
    app.qtbot.waitUntil(lambda: bar.find_field.hasFocus())
    assert not bar.replace_field.isVisible()  # the preview is read only
    QTest.keyClicks(bar.find_field, "apple")
    app.qtbot.waitUntil(lambda: bar.count_label.text() == "2 matches")
    QTest.keyClick(bar.find_field, Qt.Key.Key_Return)
    assert frame.preview.textCursor().selectedText() == "apple"
    assert frame.view == "preview"


def test_find_in_the_conversation(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.send("summarise this")
    _active(app)
    assistant = app.window.assistant
    assistant.input.setFocus()
    _key(app, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = assistant.find_bar
    app.qtbot.waitUntil(lambda: bar.find_field.hasFocus())
    QTest.keyClicks(bar.find_field, "summarise")
    app.qtbot.waitUntil(lambda: bar.counter.done and bar.counter.count >= 1)
    QTest.keyClick(bar.find_field, Qt.Key.Key_Return)
    turn = assistant.transcript_view.turns()[0]
    assert turn.message.selectedText().lower() == "summarise"  # type: ignore[attr-defined]
    _key(app, Qt.Key.Key_Tab)  # to ↑: Esc closes from any control of the bar
    _key(app, Qt.Key.Key_Escape)
    assert not bar.isVisible()
