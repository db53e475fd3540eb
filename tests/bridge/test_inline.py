"""Contract 13: the inline request and answer as both realms read them (R69, R70)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bridge.client import BackendClient, WireKeySession
from bridge.errors import NotFound
from bridge.inline import InlineRequest
from bridge.wire import InlineAnswer, InlineAssistant, InlineRecord
from tests.support.scripted_model import scripted_model


def test_r69_sent_text_names_lines_path_and_bytes_as_the_rule_writes_it() -> None:
    request = InlineRequest("tick", "notes/a.md", "", "é\n" * 28 + "x" * 1846, "", (12, 40))
    assert request.bytes == 1930  # "é" is 2 bytes, each line break 1
    assert request.sent_text() == "Sent lines 12–40 of notes/a.md (1,930 bytes)"
    one = InlineRequest("tick", "a.md", "", "x", "", (3, 3))
    assert one.sent_text() == "Sent line 3 of a.md (1 byte)"
    assert request.to_json()["lines"] == [12, 40]


def test_r69_sent_text_tells_the_selected_lines_from_the_lines_around_them() -> None:
    """Issue 38: "Sent lines 1–25" read as if the whole top of the note was the selection."""
    before = "".join(f"line {n}\n" for n in range(1, 21))
    selection = "".join(f"line {n}\n" for n in range(21, 26))
    request = InlineRequest("tick", "notes/a.md", before, selection, "", (1, 25))
    size = len(before + selection)
    assert request.sent_text() == (
        f"Sent lines 21–25 (with 20 lines around them) of notes/a.md ({size} bytes)"
    )
    one = InlineRequest("tick", "a.md", "a\n", "b", "\nc", (1, 3))
    assert one.sent_text() == "Sent line 2 (with 2 lines around it) of a.md (5 bytes)"
    cursor = InlineRequest("tick", "a.md", "a\n", "", "b", (1, 2))
    assert cursor.sent_text() == "Sent lines 1–2 around the cursor of a.md (3 bytes)"


def test_r70_an_answer_reads_back_what_the_route_writes() -> None:
    assistant = InlineAssistant(kind="offline", name="offline")
    answer = InlineAnswer(
        id="i1", replacement="- [ ] a", summary="Made a task list", kind="edit", assistant=assistant
    )
    assert InlineAnswer.model_validate_json(answer.model_dump_json()) == answer
    with pytest.raises(ValueError):
        InlineAnswer.model_validate({**answer.model_dump(), "kind": "chat"})


def test_r73_a_record_reads_its_assistant_name() -> None:
    body = {
        "id": "i1",
        "instruction": "sort",
        "path": "a.md",
        "lines": [2, 4],
        "bytes": 12,
        "assistant": {"kind": "offline", "name": "offline"},
        "at": "2026-11-29T19:00:00.000Z",
        "outcome": "accepted",
    }
    record = InlineRecord.model_validate(body)
    assert record.lines == [2, 4] and record.assistant.name == "offline"
    assert record.describe() == "sort — a.md:2–4 (accepted)"


def test_r70_the_client_sends_the_slice_and_no_ambient_header() -> None:
    request = InlineRequest("sort", "notes/a.md", "# A\n", "b\na\n", "end\n", (1, 4))
    with scripted_model() as server:
        client = BackendClient(server.url.removesuffix("/v1"), "token")
        session = WireKeySession("key-1", "demo", datetime(2026, 12, 2, tzinfo=UTC))
        try:
            with pytest.raises(NotFound):  # the peer has no such route; what it got counts
                client.stream_inline(session, request)
        finally:
            client.close()
        (asked,) = [item for item in server.requests if item.path.endswith("/inline")]
    assert asked.path == "/v1/workspaces/demo/inline"
    assert asked.body == request.to_json()
    assert asked.headers["x-key-session"] == "key-1"
    assert asked.headers["accept"] == "text/event-stream"
    assert "x-ambient-note" not in asked.headers
