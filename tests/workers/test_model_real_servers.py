"""The model path against servers as they really behave (R57, R31, R32, R35).

The scripted peer plays llama-cpp-python's server: it resets a streamed request
with tool choice "auto" once the model picks a tool (a real TCP reset), streams a
named tool choice and plain answers, and decides the same way when asked again.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.agent import DeltaEvent, DoneEvent, ErrorEvent, ToolEvent, TurnEvent
from bridge.client import BackendClient
from tests.support.backend import make_workspace
from tests.support.scripted_model import MODEL_ID, Reply, ScriptedModel, text, tool
from tests.workers.conftest import DEVICE_TOKEN, NOTES, WORKSPACE, pointer_header
from workers.model.assistant import MAX_ANSWER_TOKENS, REPEATED_CALL
from workers.server import EmbeddedServer
from workers.settings import Settings

NOTE = "notes/a.md"
WAIT_SECONDS = 10.0


@pytest.fixture
def llama() -> Iterator[ScriptedModel]:
    model = ScriptedModel(like_llama_cpp=True)
    model.start()
    try:
        yield model
    finally:
        model.close()


@pytest.fixture
def client(tmp_path: Path, llama: ScriptedModel) -> Iterator[BackendClient]:
    make_workspace(tmp_path, WORKSPACE, NOTES)
    settings = Settings(
        data_dir=tmp_path,
        device_token=DEVICE_TOKEN,
        model_base_url=llama.url,
        model=MODEL_ID,
        model_read_timeout_seconds=WAIT_SECONDS,
    )
    with EmbeddedServer(settings) as server, BackendClient(server.url, DEVICE_TOKEN) as backend:
        yield backend


def _turn(client: BackendClient, message: str, conversation: str = "c") -> list[TurnEvent]:
    session = client.open_key_session(WORKSPACE)
    header = pointer_header(NOTE, NOTES[NOTE])
    return list(client.stream_turn(conversation, message, session=session, ambient_header=header))


def _streamed(llama: ScriptedModel) -> list[bool]:
    return [bool(request.body.get("stream")) for request in llama.chat_requests]


def test_r57_the_peer_resets_a_streamed_auto_tool_request_as_llama_cpp_does(
    llama: ScriptedModel,
) -> None:
    """The fault is a TCP reset after the 200 headers, not a clean close."""
    llama.then(tool("list_documents"))
    listing = {"type": "function", "function": {"name": "list_documents", "parameters": {}}}
    fields = {"model": MODEL_ID, "messages": [], "stream": True, "tool_choice": "auto"}
    body = json.dumps({**fields, "tools": [listing]})
    port = int(llama.url.rsplit(":", 1)[1].split("/")[0])
    request = (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
        f"\r\nContent-Length: {len(body)}\r\n\r\n{body}"
    ).encode()
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as raw:
        raw.sendall(request)
        with pytest.raises(ConnectionResetError):
            while piece := raw.recv(4096):
                received += piece
    assert llama.resets == 1
    assert not received or received.startswith(b"HTTP/1.1 200")


def test_r57_a_reset_streamed_request_is_asked_again_plainly_on_the_first_turn(
    client: BackendClient, llama: ScriptedModel
) -> None:
    llama.then(tool("list_documents"), text("You have two notes."))
    events = _turn(client, "list my notes")
    assert not [event for event in events if isinstance(event, ErrorEvent)], events
    assert isinstance(events[0], ToolEvent)
    assert all(isinstance(event, DeltaEvent) for event in events[1:-1]) and len(events) > 2
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.answer.reply == "You have two notes."
    assert llama.resets == 1
    # Streamed and reset, asked again without streaming, then remembered for the endpoint;
    # after that one unstreamed "auto" request the answer is asked streamed, without tools.
    assert _streamed(llama) == [True, False, True]
    assert "tools" not in llama.chat_requests[-1].body  # R75: a text-only step offers none
    llama.then(text("Hello again."))
    again = _turn(client, "hello", conversation="d")
    assert isinstance(again[-1], DoneEvent) and again[-1].answer.reply == "Hello again."
    assert _streamed(llama)[-1] is False
    assert llama.resets == 1


def test_r57_r75_an_unnamed_request_reads_the_note_then_is_answered_from_it(
    client: BackendClient, llama: ScriptedModel
) -> None:
    """The backend reads the note; one streamed request, without tools, answers (R75)."""
    llama.then(text("Alpha is the first note."))
    events = _turn(client, "summarise this")
    [read] = [event.call for event in events if isinstance(event, ToolEvent)]
    assert read.name == "read_active_note" and read.result["text"] == NOTES[NOTE]
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.answer.reply == "Alpha is the first note."
    assert len([event for event in events if isinstance(event, DeltaEvent)]) > 1  # streamed
    [only] = (request.body for request in llama.chat_requests)
    assert "tools" not in only and "tool_choice" not in only and only["stream"] is True
    assert llama.resets == 0


def test_r57_compare_reads_the_open_note_first_then_the_model_chooses(
    client: BackendClient, llama: ScriptedModel
) -> None:
    llama.then(tool("read_document", '{"path": "notes/b.md"}'), text("Alike."))
    events = _turn(client, "compare this with notes/b.md")
    calls = [event.call.name for event in events if isinstance(event, ToolEvent)]
    assert calls == ["read_active_note", "read_document"]  # the first one the backend's
    choices = [request.body.get("tool_choice") for request in llama.chat_requests]
    # The first is reset and asked again; after that unstreamed "auto" request, the answer
    # is asked streamed without tools, so it is capped and stops with the turn.
    assert choices == ["auto", "auto", None]


def test_r57_a_note_named_by_its_title_is_left_to_the_model(
    client: BackendClient, llama: ScriptedModel
) -> None:
    """ "summarise beta" names notes/b.md (# Beta): the open note is not forced on the model."""
    llama.then(text("Beta."))
    _turn(client, "summarise beta")
    assert llama.chat_requests[0].body["tool_choice"] == "auto"


@pytest.mark.parametrize(
    "message",
    [
        "summarise this",
        "what's still open here?",
        "résume cette note",
        "fasse diese Notiz zusammen",
        "resume esta nota",
        "このノートを要約して",
        "总结这个笔记",
        "이 노트 요약해줘",
        "compare this with notes/b.md",
    ],
)
def test_r57_r75_a_request_that_names_no_note_reads_the_open_note_first(
    client: BackendClient, llama: ScriptedModel, message: str
) -> None:
    llama.then(text("Done."))
    events = _turn(client, message)
    assert isinstance(events[-1], DoneEvent), events
    assert isinstance(events[0], ToolEvent) and events[0].call.name == "read_active_note"
    assert events[0].call.result["text"] == NOTES[NOTE]
    if "compare" not in message:  # R75: the note alone answers it, in one request
        [only] = llama.chat_requests
        assert "tools" not in only.body


@pytest.mark.parametrize("message", ["hello", "summarise notes/b.md", "list my notes"])
def test_r57_other_requests_let_the_model_choose(
    client: BackendClient, llama: ScriptedModel, message: str
) -> None:
    llama.then(text("Fine."))
    _turn(client, message)
    assert llama.chat_requests[0].body["tool_choice"] == "auto"


def test_r57_every_request_caps_its_answer(client: BackendClient, llama: ScriptedModel) -> None:
    llama.then(tool("list_documents"), text("Two notes."))
    _turn(client, "compare this with notes/b.md")
    assert len(llama.chat_requests) == 3  # reset, asked plainly, the answer
    assert {request.body.get("max_tokens") for request in llama.chat_requests} == {1024}
    assert MAX_ANSWER_TOKENS == 1024


def test_r57_a_repeated_tool_call_ends_the_turn_with_a_text_answer(
    client: BackendClient, llama: ScriptedModel
) -> None:
    llama.then(tool("read_active_note", "{ }"), text("Alpha, briefly."))
    events = _turn(client, "compare this with notes/b.md")
    calls = [event.call.name for event in events if isinstance(event, ToolEvent)]
    assert calls == ["read_active_note"]  # the repeat (the same call, spaced otherwise) is not run
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.answer.reply == "Alpha, briefly."
    last = llama.chat_requests[-1].body
    assert "tools" not in last and last["stream"] is True
    # The repeated call is not in what the model was sent back.
    assert [m["role"] for m in last["messages"]] == ["system", "user", "assistant", "tool"]


def test_r57_a_model_that_only_repeats_gets_a_plain_reply(
    client: BackendClient, llama: ScriptedModel
) -> None:
    """Tool calls sent even when told "none" (some servers do) are not run either."""
    llama.default = lambda _body: tool("read_active_note")
    events = _turn(client, "compare this with notes/b.md")
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.answer.reply == REPEATED_CALL.format(tool="read_active_note")
    assert len([event for event in events if isinstance(event, ToolEvent)]) == 1
    # The backend's read; the repeat (reset, then asked plainly); the text-only request.
    assert [request.body.get("tool_choice") for request in llama.chat_requests] == [
        "auto",
        "auto",
        None,
    ]


def test_r57_a_tool_refused_twice_in_a_row_ends_the_guessing(
    client: BackendClient, llama: ScriptedModel
) -> None:
    """SmolLM2 guesses paths ("file.txt", "notes/plan.md&#34;") until the call limit.

    On llama-cpp-python the guessing ends after the one unstreamed "auto" request of
    a turn: the answer is then asked streamed, without tools (R57).
    """
    llama.then(
        tool("read_document", '{"path": "file.txt"}'),
        text("I could not find it."),
    )
    events = _turn(client, "hello")
    calls = [event.call for event in events if isinstance(event, ToolEvent)]
    assert [call.result["status"] for call in calls] == ["not_found"]
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.answer.reply == "I could not find it."
    assert "tools" not in llama.chat_requests[-1].body
    assert _streamed(llama)[-1] is True


def test_r57_stopping_a_plain_request_closes_its_connection(
    client: BackendClient, llama: ScriptedModel
) -> None:
    """A request asked without streaming still ends when the user stops the turn."""
    llama.then(tool("list_documents"), text("Two notes."))
    _turn(client, "list my notes")  # the endpoint is now known not to stream "auto"
    llama.then(Reply(stall=True))
    session = client.open_key_session(WORKSPACE)
    header = pointer_header(NOTE, NOTES[NOTE])
    stream = client.stream_turn("c", "list my notes", session=session, ambient_header=header)
    events: list[TurnEvent] = []
    reader = threading.Thread(target=lambda: events.extend(stream))
    reader.start()
    try:
        assert llama.stalled.wait(WAIT_SECONDS)
        assert _streamed(llama)[-1] is False  # the stalled request is the plain retry
        stream.cancel()
        assert llama.client_went_away.wait(WAIT_SECONDS)
    finally:
        llama.release.set()
        reader.join(WAIT_SECONDS)
    assert not reader.is_alive()
    assert not [event for event in events if isinstance(event, DoneEvent)]


def test_r31_the_retried_request_holds_no_note_text_outside_tool_results(
    client: BackendClient, llama: ScriptedModel
) -> None:
    llama.then(tool("list_documents"), text("Two notes."))
    _turn(client, "compare this with notes/b.md")
    lines = [line for line in NOTES[NOTE].splitlines() if len(line) > 4]
    for request in llama.chat_requests:
        for message in request.body["messages"]:
            content: Any = message.get("content")
            if message["role"] != "tool":
                assert not any(line in str(content) for line in lines)


def test_r75_a_forced_call_offers_that_tool_alone_without_max_bytes(
    tmp_path: Path, llama: ScriptedModel
) -> None:
    """The settings knob forcing a first tool: its schema has no maxBytes for a guess."""
    make_workspace(tmp_path, WORKSPACE, NOTES)
    settings = Settings(
        data_dir=tmp_path,
        device_token=DEVICE_TOKEN,
        model_base_url=llama.url,
        model=MODEL_ID,
        model_first_tool_choice="read_document",
    )
    llama.then(tool("read_document", '{"path": "notes/b.md"}'), text("Beta."))
    with EmbeddedServer(settings) as server, BackendClient(server.url, DEVICE_TOKEN) as backend:
        events = _turn(backend, "hello")
    assert isinstance(events[-1], DoneEvent) and events[-1].answer.reply == "Beta."
    forced, answer = (request.body for request in llama.chat_requests)
    assert forced["tool_choice"] == {"type": "function", "function": {"name": "read_document"}}
    [schema] = [t["function"]["parameters"] for t in forced["tools"]]
    assert set(schema["properties"]) == {"path"}
    assert "maxBytes" in json.dumps(answer.get("tools", []))  # the model may choose it later
