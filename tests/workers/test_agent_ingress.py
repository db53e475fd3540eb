"""Agent ingress: the X-Ambient-Note header and the delivery row (contract 4, R14–R20)."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

from sqlalchemy import select

from bridge.contract import ACCESS_TTL
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers import messages
from workers.schema import agent_delivery_credentials


def _rows(backend: Backend) -> list[dict[str, object]]:
    database = backend.client.app.state.backend.database  # type: ignore[attr-defined]
    with database.reading() as connection:
        return [
            dict(row._mapping) for row in connection.execute(select(agent_delivery_credentials))
        ]


def test_r17_valid_header_stores_only_pointer_metadata(backend: Backend) -> None:
    key = backend.key()
    text = NOTES["notes/a.md"]
    reply = backend.turn("hello", key=key, ambient=pointer_header("notes/a.md", text))
    assert reply["ambient"] == {"status": "stored", "reason": None}
    stored = backend.delivery(key)
    assert stored is not None
    assert (stored["ambient_path"], stored["ambient_view"]) == ("notes/a.md", "edit")
    assert stored["ambient_meta"] == {
        "v": 1,
        "frameId": "inbox-1",
        "bytes": len(text.encode()),
        "sha256": stored["ambient_meta"]["sha256"],
        "flushed": True,
        "capturedAt": "2026-11-29T19:08:18.123Z",
    }
    (row,) = _rows(backend)
    # R8/R17: no byte of the note body sits in the row.
    assert "alpha" not in json.dumps(row, default=str)


def test_r18_send_without_header_clears_the_columns(backend: Backend) -> None:
    key = backend.key()
    backend.turn("hi", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    reply = backend.turn("hi again", key=key)
    assert reply["ambient"] == {"status": "absent", "reason": None}
    stored = backend.delivery(key)
    assert stored is not None
    assert stored["ambient_path"] is None and stored["ambient_view"] is None
    assert stored["ambient_meta"] is None


def test_r18_send_replaces_the_columns(backend: Backend) -> None:
    key = backend.key()
    backend.turn("one", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    backend.turn(
        "two", key=key, ambient=pointer_header("notes/b.md", NOTES["notes/b.md"], view="mindmap")
    )
    stored = backend.delivery(key)
    assert stored is not None
    assert (stored["ambient_path"], stored["ambient_view"]) == ("notes/b.md", "mindmap")
    assert len(_rows(backend)) == 1  # one row per (key session, conversation)


def test_r18_send_without_key_session_removes_the_row(backend: Backend) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    backend.turn("one", key=key, ambient=header)
    backend.turn("other conversation", key=key, ambient=header, conversation="c2")
    reply = backend.turn("no key", ambient=header)
    assert reply["ambient"] == {"status": "absent", "reason": messages.AMBIENT_NO_KEY_SESSION}
    assert backend.delivery(key) is None
    assert backend.delivery(key, "c2") is not None  # only that conversation's rows
    plain = backend.turn("no key, no header")
    assert plain["ambient"] == {"status": "absent", "reason": None}


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_r18_bad_headers_are_rejected_and_the_turn_proceeds(backend: Backend) -> None:
    key = backend.key()
    good = json.loads(base64.urlsafe_b64decode(pointer_header("notes/a.md", "x") + "=="))
    bad_headers = {
        "not base64": "***",
        "not json": _encode(b"{not json"),
        "unknown field": _encode(json.dumps({**good, "body": "alpha"}).encode()),
        "wrong type": _encode(json.dumps({**good, "bytes": "12"}).encode()),
        "bad path": _encode(json.dumps({**good, "path": "../etc/passwd"}).encode()),
        "unknown view": _encode(json.dumps({**good, "view": "kanban"}).encode()),
        "oversize": "A" * 2049,
        "empty": "",
    }
    for label, header in bad_headers.items():
        backend.turn("fill", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
        reply = backend.turn("summarise this", key=key, ambient=header)
        assert reply["ambient"]["status"] == "rejected", label
        assert isinstance(reply["ambient"]["reason"], str) and reply["ambient"]["reason"], label
        stored = backend.delivery(key)
        assert stored is not None and stored["ambient_path"] is None, label
        assert reply["toolCalls"][0]["result"]["status"] == "no_active_note", label


def test_several_ambient_headers_are_rejected(backend: Backend) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    response = backend.client.post(
        "/v1/agent/turns",
        json={"conversation": "c1", "message": "this"},
        headers=[
            *backend.headers(key).items(),
            ("X-Ambient-Note", header),
            ("X-Ambient-Note", header),
        ],
    )
    assert response.json()["ambient"] == {
        "status": "rejected",
        "reason": messages.AMBIENT_SEVERAL_HEADERS,
    }


def test_r19_delivery_row_lives_15_minutes_from_the_latest_send(backend: Backend) -> None:
    backend.settings.key_session_ttl = timedelta(hours=1)  # so only the row can expire
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    backend.turn("one", key=key, ambient=header)
    backend.clock.advance(timedelta(minutes=10))
    backend.turn("two", key=key, ambient=header)  # renews the row
    backend.clock.advance(timedelta(minutes=10))
    stored = backend.delivery(key)
    assert stored is not None and stored["expiresAt"] == "2026-11-29T19:25:00.000Z"
    backend.clock.advance(ACCESS_TTL)
    assert backend.delivery(key) is None
    assert _rows(backend) == []  # purged when touched


def test_r19_expired_delivery_row_makes_tools_refuse(backend: Backend) -> None:
    """The row expires while the key session still lives: the tools give the access message."""
    from workers.tools import ToolContext, read_active_note, read_document

    state = backend.client.app.state.backend  # type: ignore[attr-defined]
    backend.settings.key_session_ttl = timedelta(hours=1)
    key = backend.key()
    backend.turn("one", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    context = ToolContext(
        session=state.key_sessions.check(state.account, key),
        conversation="c1",
        deliveries=state.deliveries,
        workspaces=state.workspaces,
        clock=backend.clock,
    )
    assert read_active_note(context, {})["status"] == "ok"
    backend.clock.advance(ACCESS_TTL)
    active = read_active_note(context, {})
    named = read_document(context, {"path": "notes/a.md"})
    assert active["status"] == named["status"] == "access_denied"
    assert active["message"] == named["message"] == messages.DELIVERY_EXPIRED
    assert active["text"] is None and named["text"] is None


def test_delivery_endpoint_needs_a_key_session(backend: Backend) -> None:
    response = backend.client.get("/v1/agent/deliveries/c1", headers=backend.auth)
    assert response.status_code == 403
    assert response.json()["error"]["message"] == messages.KEY_SESSION_MISSING


def test_delivery_of_a_conversation_named_with_slashes_reads_back(backend: Backend) -> None:
    key = backend.key()
    conversation = "window/assistant/1"
    backend.turn(
        "hi",
        key=key,
        ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]),
        conversation=conversation,
    )
    stored = backend.delivery(key, conversation)
    assert stored is not None
    assert (stored["conversation"], stored["ambient_path"]) == (conversation, "notes/a.md")
