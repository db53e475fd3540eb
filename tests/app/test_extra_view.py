"""A view added as its entry and its own module reaches every place a view shows (issue 39).

This module is such a view, "words" (the note's word count): registered here and
nowhere else, it must show up in the frame's view buttons, answer its key, be named
in Help, be accepted by scenario steps, and travel in the pointer the backend stores.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QTableWidget, QWidget

import bridge.views
import renderer.frames.inbox.view_kinds
from app.scenario.model import load_scenario
from app.scenario.runner import run_scenario
from bridge.pointer import AmbientPointer, decode_header
from bridge.views import EDIT, view_names
from renderer.frames.inbox.view_kinds import ViewKind, register_view
from tests.app.conftest import AppFactory
from tests.scenario.test_runner import scenario_file

WORDS = "words"
HELP = "Keyboard shortcuts"


def count_words(text: str) -> int:
    """The view's reading: Qt-free, by name, as the reading process needs."""
    return len(text.split())


class WordCount(QLabel):
    """The view's page."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__("", parent)
        self.setObjectName("wordCount")

    def draw(self, count: int) -> Iterator[None]:
        self.setText(f"{count} words")
        yield


WORDS_VIEW = ViewKind[WordCount](
    bridge.views.View(WORDS),
    "Words",
    lambda body, _path: WordCount(body),
    read=count_words,
    draw=WordCount.draw,
)


@pytest.fixture
def words_view(monkeypatch: pytest.MonkeyPatch) -> ViewKind[WordCount]:
    """The view registered for one test; the registries are as they were after it."""
    monkeypatch.setattr(bridge.views, "_names", list(view_names()))
    monkeypatch.setattr(
        renderer.frames.inbox.view_kinds,
        "_kinds",
        {kind.name: kind for kind in renderer.frames.inbox.view_kinds.view_kinds()},
    )
    return register_view(WORDS_VIEW)


def _shortcut_dialog() -> QDialog | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible() and widget.windowTitle() == HELP:
            return widget
    return None


def test_a_registered_view_has_its_button_key_help_row_and_pointer(
    make_app: AppFactory, words_view: ViewKind[WordCount]
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    window = app.window
    window.activateWindow()
    app.qtbot.waitUntil(window.isActiveWindow)

    # The title bar's view buttons: the fifth, after Map, named with its key.
    button = frame.view_buttons[words_view.name]
    assert list(frame.view_buttons)[-1] == WORDS
    assert button.text() == "Words" and "(Alt+5)" in button.toolTip()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert frame.view == WORDS
    page = frame.findChild(WordCount, "wordCount")
    assert page is not None
    app.qtbot.waitUntil(lambda: page.text() == f"{count_words(frame.editor.toPlainText())} words")
    assert frame.focus_target() is page

    # Its key, pressed in the editor as a person does.
    QTest.mouseClick(frame.view_buttons[EDIT], Qt.MouseButton.LeftButton)
    frame.editor.setFocus()
    app.qtbot.waitUntil(frame.editor.hasFocus)
    QTest.keyClick(frame.editor, Qt.Key.Key_5, Qt.KeyboardModifier.AltModifier)
    assert frame.view == WORDS
    assert window.assistant.chip.text() == f"This note: notes/a.md · {WORDS} · inbox-1"

    # The pointer names it, and the backend takes and stores it.
    record = app.send()
    decoded = decode_header(record.capture.header or "")
    assert isinstance(decoded, AmbientPointer) and decoded.view == WORDS
    assert record.reply is not None and record.reply.ambient.status == "stored"

    # Help ▸ Keyboard shortcuts names the keys and the view.
    QTest.keyClick(window, Qt.Key.Key_F1)
    app.qtbot.waitUntil(lambda: _shortcut_dialog() is not None)
    dialog = _shortcut_dialog()
    assert dialog is not None
    table = dialog.findChild(QTableWidget, "shortcutTable")
    assert table is not None
    rows = [
        tuple(table.item(row, column).text() for column in range(3))
        for row in range(table.rowCount())
    ]
    assert ("Note", "Alt+1…5", "Show the note as edit, preview, todo, map or words") in rows
    dialog.close()


def test_a_registered_view_is_a_scenario_step_and_stored_with_the_send(
    qapp: QApplication, tmp_path: Path, words_view: ViewKind[WordCount]
) -> None:
    steps = """
        - mount: {frame: inbox-1, path: notes/a.md, view: words}
        - send: summarise this
        - expect: {pointer: {view: words, selection: null}, stored: {ambient_view: words}}
        - view: {frame: inbox-1, view: edit}
        - view: {frame: inbox-1, view: words}
        - send: summarise this
        - expect: {pointer: {view: words}}
        """
    result = run_scenario(load_scenario(scenario_file(tmp_path, steps)))
    problems = [step.failure_text() for step in result.steps if step.status != "passed"]
    assert not problems, problems
