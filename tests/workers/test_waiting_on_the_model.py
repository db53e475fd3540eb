"""R93: requests that wait on a model: a client that leaves stops them, and they never
hold back a save.

The real backend under uvicorn on loopback, a scripted OpenAI-compatible server that
stalls, and clients on plain sockets that close mid-answer, as a person closing the app
or a dropped connection does.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from bridge.client import BackendClient
from tests.support.scripted_model import MODEL_ID, Reply, ScriptedModel, scripted_model, text
from workers.server import EmbeddedServer
from workers.settings import Settings
from workers.streaming import MODEL_WORK_THREADS

WAIT_SECONDS = 10.0
WORKSPACE = "w"
DEFAULT_POOL_THREADS = 40
"""anyio's default thread limiter: what every ``run_in_threadpool`` shares, saves included."""
SAVE_SECONDS = 5.0
"""A save beside the slow streams answers within this (an idle one takes milliseconds);
before R93 it waited for the streams, which here never end on their own."""


@dataclass
class Served:
    url: str
    token: str
    key: str
    model: ScriptedModel

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "X-Key-Session": self.key}

    def history(self) -> list[dict[str, Any]]:
        answer = httpx.get(
            f"{self.url}/v1/workspaces/{WORKSPACE}/inline",
            params={"limit": 100},
            headers=self.headers,
            timeout=WAIT_SECONDS,
        )
        assert answer.status_code == 200, answer.text
        found: list[dict[str, Any]] = answer.json()["requests"]
        return found


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with ExitStack() as stack:
        model = stack.enter_context(scripted_model())
        settings = Settings(data_dir=tmp_path, model_base_url=model.url, model=MODEL_ID)
        server = stack.enter_context(EmbeddedServer(settings))
        client = stack.enter_context(BackendClient(server.url, server.device_token))
        client.create_workspace(WORKSPACE)
        key = client.open_key_session(WORKSPACE).key
        yield Served(server.url, server.device_token, key, model)
        model.release.set()  # the stalls end before the server stops


def _inline_body() -> bytes:
    return json.dumps(
        {
            "instruction": "rewrite this",
            "path": "notes/a.md",
            "before": "",
            "selection": "some words\n",
            "after": "",
            "lines": [1, 1],
        }
    ).encode()


def _open_inline(served: Served, *, streamed: bool) -> socket.socket:
    """Send one inline request on a plain socket and leave the answer unread."""
    address = urlsplit(served.url)
    assert address.hostname is not None and address.port is not None
    connection = socket.create_connection((address.hostname, address.port), WAIT_SECONDS)
    body = _inline_body()
    lines = [
        f"POST /v1/workspaces/{WORKSPACE}/inline HTTP/1.1",
        f"Host: {address.hostname}:{address.port}",
        *(f"{name}: {value}" for name, value in served.headers.items()),
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
    ]
    if streamed:
        lines.append("Accept: text/event-stream")
    connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    return connection


def _wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` (as qtbot.waitUntil does) until it holds or WAIT_SECONDS pass."""
    deadline = time.monotonic() + WAIT_SECONDS
    pause = threading.Event()
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        pause.wait(0.05)


@pytest.mark.parametrize("streamed", [False, True], ids=["plain JSON", "streamed"])
def test_r93_a_client_that_leaves_stops_the_model_and_the_request_is_kept_failed(
    served: Served, streamed: bool
) -> None:
    served.model.then(
        text("A long rewrite that stalls after its first word", stall_after_first_piece=True)
    )
    connection = _open_inline(served, streamed=streamed)
    try:
        assert served.model.stalled.wait(WAIT_SECONDS)
        [pending] = served.history()
        assert pending["outcome"] == "pending"
    finally:
        connection.close()  # the client leaves mid-answer
    # The backend closed its own request to the model, so the model stops generating.
    assert served.model.client_went_away.wait(WAIT_SECONDS)
    _wait_until(lambda: served.history()[0]["outcome"] == "failed", "the record to be failed")
    assert len(served.model.chat_requests) == 1


def test_r93_a_save_is_not_queued_behind_slow_streams(served: Served) -> None:
    """More slow streams than the default pool has threads: a save still answers at once."""
    streams = DEFAULT_POOL_THREADS + 4
    assert streams <= MODEL_WORK_THREADS  # every one of them is waiting on the model
    served.model.then(*[Reply(stall=True) for _ in range(streams)])
    connections: list[socket.socket] = []
    try:
        for _ in range(streams):
            connections.append(_open_inline(served, streamed=True))
        waiting = lambda: len(served.model.chat_requests)  # noqa: E731
        _wait_until(lambda: waiting() >= DEFAULT_POOL_THREADS, "the default pool's worth")
        started = time.monotonic()
        saved = httpx.put(
            f"{served.url}/v1/workspaces/{WORKSPACE}/documents/notes/saved.md",
            content=b"kept while the model is slow\n",
            headers=served.headers,
            timeout=SAVE_SECONDS,
        )
        took = time.monotonic() - started
        assert saved.status_code in (200, 201), saved.text
        assert took < SAVE_SECONDS
        assert not served.model.client_went_away.is_set()  # the streams were all still open
        _wait_until(lambda: waiting() == streams, "every stream to reach the model")
    finally:
        for connection in connections:
            connection.close()
