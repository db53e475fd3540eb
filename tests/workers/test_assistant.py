"""The default assistant: tools called and replies (R23, R25–R27, R38, contract 5).

The table of intents and languages is in test_offline_intents.py.
"""

from __future__ import annotations

import pytest

from tests.workers.conftest import NOTES, Backend, pointer_header
from workers import messages

VARIANTS = [
    "this",
    "this note",
    "summarise this",
    "summarize this",
    "what does it say",
    "このノート",
    "これ",
    "cette note",
    "diese Notiz",
    "esta nota",
    "这个笔记",
    "这篇笔记",
    "이 노트",
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
    assert reply["reply"].startswith("**Plan** (inbox/today.md, edit view)\n\nToday\n")
    assert "Headings: 1. Open tasks: 2." in reply["reply"]
    assert "The saved copy is behind" not in reply["reply"]


def test_r38_a_list_without_prose_is_summarised_whole(backend: Backend) -> None:
    key = backend.key()
    text = "# Groceries\n- eggs\n- bread\n- milk\n"
    (backend.root / "notes" / "groceries.md").write_text(text, encoding="utf-8")
    reply = backend.turn(
        "summarise this", key=key, ambient=pointer_header("notes/groceries.md", text)
    )
    assert "eggs; bread; milk" in reply["reply"]


def test_r39_fenced_code_is_neither_heading_nor_task_nor_summary(backend: Backend) -> None:
    key = backend.key()
    text = "# Real\n```\n# not a heading\n- [ ] not a task\n```\n    # indented code\nProse.\n"
    (backend.root / "notes" / "code.md").write_text(text, encoding="utf-8")
    reply = backend.turn("summarise this", key=key, ambient=pointer_header("notes/code.md", text))
    assert "Headings: 1. Open tasks: 0." in reply["reply"]
    assert "not a heading" not in reply["reply"] and "Prose." in reply["reply"]


def test_summary_keeps_a_sentence_that_wraps_across_lines(backend: Backend) -> None:
    key = backend.key()
    text = "# Wrapped\nA sentence that starts on one line\nand ends on the next. Second one.\n"
    (backend.root / "notes" / "wrapped.md").write_text(text, encoding="utf-8")
    reply = backend.turn(
        "summarise this", key=key, ambient=pointer_header("notes/wrapped.md", text)
    )
    assert "A sentence that starts on one line and ends on the next. Second one." in reply["reply"]


def test_r25_reply_says_the_caveat_to_the_person_and_the_tool_keeps_it_verbatim(
    backend: Backend,
) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"] + "typed", flushed=False)
    reply = backend.turn("summarise this", key=key, ambient=header)
    assert reply["toolCalls"][0]["result"]["caveat"] == (
        "The saved copy is behind what the user has on screen — their most recent "
        "keystrokes may be missing from the text above."
    )
    assert "The saved copy is behind your screen: your latest typing may not be" in reply["reply"]
    assert "the user has on screen" not in reply["reply"]


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
    assert [call["name"] for call in reply["toolCalls"]] == ["read_active_note"]
    assert reply["reply"].startswith("ノートが開かれていないので")
    english = backend.turn("summarise this", key=key)
    assert english["reply"].startswith("No note is open, so I can't tell which note you mean.")


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
        "Notes in this workspace (3):",
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
