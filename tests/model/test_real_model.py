"""The model assistant end to end against a real local model server (contract 9, R30–R36, R57).

A model this small (SmolLM2-135M) has poor judgement, so these tests assert what it
really does with the protocol and the privacy rules, not the quality of its answers:
a turn completes without an error, streams, and reads the note when the first call
names ``read_active_note`` (the product does so for a request that names no note;
a settings knob forces it for any request). A reply the backend wrote because the
model gave none (``STOP_MESSAGES``) is never counted as an answer. Every request the
backend sends passes a recording proxy, so the tests see exactly what the model was
told.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.agent import DeltaEvent, DoneEvent, ErrorEvent, WireToolEvent
from bridge.client import BackendClient
from bridge.pointer import encode_header, fingerprint
from tests.support.backend import make_workspace
from tests.support.pointers import make_pointer
from tests.support.recording_proxy import RecordingProxy, recording_proxy
from workers.model.assistant import STOP_MESSAGES
from workers.server import EmbeddedServer
from workers.settings import Settings

pytestmark = pytest.mark.model

TOKEN = "model-test-token"
WORKSPACE = "demo"
NOTE = "notes/plan.md"
NOTE_TEXT = (
    "# Launch plan\n"
    "The zebra-orchid launch moves to Thursday after the venue call.\n"
    "- [ ] book the quartz room\n"
    "- [x] send invitations\n"
)
SECRET_LINES = [line for line in NOTE_TEXT.splitlines() if len(line) > 12]


def _header() -> str:
    size, digest = fingerprint(NOTE_TEXT)
    header = encode_header(make_pointer(NOTE, bytes=size, sha256=digest, selection=None))
    assert header is not None
    return header


@pytest.fixture
def proxy(model_server: tuple[str, str]) -> Iterator[RecordingProxy]:
    with recording_proxy(model_server[0]) as running:
        yield running


def _backend(tmp_path: Path, proxy: RecordingProxy, model: str, first_tool: str) -> EmbeddedServer:
    make_workspace(tmp_path, WORKSPACE, {NOTE: NOTE_TEXT, "notes/other.md": "# Other\n"})
    settings = Settings(
        data_dir=tmp_path,
        device_token=TOKEN,
        model_base_url=proxy.url,
        model=model,
        model_first_tool_choice=first_tool,
    )
    return EmbeddedServer(settings)


@pytest.fixture
def forced(
    tmp_path: Path, proxy: RecordingProxy, model_server: tuple[str, str]
) -> Iterator[EmbeddedServer]:
    with _backend(tmp_path, proxy, model_server[1], "read_active_note") as server:
        yield server


@pytest.fixture
def product(
    tmp_path: Path, proxy: RecordingProxy, model_server: tuple[str, str]
) -> Iterator[EmbeddedServer]:
    with _backend(tmp_path, proxy, model_server[1], "auto") as server:
        yield server


def _requests(proxy: RecordingProxy) -> list[dict[str, object]]:
    return [json.loads(body) for body in proxy.recorded() if body]


def _is_answer(reply: str) -> bool:
    """Text the model wrote: not empty, and not one of the backend's stop messages."""
    heads = [message.split("{", 1)[0] for message in STOP_MESSAGES]
    return bool(reply.strip()) and not any(head in reply for head in heads)


def test_r31_r32_a_real_read_active_note_call_and_no_note_text_before_it(
    forced: EmbeddedServer, proxy: RecordingProxy
) -> None:
    with BackendClient(forced.url, TOKEN, read_timeout=300) as client:
        session = client.open_key_session(WORKSPACE)
        reply = client.post_turn("c1", "summarise this", session=session, ambient_header=_header())
    assert reply.assistant_kind == "model"
    assert [call.name for call in reply.tool_calls][:1] == ["read_active_note"]
    first = reply.tool_calls[0]
    assert first.result["status"] == "ok"
    assert first.result["text"] == NOTE_TEXT
    assert _is_answer(reply.reply), reply.reply
    sent = _requests(proxy)
    first_request = json.dumps(sent[0])
    assert NOTE in first_request  # R31: the model is told which note is open …
    for line in SECRET_LINES:  # … and not one line of it
        assert line not in first_request
    # The note's text reached the model only inside a role "tool" message.
    for request in sent[1:]:
        for message in request["messages"]:  # type: ignore[attr-defined]
            if any(line in str(message.get("content")) for line in SECRET_LINES):
                assert message["role"] == "tool"
            if message["role"] == "assistant" and message.get("tool_calls"):
                assert message["content"] == ""


