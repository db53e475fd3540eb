"""The window comes up over a real backend and a turn goes through end to end (R1, R9)."""

from __future__ import annotations

from tests.app.conftest import AppFactory


def test_one_turn_carries_the_pointer_of_the_only_note_R3_R9(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    assert frame.editor.toPlainText().startswith("# A")
    record = app.send()
    assert record.error is None
    assert record.capture.pointer is not None
    assert record.capture.pointer.path == "notes/a.md"
    assert record.capture.pointer.frameId == "inbox-1"
    assert record.flushed is True
    assert record.reply is not None
    assert [call.name for call in record.reply.tool_calls] == ["read_active_note"]
