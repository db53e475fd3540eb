"""The model assistant end to end against a real local model server (contract 9, R30–R36, R57).

A model this small (SmolLM2-135M) has poor judgement, so most of these tests assert
what it really does with the protocol and the privacy rules: a turn completes without
an error, streams, and the backend reads the note itself for a request that names
none (a settings knob forces it for any request). What counts is what the model is
shown (R75): the server's own token count of a request is that of the prompt the
project's chat handler renders, the note's text is in it unescaped, and a word planted
in the note comes back in the answers. A reply the backend wrote because the model
gave none (``STOP_MESSAGES``) is never counted as an answer. Every request the
backend sends passes a recording proxy, so the tests see exactly what the model was
told.
"""

from __future__ import annotations

import json
import re
import secrets
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from bridge.agent import DeltaEvent, DoneEvent, ErrorEvent, ToolEvent
from bridge.client import BackendClient
from bridge.pointer import encode_header, fingerprint
from tests.support.backend import make_workspace
from tests.support.pointers import make_pointer
from tests.support.recording_proxy import RecordingProxy, recording_proxy
from workers.model import chatml
from workers.model.assistant import STOP_MESSAGES
from workers.model.prompt import INSTRUCTIONS
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
    assert reply.assistant.kind == "model"
    assert [call.name for call in reply.tool_calls][:1] == ["read_active_note"]
    first = reply.tool_calls[0]
    assert first.result["status"] == "ok"
    assert first.result["text"] == NOTE_TEXT
    assert _is_answer(reply.reply), reply.reply
    sent = _requests(proxy)
    assert len(sent) == 1  # R75: the backend read the note; one request for the answer
    assert NOTE in json.dumps(sent[0])  # R31: the model is told which note is open …
    for request in sent:  # … and its text reaches the model only as that tool's result
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
    assert isinstance(events[0], ToolEvent)
    assert events[0].call.name == "read_active_note"
    deltas = [e.text for e in events if isinstance(e, DeltaEvent)]
    assert deltas
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.answer.reply == "".join(deltas)
    assert _is_answer(done.answer.reply), done.answer.reply
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
    assert isinstance(events[0], ToolEvent) and events[0].call.name == "read_active_note"
    assert events[0].call.result["text"] == NOTE_TEXT
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.answer.reply == "".join(e.text for e in events if isinstance(e, DeltaEvent))
    assert _is_answer(done.answer.reply), done.answer.reply
    [sent] = _requests(proxy)  # R75: one model request, offering no tools
    assert "tools" not in sent and sent["stream"] is True
    assert sent["max_tokens"] == 1024


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
    assert done.answer.assistant.model is not None
    sent = _requests(proxy)
    assert sent[0]["tool_choice"] == "auto"
    for request in sent:
        for message in request["messages"]:  # type: ignore[attr-defined]
            if message["role"] != "tool":
                assert not any(line in str(message.get("content")) for line in SECRET_LINES)
    # R34: the turn is kept, without any tool result.
    assert [m.role for m in history] == ["user", "assistant"]
    if not done.answer.tool_calls:  # nothing was read, so nothing of the note can be kept
        assert not any(line in history[1].text for line in SECRET_LINES)


def test_r37_verify_accepts_the_real_server(
    product: EmbeddedServer, model_server: tuple[str, str]
) -> None:
    with BackendClient(product.url, TOKEN) as client:
        result = client.verify_assistant(model_server[0], model_server[1], None)
    assert result.ok, result.message
    assert model_server[1] in result.models


ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|quot|amp|lt|gt|apos);")
"""An HTML entity: what llama-cpp-python's chatml-function-calling made the model write."""


PLANTED_WORDS = (
    "kumquat", "marzipan", "walrus", "saffron", "lantern", "pelican", "nutmeg", "falcon",
    "tangerine", "bagpipe", "cobalt", "sardine", "juniper", "mongoose", "paprika", "quokka",
)  # fmt: skip
"""Real words, one drawn at random per turn: a model reads them as words, not noise."""


def _planted(word: str) -> str:
    return NOTE_TEXT.replace("zebra-orchid", word)


def _root(base_url: str) -> str:
    return base_url.removesuffix("/v1")


def _tokens(model_server: tuple[str, str], text: str) -> int:
    response = requests.post(
        f"{_root(model_server[0])}/extras/tokenize/count", json={"input": text}, timeout=60
    )
    response.raise_for_status()
    count: int = response.json()["count"]
    return count


