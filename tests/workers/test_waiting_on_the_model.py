"""R93: requests that wait on a model: a client that leaves stops them, and they never
hold back a save.

The real backend under uvicorn on loopback, a scripted OpenAI-compatible server that
stalls, and clients on plain sockets that close mid-answer, as a person closing the app
or a dropped connection does.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.scripted_model import Reply, text
from tests.support.served_inline import ServedInline, served_inline
from tests.support.waiting import WAIT_SECONDS, wait_until
from workers.streaming import MODEL_WORK_THREADS

DEFAULT_POOL_THREADS = 40
"""anyio's default thread limiter: what every ``run_in_threadpool`` shares, saves included."""
SAVE_SECONDS = 5.0
"""A save beside the slow streams answers within this (an idle one takes milliseconds);
before R93 it waited for the streams, which here never end on their own."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedInline]:
    with served_inline(tmp_path) as backend:
        yield backend


@pytest.mark.parametrize("streamed", [False, True], ids=["plain JSON", "streamed"])
def test_r93_a_client_that_leaves_stops_the_model_and_the_request_is_kept_failed(
    served: ServedInline, streamed: bool
) -> None:
    served.model.then(text("A long rewrite that stalls after a word", stall_after_first_piece=True))
    connection = served.open_inline(streamed=streamed)
    try:
        assert served.model.stalled.wait(WAIT_SECONDS)
        [pending] = served.history()
        assert pending["outcome"] == "pending"
    finally:
        connection.close()  # the client leaves mid-answer
    # The backend closed its own request to the model, so the model stops generating.
    assert served.model.client_went_away.wait(WAIT_SECONDS)
    assert wait_until(lambda: served.history()[0]["outcome"] == "failed")
    assert len(served.model.chat_requests) == 1


def test_r93_a_save_is_not_queued_behind_slow_streams(served: ServedInline) -> None:
    """More slow streams than the default pool has threads: a save still answers at once."""
    streams = DEFAULT_POOL_THREADS + 4
    assert streams <= MODEL_WORK_THREADS  # every one of them is waiting on the model
    served.model.then(*[Reply(stall=True) for _ in range(streams)])
    connections: list[socket.socket] = []
    try:
        for _ in range(streams):
            connections.append(served.open_inline(streamed=True))
        waiting = lambda: len(served.model.chat_requests)  # noqa: E731
        assert wait_until(lambda: waiting() >= DEFAULT_POOL_THREADS)
        started = time.monotonic()
        saved = served.put("notes/saved.md", b"kept while the model is slow\n", SAVE_SECONDS)
        took = time.monotonic() - started
        assert saved.status_code in (200, 201), saved.text
        assert took < SAVE_SECONDS
        assert not served.model.client_went_away.is_set()  # the streams were all still open
        assert wait_until(lambda: waiting() == streams)  # and every one reached the model
    finally:
        for connection in connections:
            connection.close()
