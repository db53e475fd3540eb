"""A turn that read nothing never says it read the note (R81): its tool line says what happened."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from renderer.ambient.turns import TurnRecord
from renderer.frames.assistant.turn_view import TurnView
from tests.app.conftest import AppFactory, AppUnderTest

TURN_TIMEOUT_MS = 15_000
READ_CLAIM = "read the open note"


def _send_typed(app: AppUnderTest, message: str) -> tuple[TurnRecord, TurnView]:
    """Type the message into the assistant's input and press Enter, as a person sends."""
    assistant = app.window.assistant
    QTest.mouseClick(assistant.input.viewport(), Qt.MouseButton.LeftButton)
    QTest.keyClicks(assistant.input, message)
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=TURN_TIMEOUT_MS) as blocker:
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)
    record = blocker.args[0]
    assert isinstance(record, TurnRecord)
    view = assistant.transcript_view.turns()[-1]
    assert isinstance(view, TurnView)
    return record, view


def test_a_turn_sent_with_leave_out_says_the_note_was_not_read_R81(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    QTest.mouseClick(app.window.assistant.exclude_toggle, Qt.MouseButton.LeftButton)
    record, view = _send_typed(app, "summarise this")
    assert record.dropped == "excluded"
    assert record.reply is not None
    assert [call.name for call in record.reply.tool_calls] == ["read_active_note"]
    shown = view.tools.text()
    assert "read_active_note — not read: left out" in shown
    assert READ_CLAIM not in shown


def test_a_turn_sent_with_no_note_open_says_no_note_was_open_R81(make_app: AppFactory) -> None:
    app = make_app()
    record, view = _send_typed(app, "summarise this")
    assert record.dropped == "no-inbox"
    shown = view.tools.text()
    assert "read_active_note — not read: no note open" in shown
    assert READ_CLAIM not in shown


def test_a_turn_that_read_the_note_still_says_so(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    _record, view = _send_typed(app, "summarise this")
    assert f"read_active_note — {READ_CLAIM}" in view.tools.text()
