"""Conversations kept per (account, workspace, conversation), never with tool results (R34)."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from tests.support.scripted_model import ScriptedModel
from tests.support.scripted_model import text as reply
from tests.workers.conftest import (
    NOTES,
    Backend,
    SteppingClock,
    TestClient,
    pointer_header,
)
from workers.app import create_app

NOTE = "notes/a.md"


def _turn(backend: Backend, key: str, message: str, conversation: str = "c1") -> None:
    backend.turn(
        message,
        key=key,
        ambient=pointer_header(NOTE, NOTES[NOTE]),
        conversation=conversation,
    )


def _messages(backend: Backend, key: str, conversation: str = "c1") -> list[dict[str, object]]:
    response = backend.client.get(
        f"/v1/agent/conversations/{conversation}", headers=backend.headers(key)
    )
    assert response.status_code == 200, response.text
    found: list[dict[str, object]] = response.json()["messages"]
    return found


def test_r34_messages_replies_and_tool_names_are_kept_never_results(backend: Backend) -> None:
    key = backend.key()
    _turn(backend, key, "summarise this")
    _turn(backend, key, "compare this with notes/b.md")
    messages = _messages(backend, key)
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[0]["text"] == "summarise this"
    assert messages[1]["toolCalls"] == [{"name": "read_active_note", "arguments": {}}]
    assert messages[3]["toolCalls"] == [
        {"name": "read_active_note", "arguments": {}},
        {"name": "read_document", "arguments": {"path": "notes/b.md"}},
    ]
    assert all(set(m) == {"role", "text", "at", "toolCalls", "proposals"} for m in messages)
    calls = messages[1]["toolCalls"]
    assert isinstance(calls, list)
    assert all("result" not in call for call in calls)


def test_r34_the_qa_hook_is_not_kept_since_its_reply_is_a_tool_result(backend: Backend) -> None:
    key = backend.key()
    _turn(backend, key, "hello")
    _turn(backend, key, '/tool read_document {"path": "notes/b.md"}')
    messages = _messages(backend, key)
    assert [m["text"] for m in messages if m["role"] == "user"] == ["hello"]
    kept = " ".join(str(m["text"]) for m in messages)
    assert NOTES["notes/b.md"].strip() not in kept and '"status"' not in kept


def test_r34_no_tool_result_reaches_the_database(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(reply("A note about alpha."))  # after the backend's own read (R75)
    key = model_backend.key()
    _turn(model_backend, key, "summarise this")
    engine = create_engine(model_backend.settings.resolve_database_url())
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT * FROM agent_conversation_messages")).all()
    finally:
        engine.dispose()
    stored = " ".join(str(value) for row in rows for value in row)
    assert "A note about alpha." in stored
    for line in NOTES[NOTE].splitlines()[1:]:
        assert line not in stored


def test_r34_listing_clearing_and_other_workspaces(backend: Backend) -> None:
    key = backend.key()
    _turn(backend, key, "summarise this", conversation="first")
    _turn(backend, key, "summarise this", conversation="team/second")
    _turn(backend, key, "and again", conversation="team/second")
    listing = backend.client.get("/v1/agent/conversations", headers=backend.headers(key)).json()
    summary = {c["conversation"]: c["turns"] for c in listing["conversations"]}
    assert summary == {"first": 1, "team/second": 2}
    assert listing["conversations"][0]["conversation"] == "team/second"  # most recent first
    assert listing["conversations"][0]["updatedAt"].endswith("Z")
    other = backend.key("other")
    assert backend.client.get("/v1/agent/conversations", headers=backend.headers(other)).json() == {
        "conversations": []
    }
    assert _messages(backend, other, "team/second") == []
    deleted = backend.client.delete(
        "/v1/agent/conversations/team/second", headers=backend.headers(key)
    )
    assert deleted.status_code == 204
    assert _messages(backend, key, "team/second") == []
    assert len(_messages(backend, key, "first")) == 2


def test_r34_routes_need_a_key_session(backend: Backend) -> None:
    for method in ("GET", "DELETE"):
        response = backend.client.request(
            method, "/v1/agent/conversations/c1", headers=backend.headers("unknown-key")
        )
        assert response.status_code == 403
    response = backend.client.get("/v1/agent/conversations", headers=backend.auth)
    assert response.status_code == 403


def test_r34_history_survives_restart_and_a_new_key_session(
    backend: Backend, clock: SteppingClock
) -> None:
    _turn(backend, backend.key(), "summarise this")
    with TestClient(create_app(backend.settings)) as client:
        again = Backend(client, backend.settings, clock, backend.root)
        messages = _messages(again, again.key())
    assert [m["text"] for m in messages] == ["summarise this", messages[1]["text"]]
    assert messages[1]["role"] == "assistant"


def test_r34_model_requests_carry_history_and_a_cleared_one_is_forgotten(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    key = model_backend.key()
    scripted.then(reply("One."), reply("Two."), reply("Three."))
    _turn(model_backend, key, "first question")
    _turn(model_backend, key, "second question")
    second = [m["content"] for m in scripted.chat_requests[1].body["messages"][1:]]
    assert second == ["first question", "One.", "second question"]
    model_backend.client.delete("/v1/agent/conversations/c1", headers=model_backend.headers(key))
    _turn(model_backend, key, "third question")
    third = [m["content"] for m in scripted.chat_requests[2].body["messages"][1:]]
    assert third == ["third question"]


def test_r34_a_turn_without_key_session_is_not_kept(backend: Backend) -> None:
    backend.turn("hello", key=None)
    key = backend.key()
    assert _messages(backend, key) == []
