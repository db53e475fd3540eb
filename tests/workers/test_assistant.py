"""The default assistant: which tool it calls and what it answers (R23, R25–R27, contract 5)."""

from __future__ import annotations

import pytest

from bridge.caveat import CAVEAT
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers import messages
from workers.assistant import UNNAMED_REQUESTS

VARIANTS = [
    *UNNAMED_REQUESTS,
    "Summarise this, please",
    "what does this note say?",
    "このノートを要約して",
    "これは何？",
    "Résume cette note",
    "Fasse diese Notiz zusammen",
    "Resume esta nota",
    "总结这个笔记",
    "这篇笔记讲了什么",
    "이 노트를 요약해줘",
]


@pytest.mark.parametrize("message", VARIANTS)
def test_r23_unnamed_request_reads_the_active_note_first(backend: Backend, message: str) -> None:
    key = backend.key()
    reply = backend.turn(
        message, key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"])
    )
    assert [call["name"] for call in reply["toolCalls"]] == ["read_active_note"]
    assert "alpha is the first note" in reply["reply"]


def test_r23_reads_again_on_every_turn(backend: Backend) -> None:
    key = backend.key()
    first = backend.turn("this", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    second = backend.turn(
        "this", key=key, ambient=pointer_header("notes/b.md", NOTES["notes/b.md"])
    )
    assert first["toolCalls"][0]["name"] == second["toolCalls"][0]["name"] == "read_active_note"
    assert "Alpha" in first["reply"] and "Beta" in second["reply"]


def test_reply_has_title_summary_and_counts(backend: Backend) -> None:
    key = backend.key()
    text = NOTES["inbox/today.md"]
    reply = backend.turn("summarise this", key=key, ambient=pointer_header("inbox/today.md", text))
    # The title is the first heading; the summary is prose, not the task list.
    assert reply["reply"].startswith("“Plan” (inbox/today.md, edit view). Today\n")
    assert "It has 1 heading and 2 open tasks." in reply["reply"]
    assert CAVEAT not in reply["reply"]


def test_summary_keeps_a_sentence_that_wraps_across_lines(backend: Backend) -> None:
    key = backend.key()
    text = "# Wrapped\nA sentence that starts on one line\nand ends on the next. Second one.\n"
    (backend.root / "notes" / "wrapped.md").write_text(text, encoding="utf-8")
    reply = backend.turn(
        "summarise this", key=key, ambient=pointer_header("notes/wrapped.md", text)
    )
    assert "A sentence that starts on one line and ends on the next. Second one." in reply["reply"]


def test_r25_reply_repeats_the_caveat_verbatim(backend: Backend) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"] + "typed", flushed=False)
    reply = backend.turn("summarise this", key=key, ambient=header)
    assert CAVEAT in reply["reply"]


def test_r26_reply_says_when_it_saw_part_of_the_note(backend: Backend) -> None:
    key = backend.key()
    text = "# Long\n" + "A sentence. " * 10_000
    backend.client.put(
        "/v1/workspaces/demo/documents/long.md", content=text.encode(), headers=backend.headers(key)
    )
    reply = backend.turn("summarise this", key=key, ambient=pointer_header("long.md", text))
    assert "I only saw the first 65,536 of its" in reply["reply"]
    assert reply["toolCalls"][0]["result"]["partial"] is True


def test_r27_reply_says_plainly_that_no_note_is_open(backend: Backend) -> None:
    key = backend.key()
    reply = backend.turn("このノート", key=key)
    assert reply["reply"] == messages.REPLY_NO_NOTE


def test_named_path_uses_read_document(backend: Backend) -> None:
    key = backend.key()
    reply = backend.turn(
        "what does notes/b.md say?", key=key, ambient=pointer_header("notes/a.md", "x")
    )
    assert [call["name"] for call in reply["toolCalls"]] == ["read_document"]
    assert reply["toolCalls"][0]["arguments"] == {"path": "notes/b.md"}
    assert "beta text here." in reply["reply"]


def test_list_request_uses_list_documents(backend: Backend) -> None:
    key = backend.key()
    reply = backend.turn("list my notes", key=key)
    assert [call["name"] for call in reply["toolCalls"]] == ["list_documents"]
    assert reply["reply"].splitlines() == [
        "You have 3 notes:",
        "- inbox/today.md",
        "- notes/a.md",
        "- notes/b.md",
    ]


def test_tool_hook_calls_exactly_one_tool(backend: Backend) -> None:
    key = backend.key()
    reply = backend.turn('/tool read_document {"path": "notes/b.md"}', key=key)
    assert len(reply["toolCalls"]) == 1
    assert reply["toolCalls"][0]["arguments"] == {"path": "notes/b.md"}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("/tool delete_everything {}", "There is no tool named 'delete_everything'."),
        ("/tool read_document {not json", "not valid JSON"),
        ("/tool read_document [1, 2]", messages.ARGUMENTS_NOT_OBJECT),
        ("/tool", "no tool name"),
    ],
)
def test_tool_hook_mistakes_get_a_plain_reply(
    backend: Backend, message: str, expected: str
) -> None:
    reply = backend.turn(message, key=backend.key())
    assert reply["toolCalls"] == []
    assert expected in reply["reply"]


def test_access_failure_reply_quotes_the_shared_message(backend: Backend) -> None:
    reply = backend.turn("what does notes/a.md say?")
    assert messages.KEY_SESSION_MISSING in reply["reply"]
