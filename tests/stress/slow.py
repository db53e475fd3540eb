"""R44: slow and stalled clients are cut off in time, and a client leaving mid-body is quiet.

Each probe speaks raw HTTP over a socket and waits on it with a bounded timeout: the
server must close the connection within its limit plus a margin.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from tests.stress.harness import Figure, Http, make_workspace_files, server
from tests.support.backend import RunningBackend

WORKSPACE = "slow"
LIMIT_SECONDS = 1.0
MARGIN_SECONDS = 3.0
"""How late a close may come on a busy machine; the old server never closed at all."""


def limit_args(seconds: float = LIMIT_SECONDS) -> list[str]:
    whole = max(1, round(seconds))
    return [
        "--header-timeout",
        str(seconds),
        "--body-timeout",
        str(seconds),
        "--idle-timeout",
        str(whole),
    ]


def _connect(backend: RunningBackend) -> socket.socket:
    parts = urlsplit(backend.url)
    return socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=10)


def seconds_until_closed(sock: socket.socket, wait: float) -> tuple[float | None, bytes]:
    """Read until the server closes; the time it took, or None when it stayed open."""
    started = time.monotonic()
    received = b""
    sock.settimeout(wait)
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return time.monotonic() - started, received
            received += chunk
    except TimeoutError:
        return None, received
    except ConnectionResetError:
        return time.monotonic() - started, received


def slow_headers(backend: RunningBackend, wait: float) -> tuple[float | None, bytes]:
    """Part of a request line and one header, then nothing more."""
    with _connect(backend) as sock:
        sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        return seconds_until_closed(sock, wait)


def stalled_body(backend: RunningBackend, key: str, wait: float) -> tuple[float | None, bytes]:
    """A declared 1,000,000-byte body that stops after 10 bytes."""
    with _connect(backend) as sock:
        sock.sendall(
            b"PUT /v1/workspaces/" + WORKSPACE.encode() + b"/documents/stalled.md HTTP/1.1\r\n"
            b"Host: 127.0.0.1\r\nAuthorization: Bearer " + backend.token.encode() + b"\r\n"
            b"X-Key-Session: " + key.encode() + b"\r\nContent-Length: 1000000\r\n\r\n0123456789"
        )
        return seconds_until_closed(sock, wait)


def idle_keep_alive(backend: RunningBackend, wait: float) -> tuple[float | None, bytes]:
    """One whole request and its answer, then silence on the kept-alive connection."""
    with _connect(backend) as sock:
        sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return seconds_until_closed(sock, wait)


def leave_mid_body(backend: RunningBackend, key: str) -> None:
    """Half a turn body, then the client closes its socket."""
    with _connect(backend) as sock:
        sock.sendall(
            b"POST /v1/agent/turns HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Authorization: Bearer " + backend.token.encode() + b"\r\n"
            b"X-Key-Session: " + key.encode() + b"\r\n"
            b"Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
            b'{"conversation": "c1", "message": "' + b"x" * 1000
        )


def slow_clients(data_dir: Path, *, each: int, limit: float = LIMIT_SECONDS) -> Figure:
    """``each`` clients of every kind at once; all must be closed in time, the log clean."""
    make_workspace_files(data_dir / "workspaces" / WORKSPACE, {"a.md": "a\n"})
    figure = Figure("slow clients")
    wait = limit + MARGIN_SECONDS
    lock = threading.Lock()
    latest = [0.0]
    with server(data_dir, limit_args(limit)) as backend:
        http = Http(backend)
        key = http.open_key(WORKSPACE)
        http.close()

        def probe(run: Callable[[], tuple[float | None, bytes]]) -> None:
            closed_after, answer = run()
            with lock:
                figure.cases += 1
                if closed_after is None:
                    figure.leaked += 1  # a connection the server kept open past its limit
                else:
                    latest[0] = max(latest[0], closed_after)
                if answer.startswith(b"HTTP/1.1 5"):
                    figure.server_errors += 1

        def leave() -> None:
            leave_mid_body(backend, key)
            with lock:
                figure.cases += 1

        kinds: list[Callable[[], None]] = [
            lambda: probe(lambda: slow_headers(backend, wait)),
            lambda: probe(lambda: stalled_body(backend, key, wait)),
            lambda: probe(lambda: idle_keep_alive(backend, wait)),
            leave,
        ]
        threads = [threading.Thread(target=kind) for kind in kinds for _ in range(each)]
        for thread in threads:
            thread.start()
        # The server keeps answering others while the slow ones wait.
        health = Http(backend)
        status, _ = health.request("GET", "/v1/health")
        health.close()
        if status != 200:
            figure.lost += 1
        for thread in threads:
            thread.join()
        # Stopping waits for every request task, so the log is complete afterwards.
        backend.process.terminate()
        backend.process.wait(30)
        log = backend.stderr_text()
    tracebacks = log.count("Traceback")
    figure.leaked += tracebacks
    figure.details = {
        "limit s": limit,
        "latest close s": round(latest[0], 2),
        "tracebacks in log": tracebacks,
    }
    return figure
