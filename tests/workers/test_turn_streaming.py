"""Streamed turns: delta, tool, done and error events for both assistants (R35, R36, R40)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from bridge.agent import DeltaEvent, DoneEvent, ErrorEvent, ToolEvent, parse_sse
from bridge.client import BackendClient
from tests.support.backend import make_workspace
from tests.support.scripted_model import MODEL_ID, Reply, ScriptedModel, error, text, tool
from tests.workers.conftest import DEVICE_TOKEN, NOTES, WORKSPACE, Backend, pointer_header
from workers.server import EmbeddedServer
from workers.settings import Settings

NOTE = "notes/a.md"
SSE = {"Accept": "text/event-stream"}


def _stream(backend: Backend, message: str, key: str | None, conversation: str = "s1") -> Any:
    headers = {**backend.headers(key, pointer_header(NOTE, NOTES[NOTE])), **SSE}
    with backend.client.stream(
        "POST",
        "/v1/agent/turns",
        json={"conversation": conversation, "message": message},
        headers=headers,
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = (line.encode() for line in response.iter_lines())
        return [(name, json.loads(data)) for name, data in parse_sse(lines)]


def _plain(backend: Backend, message: str, key: str, conversation: str) -> dict[str, Any]:
    return backend.turn(
        message, key=key, ambient=pointer_header(NOTE, NOTES[NOTE]), conversation=conversation
    )


def test_r35_offline_assistant_streams_and_done_is_the_plain_answer(backend: Backend) -> None:
    key = backend.key()
    events = _stream(backend, "summarise this", key, conversation="streamed")
    names = [name for name, _ in events]
    assert names[0] == "tool"
    assert names[-1] == "done"
    deltas = [data["text"] for name, data in events if name == "delta"]
    assert len(deltas) > 1  # the reply arrives in pieces
    done = events[-1][1]
    assert "".join(deltas) == done["reply"]
    assert events[0][1]["name"] == "read_active_note"
    assert events[0][1]["result"]["text"] == NOTES[NOTE]
    plain = _plain(backend, "summarise this", key, conversation="plain")
    assert done == plain
    assert done["assistant"] == {"kind": "offline", "model": None}


def test_r35_model_pieces_are_relayed_in_order_with_the_tool_event(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    pieces = ["Alpha ", "is ", "the ", "first ", "note."]
    scripted.then(text("".join(pieces), pieces=pieces))  # the backend itself reads the note
    events = _stream(model_backend, "summarise this", model_backend.key())
    assert [name for name, _ in events] == ["tool"] + ["delta"] * len(pieces) + ["done"]
    assert [data["text"] for name, data in events if name == "delta"] == pieces
    assert events[0][1]["result"]["status"] == "ok"
    done = events[-1][1]
    assert done["reply"] == "".join(pieces)
    assert done["assistant"] == {"kind": "model", "model": MODEL_ID}
    assert [c["name"] for c in done["toolCalls"]] == ["read_active_note"]
    assert all(request.body["stream"] is True for request in scripted.chat_requests)


@pytest.mark.parametrize(
    "reply", [error(401), error(429), error(502), Reply(body=b"data: {broken\n\n")]
)
def test_r36_streamed_failure_is_an_error_event(
    model_backend: Backend, scripted: ScriptedModel, reply: Reply
) -> None:
    scripted.then(reply)
    events = _stream(model_backend, "summarise this", model_backend.key())
    # The backend's own read of the note, then the model's failure (R75).
    assert [name for name, _ in events] == ["tool", "error"]
    failure = events[1][1]["error"]
    assert failure["code"] == "model_unavailable"
    assert scripted.url.removeprefix("http://").removesuffix("/v1") in failure["message"]


def test_r35_a_refused_key_session_is_an_error_event_too(backend: Backend) -> None:
    events = _stream(backend, "summarise this", "not-a-key")
    assert [name for name, _ in events] == ["error"]
    assert events[0][1]["error"]["code"].startswith("key_session")


@pytest.fixture
def running(tmp_path: Path, scripted: ScriptedModel) -> Iterator[EmbeddedServer]:
    make_workspace(tmp_path, WORKSPACE, NOTES)
    settings = Settings(
        data_dir=tmp_path, device_token=DEVICE_TOKEN, model_base_url=scripted.url, model=MODEL_ID
    )
    server = EmbeddedServer(settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_r35_a_client_that_goes_away_stops_the_turn(
    running: EmbeddedServer, scripted: ScriptedModel
) -> None:
    # After its first piece the model waits; were the turn to go on, its tool call
    # would make a second model call.
    scripted.then(
        Reply(
            content="Reading ", tool_calls=[("list_documents", "{}")], stall_after_first_piece=True
        ),
        text("never asked"),
    )
    with BackendClient(running.url, DEVICE_TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        stream = client.stream_turn("c1", "summarise this", session=session, ambient_header=None)
        events = iter(stream)
        assert next(events) == DeltaEvent("Reading ")
        stream.cancel()
        assert list(events) == []
        assert scripted.client_went_away.wait(10)  # the backend closed its model stream
        running.stop()  # joins the turn's worker thread
        assert len(scripted.chat_requests) == 1
    with BackendClient(running.start(), DEVICE_TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        assert client.get_conversation(session, "c1") == []  # a stopped turn is not kept


def test_r35_a_client_that_stops_mid_stream_leaves_no_failed_writes_behind(
    running: EmbeddedServer, scripted: ScriptedModel, caplog: pytest.LogCaptureFixture
) -> None:
    """Stop during a fast stream: the backend notices the closed socket before writing on.

    Pieces that had queued up were all written to the dead socket, each one logging
    asyncio's "socket.send() raised exception." on the user's terminal.
    """
    scripted.default = lambda _body: text("A reply that streams in many small pieces. " * 40)
    with BackendClient(running.url, DEVICE_TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        for attempt in range(5):
            stream = client.stream_turn(
                f"c{attempt}", "hello", session=session, ambient_header=None
            )
            assert isinstance(next(iter(stream)), DeltaEvent)
            stream.cancel()
    running.stop()  # joins the server and every turn's worker thread: all writes are done
    failed_writes = [r for r in caplog.records if "socket.send() raised" in r.getMessage()]
    assert failed_writes == []


def test_r40_health_answers_while_a_streamed_turn_waits_on_the_model(
    running: EmbeddedServer, scripted: ScriptedModel
) -> None:
    scripted.then(Reply(content="Slow ", stall_after_first_piece=True))
    with BackendClient(running.url, DEVICE_TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        stream = client.stream_turn("c1", "hello", session=session, ambient_header=None)
        events = iter(stream)
        assert next(events) == DeltaEvent("Slow ")
        assert requests.get(f"{running.url}/v1/health", timeout=5).status_code == 200
        stream.cancel()
        assert scripted.client_went_away.wait(10)


def test_r35_bridge_stream_yields_tool_delta_and_done(
    running: EmbeddedServer, scripted: ScriptedModel
) -> None:
    scripted.then(tool("list_documents"), text("You have three notes."))
    with BackendClient(running.url, DEVICE_TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        ambient = pointer_header(NOTE, NOTES[NOTE])
        events = list(client.stream_turn("c1", "list", session=session, ambient_header=ambient))
    assert isinstance(events[0], ToolEvent) and events[0].call.name == "list_documents"
    assert isinstance(events[-1], DoneEvent)
    assert events[-1].answer.reply == "You have three notes."
    assert events[-1].answer.assistant.kind == "model"
    assert events[-1].answer.assistant.model == MODEL_ID
    assert "".join(e.text for e in events if isinstance(e, DeltaEvent)) == "You have three notes."
    assert not any(isinstance(e, ErrorEvent) for e in events)


def test_r35_an_endpoint_that_cannot_stream_with_tools_is_asked_plainly(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    """A server that closes a streamed "auto" request before its first piece (R57)."""
    scripted.then(
        Reply(empty_stream=True),
        tool("list_documents"),
        text("Two notes."),
        text("Again."),
    )
    key = model_backend.key()
    events = _stream(model_backend, "list my notes", key)
    names = [name for name, _ in events]
    assert names[0] == "tool" and names[-1] == "done" and set(names[1:-1]) == {"delta"}
    assert events[-1][1]["reply"] == "Two notes."
    # After its one unstreamed "auto" request, the answer is streamed without tools.
    assert [r.body["stream"] for r in scripted.chat_requests] == [True, False, True]
    assert "tools" not in scripted.chat_requests[-1].body
    _stream(model_backend, "and again", key, conversation="s2")
    assert scripted.chat_requests[-1].body["stream"] is False  # remembered, not re-tried


def test_r32_tool_call_pieces_that_repeat_the_name_make_one_call(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(
        tool("read_document", '{"path": "notes/b.md"}', repeat_tool_name=True),
        text("Beta."),
    )
    events = _stream(model_backend, "read notes/b.md", model_backend.key())
    tool_event = events[0][1]
    assert tool_event["name"] == "read_document"
    assert tool_event["arguments"] == {"path": "notes/b.md"}
    assert tool_event["result"]["status"] == "ok"
