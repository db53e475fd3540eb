"""R48: a turn whose note the user left out says so; it never claims that no note is open."""

from __future__ import annotations

import json
from typing import Any

from bridge.client import turn_body
from tests.support.scripted_model import ScriptedModel, text, tool
from tests.workers.conftest import NOTES, Backend, pointer_header

LEFT_OUT_TOOL_MESSAGE = (
    "The user left the open note out of this message; ask them to name a note "
    "or send again with it."
)


def _left_out_turn(
    backend: Backend, message: str, key: str | None, ambient: str | None = None
) -> dict[str, Any]:
    response = backend.client.post(
        "/v1/agent/turns",
        json=turn_body("c1", message, note_left_out=True),
        headers=backend.headers(key, ambient),
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_r48_the_client_sends_the_left_out_extension_in_the_body() -> None:
    assert turn_body("c1", "hi") == {"conversation": "c1", "message": "hi"}
    assert turn_body("c1", "hi", note_left_out=True) == {
        "conversation": "c1",
        "message": "hi",
        "ambient": "excluded",
    }


def test_r48_read_active_note_says_the_note_was_left_out(backend: Backend) -> None:
    key = backend.key()
    reply = _left_out_turn(backend, "/tool read_active_note {}", key)
    (call,) = reply["toolCalls"]
    assert call["result"]["status"] == "no_active_note"  # contract 5's status, unchanged
    assert call["result"]["message"] == LEFT_OUT_TOOL_MESSAGE
    assert reply["ambient"]["status"] == "absent"
    assert "left the note out" in reply["ambient"]["reason"]
    # The next turn, with no header and no "left out", is R27's "no note is open" again.
    plain = backend.turn("/tool read_active_note {}", key=key)
    assert "No note is open" in plain["toolCalls"][0]["result"]["message"]


def test_r48_the_offline_reply_to_a_left_out_note_never_says_no_note_is_open(
    backend: Backend,
) -> None:
    key = backend.key()
    reply = _left_out_turn(backend, "summarise this", key)
    assert [call["name"] for call in reply["toolCalls"]] == ["read_active_note"]
    assert "No note is open" not in reply["reply"]
    assert "notes/today.md" not in reply["reply"]  # no example path that may not exist
    assert reply["reply"].startswith("You left the note out of this message")


def test_r48_leaving_the_note_out_wins_over_a_header_and_stores_nothing(
    backend: Backend,
) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    backend.turn("summarise this", key=key, ambient=header)
    assert backend.delivery(key) is not None
    reply = _left_out_turn(backend, "summarise this", key, ambient=header)
    assert reply["ambient"]["status"] == "absent"
    row = backend.delivery(key)
    assert row is not None and row["ambient_path"] is None and row["ambient_meta"] is None
    assert "“A”" not in reply["reply"]  # the note was not read


def test_r48_left_out_without_a_key_session_still_says_so(backend: Backend) -> None:
    reply = _left_out_turn(backend, "summarise this", None)
    assert reply["ambient"] == {"status": "absent", "reason": reply["ambient"]["reason"]}
    assert "left the note out" in reply["ambient"]["reason"]
    assert "No note is open" not in reply["reply"]


def test_an_unknown_ambient_value_is_a_plain_400(backend: Backend) -> None:
    response = backend.client.post(
        "/v1/agent/turns",
        content=json.dumps({"conversation": "c1", "message": "hi", "ambient": "sometimes"}),
        headers={**backend.auth, "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["message"] and "Traceback" not in response.text


def test_r48_the_model_is_told_the_note_was_left_out_not_that_none_is_open(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(tool("read_active_note"), text("Which note do you mean?"))
    key = model_backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    reply = _left_out_turn(model_backend, "summarise this", key, ambient=header)
    assert reply["reply"] == "Which note do you mean?"
    first, second = scripted.chat_requests
    system = first.body["messages"][0]["content"]
    assert "left the open note out of this message" in system
    assert "No note is open" not in system and "notes/a.md" not in system
    tool_message = second.body["messages"][-1]
    assert tool_message["role"] == "tool"
    assert json.loads(tool_message["content"])["message"] == LEFT_OUT_TOOL_MESSAGE
