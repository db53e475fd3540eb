"""Turn details: a labelled table with Copy as JSON, Leave out said plainly, Markdown (R48)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from bridge.contract import FLUSH_LIMIT_SECONDS
from bridge.pointer import decode_header
from renderer.ambient.capture import CaptureResult
from renderer.ambient.kept_records import record_entry, restored_record
from renderer.ambient.turns import TurnRecord
from renderer.frames.assistant.turn_details import details_rows, record_json
from renderer.frames.assistant.turn_view import TurnView, markdown_html
from tests.app.conftest import AppFactory, AppUnderTest
from tests.support.answers import kept_reply, tool_call, turn_answer

NOTE = "# A\nalpha line\n- [ ] first task\n- [x] done task\n"  # 48 bytes
LEFT_OUT_LINE = "The note was left out of this message."


def _latest_view(app: AppUnderTest) -> TurnView:
    view = app.window.assistant.transcript.findChildren(TurnView)[-1]
    assert isinstance(view, TurnView)
    return view


def _plain(label: QLabel) -> str:
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


def test_leave_out_the_reply_and_the_details_say_the_note_was_left_out_R48(
    make_app: AppFactory,
) -> None:
    app = make_app({"notes/a.md": NOTE})
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    QTest.mouseClick(assistant.exclude_toggle, Qt.MouseButton.LeftButton)
    record = app.send("summarise this")
    assert record.dropped == "excluded" and record.reply is not None
    view = _latest_view(app)
    reply = _plain(view.reply)
    assert "No note is open" not in reply and "no note is open" not in reply.lower()
    assert "left the note out" in reply
    assert view.notice.isVisibleTo(view) and view.notice.text() == LEFT_OUT_LINE
    rows = dict(view.details.rows())
    assert rows["Note"] == "left out (you chose Leave out)"
    assert rows["Kept on the server"] == "nothing (the note was left out)"
    assert rows["Sent with the message"] == "nothing about a note"
    result = record.reply.tool_calls[0].result
    assert result["status"] == "no_active_note" and "left the open note out" in result["message"]


def test_the_details_are_a_labelled_table_in_plain_words_R48(make_app: AppFactory) -> None:
    app = make_app({"notes/a.md": NOTE})
    frame = app.mount("inbox-1", "notes/a.md")
    frame.select(4, 20)  # from "alpha line" into the first task: lines 2 to 3
    record = app.send("summarise this")
    view = _latest_view(app)
    view.details_button.setChecked(True)
    app.qtbot.waitUntil(lambda: view.details.isVisible())
    assert record.capture.header is not None
    sha = decode_header(record.capture.header).sha256  # type: ignore[union-attr]
    assert view.details.rows() == [
        ("Note", "notes/a.md"),
        ("View", "edit"),
        ("Frame", "inbox-1"),
        ("Selection (lines)", "lines 2–3"),
        ("Size", "48 bytes"),
        ("Check code", f"{sha}… (made from the text, to tell if it changed)"),
        ("Saved first", "yes"),
        (
            "Sent with the message",
            f"{record.header_bytes:,} bytes: which note, view and frame, the selection, the "
            "size and the check code",
        ),
        ("Kept on the server", "which note it was and where (not its text), for 15 minutes"),
        ("Tools called", "read_active_note: read notes/a.md (48 bytes)"),
        ("Warnings", "none"),
    ]
    shown = " ".join(value for _, value in view.details.rows())
    assert "—" not in shown and "0.00 s" not in shown and "{" not in shown  # no raw JSON
    # The project's own words stay in the copied JSON, out of the table (issue 38).
    table = view.details.text().lower()
    for internal in ("sha-256", "header", "pointer", "caveat", "backend", "fingerprint"):
        assert internal not in table
    copied = record_json(record)
    assert copied["pointer"]["sha256"] == sha and copied["headerBytes"] == record.header_bytes


def test_copy_as_json_puts_the_whole_record_on_the_clipboard_R48(make_app: AppFactory) -> None:
    app = make_app({"notes/a.md": NOTE})
    app.mount("inbox-1", "notes/a.md")
    record = app.send("summarise this")
    view = _latest_view(app)
    view.details_button.setChecked(True)
    clipboard = QApplication.clipboard()
    clipboard.clear()
    with app.qtbot.waitSignal(clipboard.dataChanged, timeout=5_000):
        QTest.mouseClick(view.details.copy_button, Qt.MouseButton.LeftButton)
    copied = json.loads(clipboard.text())
    assert copied == json.loads(json.dumps(record_json(record)))
    assert copied["pointer"]["path"] == "notes/a.md" and copied["header"] == record.capture.header
    assert record.reply is not None and copied["response"] == record.reply.as_json()
    (call,) = copied["response"]["toolCalls"]
    assert call["result"]["text"] == NOTE  # the whole tool result, not a preview


def test_a_save_still_running_at_the_bound_is_said_plainly_R12_R48(make_app: AppFactory) -> None:
    app = make_app({"notes/a.md": NOTE}, save_delay_seconds=2.5)
    frame = app.mount("inbox-1", "notes/a.md")
    frame.type_text(" unsaved edit")
    record = app.send("summarise this")
    assert record.flushed is False and record.flush_timed_out
    rows = dict(_latest_view(app).details.rows())
    assert rows["Saved first"] == f"no — still saving after {FLUSH_LIMIT_SECONDS:g} s"
    assert rows["Warnings"].startswith("the saved copy was behind your screen")


def test_a_listing_reply_renders_as_a_markdown_list(make_app: AppFactory) -> None:
    app = make_app({"notes/a.md": NOTE, "notes/b.md": "# B\n"})
    record = app.send("list my notes")
    assert record.reply is not None and "\n- notes/a.md" in record.reply.reply
    view = _latest_view(app)
    assert "<li" in view.reply.text()  # a list, not a line starting with "- "
    assert "- notes/a.md" not in _plain(view.reply)


def _markdown_turn(app: AppUnderTest, reply_text: str) -> TurnView:
    reply = turn_answer(reply_text)
    record = TurnRecord(
        message="explain",
        capture=CaptureResult(pointer=None, header=None, dropped="no-inbox"),
        reply=reply,
        error=None,
        flushed=None,
        conversation="c",
    )
    view = TurnView("explain", app.window.assistant.transcript)
    view.show_record(record)
    return view


def test_replies_render_emphasis_code_and_lists_but_no_raw_html_R48(
    make_app: AppFactory,
) -> None:
    app = make_app()
    view = _markdown_turn(
        app, "Two **open** tasks in *this* note:\n\n1. `call` the bank\n2. pay\n\n<b>raw</b>"
    )
    html = view.reply.text()
    assert "<strong>open</strong>" in html and "<em>this</em>" in html  # strong and emphasis
    assert "<code>call</code>" in html  # inline code
    assert "<ol" in html
    plain = _plain(view.reply)
    assert "**" not in plain and "`" not in plain
    assert "<b>raw</b>" in plain  # raw HTML in a reply is text, never markup
    view.deleteLater()


def test_rows_without_a_reply_say_the_message_did_not_go_through(make_app: AppFactory) -> None:
    app = make_app()
    view = TurnView("hello", app.window.assistant.transcript)
    view.show_record(
        TurnRecord(
            message="hello",
            capture=CaptureResult(pointer=None, header=None, dropped="no-inbox"),
            reply=None,
            error="The backend can't be reached.",
            flushed=None,
            conversation="c",
        )
    )
    rows = dict(view.details.rows())
    assert rows["Note"].startswith("none: No Inbox note is open")
    assert rows["Saved first"] == "nothing to save (no note went with the message)"
    assert rows["Kept on the server"] == "nothing: the message did not go through"
    assert "Tools called" not in rows
    view.deleteLater()


def test_a_tool_failure_reads_as_its_status_and_message() -> None:
    call = tool_call("read_document", {"path": "x.md"}, {"status": "not_found", "message": "No."})
    record = TurnRecord(
        message="read x.md",
        capture=CaptureResult(pointer=None, header=None, dropped="no-inbox"),
        reply=turn_answer("I couldn't.", [call]),
        error=None,
        flushed=None,
        conversation="c",
    )
    assert dict(details_rows(record))["Tools called"] == "read_document: not_found — No."


def test_a_selection_that_starts_at_a_heading_is_summarised_and_a_quoted_heading_keeps_the_replys_size_R38_R83(  # noqa: E501
    make_app: AppFactory,
) -> None:
    note = "# Today\n\n## Must do\n- [ ] Reply to Priya\n- [x] Book the dentist\n"
    app = make_app({"notes/today.md": note})
    frame = app.mount("inbox-1", "notes/today.md")
    start = note.index("## Must do")
    frame.select(start, note.index("dentist"))
    record = app.send("summarise this")
    assert record.reply is not None
    reply = record.reply.reply
    assert "> ## Must do" not in reply and "Headings: 1" in reply  # R83: summarised, not echoed
    # A reply that does quote a heading (a model's) is drawn at the reply's own size.
    view = _latest_view(app)
    view.reply.setText(markdown_html("> ## Must do\n> - [ ] Reply to Priya", view.reply.font()))
    assert "<h2" not in view.reply.text()
    document = QTextDocument()
    document.setHtml(view.reply.text())
    block = document.begin()
    while block.isValid() and block.text() != "Must do":
        block = block.next()
    assert block.isValid(), "the quoted heading is in the reply"
    heading = block.begin().fragment().charFormat()
    assert heading.fontWeight() >= 700  # still stands out: bold
    assert heading.font().pointSizeF() <= view.reply.font().pointSizeF() * 1.15


def test_a_search_shows_the_notes_it_found_in_details_now_and_after_a_restart_R56_R48(
    make_app: AppFactory,
) -> None:
    notes = {"notes/a.md": NOTE, "notes/b.md": "# B\nthe alpha team\n", "notes/c.md": "# C\n"}
    app = make_app(notes)
    record = app.send("which notes mention alpha?")
    assert record.reply is not None
    assert [call.name for call in record.reply.tool_calls] == ["search_documents"]
    view = _latest_view(app)
    found = "search_documents: found 2 notes: notes/a.md, notes/b.md"
    assert dict(view.details.rows())["Tools called"] == found
    # What the app keeps of the turn (R45) reads the same once restored: paths, never lines.
    entry = record_entry(record)
    assert entry is not None and "the alpha team" not in json.dumps(entry["toolCalls"])
    reply = kept_reply(record.reply.reply)
    restored = restored_record(entry, record.message, reply, record.conversation)
    assert dict(details_rows(restored))["Tools called"] == found


def test_a_search_that_found_many_notes_names_five_and_counts_the_rest_R56() -> None:
    matches = [{"path": f"n/{index}.md", "lines": []} for index in range(7)]
    calls = [
        tool_call("search_documents", {"query": "x"}, {"status": "ok", "matches": matches}),
        tool_call("search_documents", {"query": "y"}, {"status": "ok", "matches": []}),
    ]
    record = TurnRecord(
        message="which notes mention x?",
        capture=CaptureResult(pointer=None, header=None, dropped="no-inbox"),
        reply=turn_answer("Notes…", calls),
        error=None,
        flushed=None,
        conversation="c",
    )
    assert dict(details_rows(record))["Tools called"] == (
        "search_documents: found 7 notes: n/0.md, n/1.md, n/2.md, n/3.md, n/4.md and 2 more\n"
        "search_documents: found no note"
    )
