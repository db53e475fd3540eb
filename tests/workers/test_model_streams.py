"""Streamed turns over real sockets: the embedded backend under uvicorn, the bridge's
TurnStream, and a scripted loopback model (R35).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.agent import DeltaEvent, DoneEvent, ToolEvent, TurnEvent
from bridge.client import BackendClient
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model, text, tool
from workers.server import EmbeddedServer
from workers.settings import Settings

WAIT_SECONDS = 10.0


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[BackendClient, ScriptedModel]]:
    with scripted_model() as model:
        settings = Settings(data_dir=tmp_path, model_base_url=model.url, model=MODEL_ID)
        with (
            EmbeddedServer(settings) as server,
            BackendClient(server.url, server.device_token) as client,
        ):
            yield client, model


def test_cancelling_a_stream_closes_the_model_request_while_it_stalls_R35(
    served: tuple[BackendClient, ScriptedModel],
) -> None:
    client, model = served
    model.then(text("A reply that stalls after its first word", stall_after_first_piece=True))
    client.create_workspace("w")
    stream = client.stream_turn(
        "c", "summarise this", session=client.open_key_session("w"), ambient_header=None
    )
    events: list[TurnEvent] = []
    first = threading.Event()

    def read() -> None:
        for event in stream:
            events.append(event)
            first.set()

    reader = threading.Thread(target=read)
    reader.start()
    try:
        assert first.wait(WAIT_SECONDS) and model.stalled.wait(WAIT_SECONDS)
        stream.cancel()  # from another thread than the reader, as the app's Stop does
        reader.join(WAIT_SECONDS)
        assert not reader.is_alive()  # the reader left without waiting for a piece
        # The backend noticed and closed its request to the model, which never resumed.
        assert model.client_went_away.wait(WAIT_SECONDS)
    finally:
        model.release.set()
        reader.join(WAIT_SECONDS)
    assert [type(event) for event in events] == [DeltaEvent]
    assert len(model.chat_requests) == 1


def test_a_tool_name_repeated_in_every_streamed_piece_is_read_once_R32(
    served: tuple[BackendClient, ScriptedModel],
) -> None:
    """llama-cpp-python's server repeats the function name in each piece; OpenAI sends it once."""
    client, model = served
    model.then(tool("list_documents", '{"prefix": "notes/"}', repeat_tool_name=True), text("Two."))
    client.create_workspace("w")
    events = list(
        client.stream_turn(
            "c", "list my notes", session=client.open_key_session("w"), ambient_header=None
        )
    )
    [called] = [event.call for event in events if isinstance(event, ToolEvent)]
    assert called.name == "list_documents" and called.arguments == {"prefix": "notes/"}
    assert called.result["status"] == "ok"
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.answer.reply == "Two."
    sent_back = model.chat_requests[1].body["messages"]
    assert [m["tool_calls"][0]["function"]["name"] for m in sent_back if m.get("tool_calls")] == [
        "list_documents"
    ]
