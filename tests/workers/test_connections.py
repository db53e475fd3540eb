"""R44: slow or stalled clients are timed out; a client that leaves mid-body leaves no traceback.

Real sockets against ``python -m workers serve`` started with one-second limits; each
probe waits on its socket with a bounded timeout (an event, not a sleep).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stress.harness import Http
from tests.stress.slow import (
    WORKSPACE,
    idle_keep_alive,
    leave_mid_body,
    limit_args,
    slow_clients,
    slow_headers,
    stalled_body,
)
from tests.support.backend import RunningBackend, make_workspace, start_backend_process

WAIT_SECONDS = 6.0  # the limit is 1 s; the server used to keep these open for good


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningBackend, str]]:
    data_dir = tmp_path_factory.mktemp("limited")
    make_workspace(data_dir, WORKSPACE, {"a.md": "a\n"})
    with start_backend_process(data_dir, extra_args=limit_args(1.0)) as backend:
        http = Http(backend)
        key = http.open_key(WORKSPACE)
        http.close()
        yield backend, key


def _status_and_error(answer: bytes) -> tuple[bytes, str]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0], json.loads(body)["error"]["code"]


@pytest.mark.slow
def test_r44_headers_that_never_finish_are_closed_with_408(
    limited: tuple[RunningBackend, str],
) -> None:
    closed_after, answer = slow_headers(limited[0], WAIT_SECONDS)
    assert closed_after is not None, "the server kept a half-sent request open"
    assert _status_and_error(answer) == (b"HTTP/1.1 408 ", "request_timeout")


@pytest.mark.slow
def test_r44_a_stalled_body_is_closed_with_408(limited: tuple[RunningBackend, str]) -> None:
    backend, key = limited
    closed_after, answer = stalled_body(backend, key, WAIT_SECONDS)
    assert closed_after is not None, "the server waited for the rest of the body for good"
    assert _status_and_error(answer) == (b"HTTP/1.1 408 Request Timeout", "request_timeout")
    assert not (backend.data_dir / "workspaces" / WORKSPACE / "stalled.md").exists()


@pytest.mark.slow
def test_r44_an_idle_kept_alive_connection_is_closed(limited: tuple[RunningBackend, str]) -> None:
    closed_after, answer = idle_keep_alive(limited[0], WAIT_SECONDS)
    assert closed_after is not None
    assert answer.startswith(b"HTTP/1.1 200 ")


@pytest.mark.slow
def test_r44_a_client_leaving_mid_body_leaves_no_traceback(tmp_path: Path) -> None:
    make_workspace(tmp_path, WORKSPACE, {"a.md": "a\n"})
    with start_backend_process(tmp_path, extra_args=limit_args(1.0)) as backend:
        http = Http(backend)
        key = http.open_key(WORKSPACE)
        for _ in range(3):
            leave_mid_body(backend, key)
        status, _ = http.request("GET", "/v1/health")
        http.close()
        assert status == 200
        backend.process.terminate()  # shutting down waits for the abandoned requests
        backend.process.wait(30)
        log = backend.stderr_text()
    assert "Traceback" not in log, log
    assert "ClientDisconnect" not in log, log


@pytest.mark.slow
def test_r44_slow_clients_all_at_once(tmp_path: Path) -> None:
    """The short version of ``make stress``'s slow-client part."""
    figure = slow_clients(tmp_path, each=2)
    assert figure.ok, figure.line()