def _stream_turn(server: EmbeddedServer, conversation: str, message: str, note: str) -> list[Any]:
    size, digest = fingerprint(note)
    header = encode_header(make_pointer(NOTE, bytes=size, sha256=digest, selection=None))
    with BackendClient(server.url, TOKEN, read_timeout=300) as client:
        session = client.open_key_session(WORKSPACE)
        return list(
            client.stream_turn(conversation, message, session=session, ambient_header=header)
        )


def _write_note(tmp_path: Path, text: str) -> None:
    (tmp_path / "workspaces" / WORKSPACE / NOTE).write_text(text, encoding="utf-8")


def test_r75_the_server_shows_the_model_the_prompt_the_handler_renders(
    product: EmbeddedServer, proxy: RecordingProxy, model_server: tuple[str, str]
) -> None:
    """The real server's own count of a request's prompt is that of chatml.render's text."""
    events = _stream_turn(product, "render", "summarise this", NOTE_TEXT)
    assert isinstance(events[-1], DoneEvent), events
    [sent] = _requests(proxy)
    shown = chatml.render(sent["messages"])  # type: ignore[arg-type]
    assert NOTE_TEXT in shown and "&#34;" not in shown  # the note, as it is
    again = {**sent, "stream": False, "max_tokens": 1}
    answer = requests.post(f"{model_server[0]}/chat/completions", json=again, timeout=300)
    answer.raise_for_status()
    assert answer.json()["usage"]["prompt_tokens"] == _tokens(model_server, shown)


def test_r75_a_word_planted_in_the_note_comes_back(
    tmp_path: Path, product: EmbeddedServer, proxy: RecordingProxy
) -> None:
    """Three fresh turns, a new random word each time: it comes back in at least 2 of 3."""
    came_back = 0
    replies = []
    for attempt in range(3):
        word = secrets.choice(PLANTED_WORDS)
        note = _planted(word)
        _write_note(tmp_path, note)
        events = _stream_turn(product, f"planted-{attempt}", "summarise this", note)
        done = events[-1]
        assert isinstance(done, DoneEvent), events
        assert events[0].call.result["text"] == note
        streamed = "".join(e.text for e in events if isinstance(e, DeltaEvent))
        assert not ENTITY.search(streamed), streamed  # R75: nothing escaped, nothing echoed
        replies.append(streamed)
        came_back += word in streamed
    assert came_back >= 2, replies
    assert len(_requests(proxy)) == 3  # one model request per note-only ask


@pytest.mark.parametrize(
    "message",
    ["tick off book the quartz room", "add a task: buy milk", "rename the first heading to Plan"],
)
def test_r75_edit_asks_reach_propose_note_edit_on_the_model_path(
    product: EmbeddedServer, proxy: RecordingProxy, message: str
) -> None:
    events = _stream_turn(product, "edit", message, NOTE_TEXT)
    assert not [e for e in events if isinstance(e, ErrorEvent)], events
    calls = [e.call for e in events if isinstance(e, ToolEvent)]
    assert [call.name for call in calls] == ["read_active_note", "propose_note_edit"]
    done = events[-1]
    assert isinstance(done, DoneEvent)
    [proposal] = done.answer.proposals  # the proposal flows as on the offline path
    assert proposal.path == NOTE
    propose = _requests(proxy)[0]
    assert propose["tool_choice"] == {"type": "function", "function": {"name": "propose_note_edit"}}


SIXTEEN_ASKS = (
    "summarise this",
    "what's still open here?",
    "what is this note about?",
    "when does the launch happen?",
    "where do I mention the venue?",
    "tick off book the quartz room",
    "add a task: buy milk",
    "rename the first heading to Plan",
    "which notes do I have?",
    "hello",
    "list the tasks in this note",
    "résume cette note",
    "fasse diese Notiz zusammen",
    "このノートを要約して",
    "what did I decide about the venue?",
    "can you make this note shorter?",
)
"""Everyday asks, in one conversation (the figures in docs/dev/performance.md come from these)."""


def test_r75_a_conversation_of_sixteen_asks_never_echoes_a_stop_message(
    product: EmbeddedServer, proxy: RecordingProxy
) -> None:
    heads = [message.split("{", 1)[0] for message in STOP_MESSAGES]
    for message in SIXTEEN_ASKS:
        before = len(_requests(proxy))
        events = _stream_turn(product, "sixteen", message, NOTE_TEXT)
        assert not [e for e in events if isinstance(e, ErrorEvent)], (message, events)
        for request in _requests(proxy)[before:]:
            for sent in request["messages"]:  # type: ignore[attr-defined]
                if sent["role"] == "assistant":
                    assert not any(head in str(sent["content"]) for head in heads), sent
                    # Nor a call written as text, which the model would copy (R75).
                    assert chatml.CALL_PREFIX not in str(sent["content"]), sent


