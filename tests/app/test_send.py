"""The send path through the window: live reads, the flush, exclusion, discards, errors (R9–R16)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from bridge.drops import describe_drop
from bridge.pointer import AmbientPointer, decode_header, fingerprint
from renderer.frames.assistant.turn_details import TurnDetails
from tests.app.conftest import AppFactory

CAVEAT_START = "The saved copy is behind"


def test_pointer_fingerprints_the_live_editor_and_the_flush_saves_it_R10_R11(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    frame.type_text(" typed", at="end")
    live = frame.editor.toPlainText()
    record = app.send()
    pointer = record.capture.pointer
    assert pointer is not None
    assert (pointer.bytes, pointer.sha256) == fingerprint(live)
    assert pointer.flushed is True
    # R10: the flush put the pending edit through the document API before the capture.
    assert app.saved_text("notes/a.md") == live
    assert record.caveats == []
    assert record.header_bytes == len(record.capture.header or "")
    # R8, R16: the header names the note; no line of its body travels in it.
    decoded = decode_header(record.capture.header or "")
    assert isinstance(decoded, AmbientPointer)
    wire = decoded.to_json()
    assert all(line not in wire for line in live.splitlines() if len(line) > 3)


def test_keystrokes_typed_during_the_flush_count_and_the_tool_warns_R11_R25(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    record = app.send_typing_during_flush(frame)
    pointer = record.capture.pointer
    assert pointer is not None
    assert (pointer.bytes, pointer.sha256) == fingerprint(frame.editor.toPlainText())
    assert app.saved_text("notes/a.md").endswith(" before")  # the flush took its snapshot first
    assert len(record.caveats) == 1 and record.caveats[0].startswith(CAVEAT_START)
    assert not assistant.transcript.findChildren(QLabel, "turnCaveat")[0].isHidden()


def test_selection_is_sent_in_utf16_code_units_R8(make_app: AppFactory) -> None:
    app = make_app({"notes/e.md": "😀ab\ncd"})
    frame = app.mount("inbox-1", "notes/e.md")
    frame.select(2, 4)  # after the emoji (two UTF-16 units) through "ab"
    assert frame.editor.textCursor().selectedText() == "ab"
    pointer = app.send().capture.pointer
    assert pointer is not None and pointer.selection is not None
    assert (pointer.selection.anchor, pointer.selection.head) == (2, 4)
    assert pointer.bytes == len("😀ab\ncd".encode())


def test_the_leave_out_toggle_excludes_one_send_then_resets(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    QTest.mouseClick(assistant.exclude_toggle, Qt.MouseButton.LeftButton)
    assert "left out of the next message" in assistant.chip.text()
    record = app.send()
    assert record.capture.header is None and record.dropped == "excluded"
    assert record.reply is not None and record.reply.ambient.status == "absent"
    assert not assistant.exclude_toggle.isChecked()
    assert app.send().capture.header is not None


def test_enter_sends_from_the_input_and_shift_enter_adds_a_line(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    QTest.keyClicks(assistant.input, "what is")
    QTest.keyClick(assistant.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClicks(assistant.input, "this")
    assert assistant.input.toPlainText() == "what is\nthis"
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=15_000) as blocker:
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)
    assert blocker.args[0].message == "what is\nthis"
    assert assistant.input.toPlainText() == ""


def test_a_note_change_during_the_flush_discards_the_capture_R13(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    frame.type_text("x")
    app.window.assistant.flush_started.connect(lambda: frame.open_path("notes/b.md"))
    record = app.send()
    assert record.capture.header is None
    assert record.dropped == "discarded"
    assert record.reply is not None and record.reply.ambient.status == "absent"
    notices = app.window.assistant.transcript.findChildren(QLabel, "turnNotice")
    assert [label.text() for label in notices] == [describe_drop("discarded")]
    assert not notices[0].isHidden()  # shown on the turn, not only in its details (R13)


def test_unreachable_backend_keeps_the_message_in_the_input(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.stop_backend()
    assistant = app.window.assistant
    QTest.keyClicks(assistant.input, "summarise this")
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=15_000) as blocker:
        QTest.mouseClick(assistant.send_button, Qt.MouseButton.LeftButton)
    record = blocker.args[0]
    assert record.reply is None
    assert record.error is not None and "can't be reached" in record.error
    assert "Traceback" not in record.error
    assert assistant.input.toPlainText() == "summarise this"
    assert not assistant.is_busy


def test_an_oversized_pointer_is_left_out_whole_and_the_turn_says_so_R15(
    make_app: AppFactory,
) -> None:
    long_path = "/".join(["d" * 200] * 8) + "/n.md"  # valid, but its pointer cannot fit
    app = make_app({long_path: "# Deep\n"})
    app.mount("inbox-1", long_path)
    record = app.send()
    assert record.capture.header is None and record.header_bytes == 0
    assert record.dropped == "oversize"
    assert record.capture.oversize_pointer is not None
    assert record.capture.oversize_pointer.path == long_path
    assert record.reply is not None and record.reply.ambient.status == "absent"
    notices = app.window.assistant.transcript.findChildren(QLabel, "turnNotice")
    assert notices[-1].text() == describe_drop("oversize")
    details = app.window.assistant.transcript.findChildren(TurnDetails)
    assert dict(details[-1].rows())["Not sent"] == f"{long_path} · edit · inbox-1"