def test_r35_streamed_deltas_arrive_and_done_matches_them(
    forced: EmbeddedServer, proxy: RecordingProxy
) -> None:
    with BackendClient(forced.url, TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        stream = client.stream_turn(
            "c2", "summarise this", session=session, ambient_header=_header()
        )
        events = list(stream)
    assert not [e for e in events if isinstance(e, ErrorEvent)], events
    assert isinstance(events[0], WireToolEvent)
    assert events[0].call.name == "read_active_note"
    deltas = [e.text for e in events if isinstance(e, DeltaEvent)]
    assert deltas
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.reply.reply == "".join(deltas)
    assert _is_answer(done.reply.reply), done.reply.reply
    assert _requests(proxy)[0]["stream"] is True


def test_r57_the_product_reads_the_note_for_summarise_this_and_answers(
    product: EmbeddedServer, proxy: RecordingProxy
) -> None:
    """What `make run-model` does with its first question: no error, a streamed answer."""
    with BackendClient(product.url, TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        events = list(
            client.stream_turn("c4", "summarise this", session=session, ambient_header=_header())
        )
    assert not [e for e in events if isinstance(e, ErrorEvent)], events
    assert isinstance(events[0], WireToolEvent) and events[0].call.name == "read_active_note"
    assert events[0].call.result["text"] == NOTE_TEXT
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.reply.reply == "".join(e.text for e in events if isinstance(e, DeltaEvent))
    assert _is_answer(done.reply.reply), done.reply.reply
    sent = _requests(proxy)
    assert sent[0]["tool_choice"] == {"type": "function", "function": {"name": "read_active_note"}}
    assert all(request["max_tokens"] == 1024 for request in sent)


def test_r57_every_turn_of_a_conversation_completes(
    product: EmbeddedServer, proxy: RecordingProxy
) -> None:
    """Whatever the model picks with tool choice "auto", no turn ends in an error."""
    with BackendClient(product.url, TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        for message in ("hello", "summarise this", "which notes do I have?"):
            events = list(
                client.stream_turn("c5", message, session=session, ambient_header=_header())
            )
            assert not [e for e in events if isinstance(e, ErrorEvent)], (message, events)
            assert isinstance(events[-1], DoneEvent), (message, events)


def test_r31_an_auto_turn_sends_no_note_text_unless_a_tool_reads_it(
    product: EmbeddedServer, proxy: RecordingProxy
) -> None:
    with BackendClient(product.url, TOKEN) as client:
        session = client.open_key_session(WORKSPACE)
        events = list(client.stream_turn("c3", "hello", session=session, ambient_header=_header()))
        history = client.get_conversation(session, "c3")
    done = events[-1]
    assert isinstance(done, DoneEvent), events
    assert done.reply.assistant_model is not None
    sent = _requests(proxy)
    assert sent[0]["tool_choice"] == "auto"
    for request in sent:
        for message in request["messages"]:  # type: ignore[attr-defined]
            if message["role"] != "tool":
                assert not any(line in str(message.get("content")) for line in SECRET_LINES)
    # R34: the turn is kept, without any tool result.
    assert [m.role for m in history] == ["user", "assistant"]
    if not done.reply.tool_calls:  # nothing was read, so nothing of the note can be kept
        assert not any(line in history[1].text for line in SECRET_LINES)


def test_r37_verify_accepts_the_real_server(
    product: EmbeddedServer, model_server: tuple[str, str]
) -> None:
    with BackendClient(product.url, TOKEN) as client:
        result = client.verify_assistant(model_server[0], model_server[1], None)
    assert result.ok, result.message
    assert model_server[1] in result.models


def test_r70_an_inline_request_asks_the_real_model_once_streamed_without_tools(
    product: EmbeddedServer, proxy: RecordingProxy
) -> None:
    from bridge.inline import InlineDoneEvent, InlineRequest

    request = InlineRequest(
        "make this upper case", NOTE, "# Launch plan\n", "- [ ] book the quartz room\n", "", (1, 2)
    )
    with BackendClient(product.url, TOKEN, read_timeout=300) as client:
        session = client.open_key_session(WORKSPACE)
        events = list(client.stream_inline(session, request).events())
        history = client.inline_history(session, 10)
    done = events[-1]
    assert isinstance(done, InlineDoneEvent), events
    pieces = "".join(event.text for event in events if isinstance(event, DeltaEvent))
    assert done.answer.kind == "edit" and done.answer.replacement.strip()
    assert pieces.strip("\n`") != "" and done.answer.assistant_kind == "model"
    (asked,) = _requests(proxy)
    assert asked["stream"] is True and "tools" not in asked
    assert 0 < int(str(asked["max_tokens"])) <= 4096
    said = json.dumps(asked["messages"])
    assert "book the quartz room" in said
    assert "zebra-orchid" not in said  # only the slice, never the rest of the note (R69)
    assert [record.outcome for record in history] == ["pending"]
