"""A loopback HTTP proxy that records every request body on its way to a real model server.

The real-model tests point the backend at it to see exactly what the model was sent
(R31: no note text before a tool reads it). Responses, streamed ones included, are
passed back piece by piece as they arrive.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests

_HOP_BY_HOP = {"connection", "transfer-encoding", "content-length", "keep-alive"}


class RecordingProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")  # e.g. http://127.0.0.1:8080/v1
        self.bodies: list[bytes] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = False
        self._thread = threading.Thread(target=self._server.serve_forever, name="proxy")

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def recorded(self) -> list[bytes]:
        with self._lock:
            return list(self.bodies)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_GET(self) -> None:
                self._forward(b"")

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with proxy._lock:
                    proxy.bodies.append(body)
                self._forward(body)

            def _forward(self, body: bytes) -> None:
                target = proxy.upstream + self.path.removeprefix("/v1")
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                with requests.request(
                    self.command,
                    target,
                    data=body or None,
                    headers=headers,
                    stream=True,
                    timeout=(10, 300),
                ) as answer:
                    self.send_response(answer.status_code)
                    for name, value in answer.headers.items():
                        if name.lower() not in _HOP_BY_HOP:
                            self.send_header(name, value)
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.close_connection = True
                    for piece in answer.iter_content(chunk_size=None):
                        self.wfile.write(piece)
                        self.wfile.flush()

        return Handler


@contextmanager
def recording_proxy(upstream: str) -> Iterator[RecordingProxy]:
    proxy = RecordingProxy(upstream)
    proxy._thread.start()
    try:
        yield proxy
    finally:
        proxy._server.shutdown()
        proxy._server.server_close()
        proxy._thread.join()
