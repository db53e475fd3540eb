"""search_documents {query, prefix?} (contract §12, R56): the tool and the offline request."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.workers.conftest import NOTES, Backend, pointer_header
from workers import messages

SAM_NOTES = {
    "notes/call.md": "# Call\nRing SAM on Monday.\nNothing else.\nsam again\n",
    "notes/trip.md": "# Trip\nTrain with Sam to Lyon.\n",
    "archive/old.md": "# Old\nSam moved away.\n",
    "notes/none.md": "# None\nSamuel is not him? It is: the phrase matches any case.\n",
}


def _tool(backend: Backend, key: str | None, arguments: dict[str, Any]) -> Any:
    reply = backend.turn(f"/tool search_documents {json.dumps(arguments)}", key=key)
    (call,) = reply["toolCalls"]
    assert json.loads(reply["reply"]) == call["result"]
    return call["result"]


def _write(backend: Backend, notes: dict[str, str]) -> None:
    for path, text in notes.items():
        target = backend.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def test_r56_matches_name_each_note_and_its_lines_in_any_case(backend: Backend) -> None:
    _write(backend, SAM_NOTES)
    result = _tool(backend, backend.key(), {"query": "sam"})
    assert result["status"] == "ok"
    by_path = {match["path"]: match["lines"] for match in result["matches"]}
    assert by_path["notes/call.md"] == [
        {"line": 2, "text": "Ring SAM on Monday."},
        {"line": 4, "text": "sam again"},
    ]
    assert by_path["notes/trip.md"] == [{"line": 2, "text": "Train with Sam to Lyon."}]
    assert set(by_path) == {"archive/old.md", "notes/call.md", "notes/trip.md", "notes/none.md"}
    assert not any("secret" in path for path in by_path)  # another workspace is never searched


def test_r56_a_prefix_limits_the_search(backend: Backend) -> None:
    _write(backend, SAM_NOTES)
    result = _tool(backend, backend.key(), {"query": "Sam", "prefix": "notes/"})
    assert "archive/old.md" not in {match["path"] for match in result["matches"]}
    assert result["matches"]


def test_r56_at_most_50_notes_and_5_lines_each(backend: Backend) -> None:
    _write(backend, {f"many/n{index:03}.md": "hit\n" * 9 for index in range(60)})
    result = _tool(backend, backend.key(), {"query": "HIT", "prefix": "many/"})
    assert len(result["matches"]) == 50
    assert all(len(match["lines"]) == 5 for match in result["matches"])


def test_r56_a_long_line_is_shown_around_the_match(backend: Backend) -> None:
    _write(backend, {"long.md": "x" * 5000 + " needle " + "y" * 5000 + "\n"})
    [match] = _tool(backend, backend.key(), {"query": "needle", "prefix": "long"})["matches"]
    [line] = match["lines"]
    assert "needle" in line["text"] and len(line["text"]) <= 242


def test_r56_no_match_is_an_empty_list(backend: Backend) -> None:
    result = _tool(backend, backend.key(), {"query": "zebra-orchid"})
    assert result == {**result, "status": "ok", "matches": []}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, messages.QUERY_MISSING),
        ({"query": "  "}, messages.QUERY_MISSING),
        ({"query": 3}, messages.QUERY_MISSING),
        ({"query": "a" * 201}, messages.QUERY_TOO_LONG.format(limit=200)),
        ({"query": "a", "prefix": 1}, messages.PREFIX_INVALID),
        ({"query": "a", "path": "x"},
         messages.ARGUMENT_UNKNOWN.format(tool="search_documents", name="path")),
    ],
)  # fmt: skip
def test_r56_bad_arguments_are_a_clear_tool_error(
    backend: Backend, arguments: dict[str, Any], message: str
) -> None:
    result = _tool(backend, backend.key(), arguments)
    assert result["status"] == "invalid_argument"
    assert result["message"] == message
    assert result["matches"] == []


def test_r28_without_a_key_session_the_same_access_rules(backend: Backend) -> None:
    result = _tool(backend, None, {"query": "alpha"})
    assert result["status"] == "access_denied"
    assert result["message"] == messages.KEY_SESSION_MISSING


SEARCHES = [
    ("which of my notes mention Sam?", "Notes that mention “Sam” (4):"),
    ("Which notes talk about Sam", "Notes that mention “Sam” (4):"),
    ("search my notes for sam", "Notes that mention “sam” (4):"),
    ("Quelles notes mentionnent Sam ?", "Notes qui mentionnent « Sam » (4) :"),
    ("Welche Notizen erwähnen Sam?", "Notizen, die „Sam“ erwähnen (4):"),
    ("¿Qué notas mencionan a Sam?", "Notas que mencionan «Sam» (4):"),
    ("Samが出てくるノートは？", "「Sam」が出てくるノート（4件）:"),
    ("哪些笔记提到了Sam？", "提到“Sam”的笔记（4 篇）："),
    ("Sam이 나오는 노트 찾아줘", "“Sam”이(가) 나오는 노트 (4개):"),
]


@pytest.mark.parametrize(("message", "heading"), SEARCHES)
def test_r56_offline_which_notes_mention_searches_every_note(
    backend: Backend, message: str, heading: str
) -> None:
    _write(backend, SAM_NOTES)
    ambient = pointer_header("notes/a.md", NOTES["notes/a.md"])
    body = backend.turn(message, key=backend.key(), ambient=ambient)
    [call] = body["toolCalls"]
    assert call["name"] == "search_documents"
    assert call["arguments"]["query"].casefold() == "sam"
    assert body["reply"].startswith(heading), body["reply"]
    assert "- **notes/trip.md**" in body["reply"]
    assert "  - 2: Train with Sam to Lyon." in body["reply"]
    assert "notes/a.md" not in body["reply"]  # the open note does not mention Sam


def test_r56_offline_no_note_mentions_it(backend: Backend) -> None:
    body = backend.turn("which notes mention zebra?", key=backend.key())
    assert body["reply"] == "No note mentions “zebra”."
