"""Turn bodies and responses stay strict JSON at every edge, and long notes summarise cheaply.

The response of a turn is built from pre-encoded pieces (contract 4, 5); these tests read
it back with a parser that refuses NaN, so any value JSON cannot carry shows up here.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from bridge.contract import MAX_MAX_BYTES
from tests.workers.conftest import Backend, pointer_header
from workers import messages


def _strict(raw: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in a response body")

    return json.loads(raw, parse_constant=refuse)


def _post_turn(backend: Backend, raw_body: bytes, key: str | None = None) -> Any:
    headers = {**backend.headers(key), "Content-Type": "application/json"}
    return backend.client.post("/v1/agent/turns", content=raw_body, headers=headers)


def test_tool_hook_reply_is_the_result_json_text_and_in_tool_calls(backend: Backend) -> None:
    """Contract 5: the reply is the result as JSON text; the same result is in toolCalls."""
    key = backend.key()
    text = '# Ünïcode\nA “quoted” line with \\ and " and a tab\t.\n' * 50
    (backend.root / "notes" / "odd.md").write_text(text, encoding="utf-8")
    response = backend.client.post(
        "/v1/agent/turns",
        json={"conversation": "c1", "message": "/tool read_active_note {}"},
        headers=backend.headers(key, pointer_header("notes/odd.md", text)),
    )
    body = _strict(response.content)
    (call,) = body["toolCalls"]
    assert _strict(body["reply"].encode()) == call["result"]
    assert call["result"]["text"] == text and call["result"]["caveat"] is None


def test_r21_a_256_kib_read_is_one_body_of_its_declared_length(backend: Backend) -> None:
    """Contract 4, 5, R21: the answer is sent in parts, but arrives as one exact JSON body."""
    key = backend.key()
    text = ("A line of a long note about the quarter.\n" * 7000)[:MAX_MAX_BYTES]
    (backend.root / "notes" / "large.md").write_text(text, encoding="utf-8")
    response = backend.client.post(
        "/v1/agent/turns",
        json={
            "conversation": "c1",
            "message": f'/tool read_active_note {{"maxBytes": {MAX_MAX_BYTES}}}',
        },
        headers=backend.headers(key, pointer_header("notes/large.md", text)),
    )
    assert response.status_code == 200
    assert int(response.headers["content-length"]) == len(response.content)
    assert response.headers["content-type"] == "application/json"
    body = _strict(response.content)
    (call,) = body["toolCalls"]
    assert call["result"]["text"] == text and call["result"]["partial"] is False
    assert _strict(body["reply"].encode()) == call["result"]
    assert body["ambient"] == {"status": "stored", "reason": None}
    assert body["assistant"] == {"kind": "offline", "model": None}


@pytest.mark.parametrize(
    "arguments",
    [
        '{"maxBytes": NaN}',
        '{"maxBytes": Infinity}',
        '{"maxBytes": 1e400}',
        '{"path": "\\ud800.md"}',
        "[" * 5000 + "]" * 5000,
    ],
)
def test_tool_arguments_json_cannot_carry_get_a_plain_reply(
    backend: Backend, arguments: str
) -> None:
    reply = _strict(
        backend.client.post(
            "/v1/agent/turns",
            json={"conversation": "c1", "message": f"/tool read_document {arguments}"},
            headers=backend.headers(backend.key()),
        ).content
    )
    assert reply["toolCalls"] == []
    assert "not valid JSON" in reply["reply"]


def test_r21_an_integer_beyond_64_bits_is_still_clamped(backend: Backend) -> None:
    huge = 2**80
    key = backend.key()
    text = "x" * (262_144 + 10)
    (backend.root / "notes" / "big.md").write_text(text, encoding="utf-8")
    response = backend.client.post(
        "/v1/agent/turns",
        json={"conversation": "c1", "message": f'/tool read_active_note {{"maxBytes": {huge}}}'},
        headers=backend.headers(key, pointer_header("notes/big.md", text)),
    )
    (call,) = _strict(response.content)["toolCalls"]
    assert call["arguments"] == {"maxBytes": huge}
    assert call["result"]["status"] == "ok" and call["result"]["partial"] is True
    assert len(call["result"]["text"]) == 262_144


@pytest.mark.parametrize(
    "raw_body",
    [
        b'{"conversation": "c1", "message": "\\ud800 this"}',
        b'{"conversation": "c1", "message": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"conversation": "c1", "message": NaN}',
    ],
)
def test_turn_bodies_json_cannot_carry_are_400(backend: Backend, raw_body: bytes) -> None:
    response = _post_turn(backend, raw_body, backend.key())
    assert response.status_code == 400, response.text
    assert response.json()["error"] == {"code": "invalid_json", "message": messages.BODY_NOT_JSON}


def test_a_conversation_name_with_nul_is_refused_plainly(backend: Backend) -> None:
    """The name is stored in the delivery row, which PostgreSQL text cannot hold NUL in."""
    response = _post_turn(backend, b'{"conversation": "a\\u0000b", "message": "hi"}', backend.key())
    assert response.status_code == 400
    assert messages.CONVERSATION_HAS_NUL in response.json()["error"]["message"]


def test_r23_summary_of_a_long_note_is_its_first_two_sentences(backend: Backend) -> None:
    key = backend.key()
    filler = "Filler words keep going here without any end mark at all"
    text = "# Long\nFirst sentence spans\ntwo lines. Second is short!\n" + f"{filler}.\n" * 5000
    (backend.root / "notes" / "long.md").write_text(text, encoding="utf-8")
    reply = backend.turn("summarise this", key=key, ambient=pointer_header("notes/long.md", text))
    assert (
        "(notes/long.md, edit view)\n\nFirst sentence spans two lines. Second is short!\n"
        in (reply["reply"])
    )


def test_summary_of_one_endless_sentence_is_cut_at_the_limit(backend: Backend) -> None:
    key = backend.key()
    text = "# Endless\n" + "and then some more words follow\n" * 3000
    (backend.root / "notes" / "endless.md").write_text(text, encoding="utf-8")
    reply = backend.turn(
        "summarise this", key=key, ambient=pointer_header("notes/endless.md", text)
    )["reply"]
    summary = reply.split("edit view)\n\n", 1)[1].split("\n", 1)[0]
    assert summary.endswith("…") and len(summary) <= 280
    assert summary.startswith("and then some more words follow and then some")


def test_a_file_name_that_is_not_utf8_is_left_out_of_listings(backend: Backend) -> None:
    (backend.root / os.fsdecode(b"notes/bad\xff.md")).write_text("x\n", encoding="utf-8")
    key = backend.key()
    listing = backend.client.get("/v1/workspaces/demo/documents", headers=backend.headers(key))
    assert listing.status_code == 200
    paths = [document["path"] for document in listing.json()["documents"]]
    assert "notes/a.md" in paths and not any("bad" in path for path in paths)
    reply = _strict(
        backend.client.post(
            "/v1/agent/turns",
            json={"conversation": "c1", "message": "/tool list_documents {}"},
            headers=backend.headers(key),
        ).content
    )
    assert reply["toolCalls"][0]["result"]["status"] == "ok"
