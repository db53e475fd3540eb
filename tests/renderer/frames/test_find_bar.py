"""R84, R67: the find bar counts in slices, keeps exact positions past emoji and slice seams,
and Replace all is one undo step, on a real editor driven by keys."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from renderer.frames import find_bar
from renderer.frames.find_bar import FindBar, TextWidgetTarget


def _editor_with_bar(qtbot: QtBot, text: str) -> tuple[QWidget, QPlainTextEdit, FindBar]:
    host = QWidget()
    qtbot.addWidget(host)
    editor = QPlainTextEdit(host)
    editor.setPlainText(text)
    target = TextWidgetTarget(editor)
    bar = FindBar(lambda: target, host)
    layout = QVBoxLayout(host)
    layout.addWidget(bar)
    layout.addWidget(editor)
    host.show()
    qtbot.waitExposed(host)
    return host, editor, bar


def test_a_long_note_is_counted_in_many_steps_with_every_match_across_the_seams(
    qtbot: QtBot,
) -> None:
    # Each line has an emoji (two UTF-16 units) before the word, so positions drift from
    # code points; the slices' seams fall inside words too.
    line = "😀 needle x Needle\n"
    text = line * 20_000
    _host, editor, bar = _editor_with_bar(qtbot, text)
    steps: list[int] = []
    bar.counter.progressed.connect(lambda: steps.append(bar.counter.count))
    bar.open()
    QTest.keyClicks(bar.find_field, "needle")
    qtbot.waitUntil(lambda: bar.counter.done, timeout=20_000)
    assert bar.counter.count == 40_000
    assert len(steps) > 1  # the GUI thread got the event loop back between slices
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    QTest.keyClick(bar.find_field, Qt.Key.Key_Return)  # wraps to the first
    assert editor.textCursor().selectedText() == "needle"
    QTest.keyClick(bar.find_field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert editor.textCursor().selectedText() == "Needle"  # wraps back to the last
    assert bar.count_label.text() == "40000 of 40000"


def test_replace_all_of_many_matches_is_one_undo_step(qtbot: QtBot) -> None:
    text = "ab😀 " * (find_bar.MANY_SPANS + 5)
    _host, editor, bar = _editor_with_bar(qtbot, text)
    bar.open(replace=True)
    QTest.keyClicks(bar.find_field, "b")  # after an emoji of two units, each time
    qtbot.waitUntil(lambda: bar.counter.done, timeout=20_000)
    bar.replace_field.setFocus()
    QTest.keyClicks(bar.replace_field, "c")
    QTest.keyClick(
        bar.replace_field,
        Qt.Key.Key_Return,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier,
    )
    assert editor.toPlainText() == "ac😀 " * (find_bar.MANY_SPANS + 5)
    editor.undo()
    assert editor.toPlainText() == text