def _first_delta_seconds(action: Any) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


MEETING_NOTE = (
    "# Venue call, Tuesday\n"
    "Present: Ana, Bo, Chen. The launch stays on Thursday; doors open at six.\n"
    "\n"
    "## Decisions\n"
    "- The quartz room holds 120 people, enough for the guest list.\n"
    "- Catering is the bakery on Elm Street; Bo confirms the menu by Friday.\n"
    "- No stage: the talks are short and happen by the windows.\n"
    "\n"
    "## Open\n"
    "- [ ] book the quartz room (Ana)\n"
    "- [ ] send the floor plan to the caterer\n"
    "- [x] send invitations\n"
    "- [ ] ask about parking for the band\n"
)
"""A note of the size a person summarises (about 600 bytes), for the timing below."""


def test_r75_first_delta_through_the_backend_is_within_twice_one_direct_request(
    tmp_path: Path, product: EmbeddedServer, model_server: tuple[str, str]
) -> None:
    """Summarise this: the backend's first delta against one request that carries the note."""
    _write_note(tmp_path, MEETING_NOTE)
    size, digest = fingerprint(MEETING_NOTE)
    header = encode_header(make_pointer(NOTE, bytes=size, sha256=digest, selection=None))
    direct = {
        "model": model_server[1],
        "stream": True,
        "max_tokens": 1024,
        "messages": [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": f"{MEETING_NOTE}\n\nsummarise this"},
        ],
    }

    def through_backend() -> None:
        with BackendClient(product.url, TOKEN, read_timeout=300) as client:
            session = client.open_key_session(WORKSPACE)
            stream = client.stream_turn(
                "delta", "summarise this", session=session, ambient_header=header
            )
            for event in stream:
                if isinstance(event, DeltaEvent):
                    stream.cancel()
                    break

    def straight() -> None:
        with requests.post(
            f"{model_server[0]}/chat/completions", json=direct, stream=True, timeout=300
        ) as response:
            for line in response.iter_lines():
                if b'"content": "' in line and b'"content": ""' not in line:
                    break

    through_backend()  # warm: the backend's SDK client and the server's first request
    straight()
    ratios = []
    for _ in range(3):
        backend = _first_delta_seconds(through_backend)
        one = _first_delta_seconds(straight)
        ratios.append(backend / one)
    print(f"first delta, backend / direct: {ratios}")  # for docs/dev/performance.md's figures (-s)
    assert statistics.median(ratios) <= 2, ratios


NOTE_ALLOWANCE_TOKENS = 600
"""What a note-only turn may show the model beyond the note: instructions, the open
note's name, the ask, the call and the result's fields."""


def test_r75_prompt_tokens_of_a_note_only_turn_are_the_note_plus_an_allowance(
    product: EmbeddedServer, proxy: RecordingProxy, model_server: tuple[str, str]
) -> None:
    events = _stream_turn(product, "tokens", "summarise this", NOTE_TEXT)
    assert isinstance(events[-1], DoneEvent), events
    shown = [
        chatml.render(r["messages"], r.get("tools"), r.get("tool_choice")) for r in _requests(proxy)
    ]  # type: ignore[arg-type]
    total = sum(_tokens(model_server, prompt) for prompt in shown)
    assert total <= _tokens(model_server, NOTE_TEXT) + NOTE_ALLOWANCE_TOKENS, total


def test_r70_an_inline_request_asks_the_real_model_once_streamed_without_tools(
    product: EmbeddedServer, proxy: RecordingProxy
) -> None:
    from bridge.inline import InlineRequest

    request = InlineRequest(
        "make this upper case", NOTE, "# Launch plan\n", "- [ ] book the quartz room\n", "", (1, 2)
    )
    with BackendClient(product.url, TOKEN, read_timeout=300) as client:
        session = client.open_key_session(WORKSPACE)
        events = list(client.stream_inline(session, request).events())
        history = client.inline_history(session, 10)
    done = events[-1]
    assert isinstance(done, DoneEvent), events
    pieces = "".join(event.text for event in events if isinstance(event, DeltaEvent))
    assert done.answer.kind == "edit" and done.answer.replacement.strip()
    assert pieces.strip("\n`") != "" and done.answer.assistant.kind == "model"
    (asked,) = _requests(proxy)
    assert asked["stream"] is True and "tools" not in asked
    assert 0 < int(str(asked["max_tokens"])) <= 4096
    said = json.dumps(asked["messages"])
    assert "book the quartz room" in said
    assert "zebra-orchid" not in said  # only the slice, never the rest of the note (R69)
    assert [record.outcome for record in history] == ["pending"]
