"""read_active_note and read_document over agent turns (contract 5, R21–R28)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bridge.caveat import CAVEAT
from bridge.contract import DEFAULT_MAX_BYTES, MAX_MAX_BYTES
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers import messages


def _tool(backend: Backend, key: str | None, command: str, ambient: str | None = None) -> Any:
    reply = backend.turn(f"/tool {command}", key=key, ambient=ambient)
    (call,) = reply["toolCalls"]
    assert json.loads(reply["reply"]) == call["result"]  # contract 5: the reply is the result
    return call["result"]


def test_r24_complete_read_returns_the_saved_copy(backend: Backend) -> None:
    key = backend.key()
    text = NOTES["notes/a.md"]
    result = _tool(backend, key, "read_active_note {}", pointer_header("notes/a.md", text))
    assert result == {
        "status": "ok",
        "message": None,
        "path": "notes/a.md",
        "view": "edit",
        "text": text,
        "bytes": len(text.encode()),
        "partial": False,
        "caveat": None,
        "selection": None,
    }


@pytest.mark.parametrize(
    ("label", "header_text", "flushed"),
    [
        ("more keystrokes on screen", NOTES["notes/a.md"] + " typed", True),
        ("same size, other bytes", NOTES["notes/a.md"].replace("alpha", "ALPHA"), True),
        ("flush did not finish", NOTES["notes/a.md"], False),
    ],
)
def test_r25_caveat_when_the_saved_copy_disagrees(
    backend: Backend, label: str, header_text: str, flushed: bool
) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", header_text, flushed=flushed)
    result = _tool(backend, key, "read_active_note {}", header)
    assert result["status"] == "ok" and result["partial"] is False, label
    assert result["caveat"] == CAVEAT, label


def test_r25_caveat_is_the_exact_sentence() -> None:
    assert CAVEAT == (
        "The saved copy is behind what the user has on screen — their most recent "
        "keystrokes may be missing from the text above."
    )


def test_r26_partial_read_is_cut_at_a_character_and_not_compared(backend: Backend) -> None:
    key = backend.key()
    text = "é" * 100  # two bytes each
    backend.client.put(
        "/v1/workspaces/demo/documents/accents.md",
        content=text.encode(),
        headers=backend.headers(key),
    )
    # A pointer that disagrees and was not flushed: still no caveat on a partial read.
    header = pointer_header("accents.md", text + "more", flushed=False)
    result = _tool(backend, key, 'read_active_note {"maxBytes": 7}', header)
    assert result["partial"] is True and result["caveat"] is None
    assert result["text"] == "ééé"  # 6 bytes: the 7th would split a character
    assert result["bytes"] == 200


def test_r21_default_and_clamp(backend: Backend) -> None:
    key = backend.key()
    big = "x" * (MAX_MAX_BYTES + 1000)
    backend.client.put(
        "/v1/workspaces/demo/documents/big.md", content=big.encode(), headers=backend.headers(key)
    )
    header = pointer_header("big.md", big)
    default = _tool(backend, key, "read_active_note {}", header)
    assert len(default["text"]) == DEFAULT_MAX_BYTES and default["partial"] is True
    clamped = _tool(backend, key, 'read_active_note {"maxBytes": 100000000}', header)
    assert len(clamped["text"]) == MAX_MAX_BYTES and clamped["bytes"] == len(big)


@pytest.mark.parametrize("value", ['"64"', "0", "-5", "1.5", "true", "null", "[]"])
def test_r21_invalid_max_bytes_is_a_clear_tool_error(backend: Backend, value: str) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    result = _tool(backend, key, f'read_active_note {{"maxBytes": {value}}}', header)
    assert result["status"] == "invalid_argument"
    assert result["message"] == messages.MAX_BYTES_INVALID
    document = _tool(backend, key, f'read_document {{"path": "notes/a.md", "maxBytes": {value}}}')
    assert document["message"] == messages.MAX_BYTES_INVALID


def test_unknown_argument_is_a_tool_error(backend: Backend) -> None:
    key = backend.key()
    result = _tool(backend, key, 'read_active_note {"path": "notes/b.md"}')
    assert result["status"] == "invalid_argument"
    assert "path" in result["message"]


def test_r27_no_pointer_says_no_note_is_open(backend: Backend) -> None:
    key = backend.key()
    result = _tool(backend, key, "read_active_note {}")
    assert result["status"] == "no_active_note"
    assert result["message"] == messages.NO_ACTIVE_NOTE
    assert "name a note" in result["message"] and "listing" in result["message"]


def test_r22_every_call_rereads_the_delivery_row(backend: Backend) -> None:
    key = backend.key()
    first = _tool(backend, key, "read_active_note {}", pointer_header("notes/a.md", "x"))
    second = _tool(backend, key, "read_active_note {}", pointer_header("notes/b.md", "x"))
    third = _tool(backend, key, "read_active_note {}")
    assert (first["path"], second["path"], third["status"]) == (
        "notes/a.md",
        "notes/b.md",
        "no_active_note",
    )


def test_r28_missing_note_gives_the_same_message_from_both_tools(backend: Backend) -> None:
    key = backend.key()
    active = _tool(backend, key, "read_active_note {}", pointer_header("notes/gone.md", "x"))
    named = _tool(backend, key, 'read_document {"path": "notes/gone.md"}')
    assert active["status"] == named["status"] == "not_found"
    assert active["message"] == named["message"]
    api = backend.client.get(
        "/v1/workspaces/demo/documents/notes/gone.md", headers=backend.headers(key)
    )
    assert api.json()["error"]["message"] == active["message"]


def test_r28_no_key_session_gives_the_shared_access_message(backend: Backend) -> None:
    active = _tool(backend, None, "read_active_note {}")
    named = _tool(backend, None, 'read_document {"path": "notes/a.md"}')
    listing = _tool(backend, None, "list_documents {}")
    assert active["status"] == named["status"] == listing["status"] == "access_denied"
    assert active["message"] == named["message"] == messages.KEY_SESSION_MISSING
    api = backend.client.get("/v1/workspaces/demo/documents/notes/a.md", headers=backend.auth)
    assert api.json()["error"]["message"] == messages.KEY_SESSION_MISSING


def test_read_document_and_list_documents(backend: Backend) -> None:
    key = backend.key()
    named = _tool(backend, key, 'read_document {"path": "notes/b.md"}')
    assert named["status"] == "ok" and named["text"] == NOTES["notes/b.md"]
    assert named["caveat"] is None and named["view"] is None
    listing = _tool(backend, key, 'list_documents {"prefix": "notes/"}')
    assert [d["path"] for d in listing["documents"]] == ["notes/a.md", "notes/b.md"]
    bad = _tool(backend, key, 'read_document {"path": "../other/secret.md"}')
    assert bad["status"] == "invalid_argument" and bad["text"] is None


def test_r23_workspace_of_the_key_is_the_one_read(backend: Backend) -> None:
    other_key = backend.key("other")
    result = _tool(backend, other_key, "read_active_note {}", pointer_header("secret.md", "x"))
    assert result["status"] == "ok" and result["text"] == "other workspace secret\n"
    demo = _tool(backend, backend.key(), 'read_document {"path": "secret.md"}')
    assert demo["status"] == "not_found"


def test_r38_selection_is_located_in_a_matching_saved_copy(backend: Backend) -> None:
    """The pointer's selection (UTF-16 offsets) names text of the saved copy when hashes match."""
    key = backend.key()
    text = NOTES["notes/a.md"]  # "# Alpha\nalpha is the first note. ..."
    header = pointer_header("notes/a.md", text, selection={"anchor": 31, "head": 8})
    result = _tool(backend, key, "read_active_note {}", header)
    assert result["selection"] == {
        "anchor": 31,
        "head": 8,
        "text": "alpha is the first note",
        "firstLine": 2,
        "lastLine": 2,
    }


def test_r38_selection_is_not_located_when_the_saved_copy_differs(backend: Backend) -> None:
    key = backend.key()
    header = pointer_header(
        "notes/a.md", NOTES["notes/a.md"] + "typed", selection={"anchor": 8, "head": 29}
    )
    result = _tool(backend, key, "read_active_note {}", header)
    assert result["caveat"] == CAVEAT
    assert result["selection"] == {
        "anchor": 8,
        "head": 29,
        "text": None,
        "firstLine": None,
        "lastLine": None,
    }
