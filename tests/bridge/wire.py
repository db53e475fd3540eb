"""A loopback TCP relay that records every byte a client sends to the backend."""

from __future__ import annotations

import contextlib
import socket
import threading
from dataclasses import dataclass, field


@dataclass
class RecordedRequest:
    """One HTTP/1.1 request as it crossed the wire."""

    method: str
    target: str
    headers: list[tuple[str, str]]
    head: bytes
    body: bytes

    def header(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key.lower() == name.lower()]


@dataclass
class _Connection:
    sent: bytearray = field(default_factory=bytearray)


class RecordingRelay:
    """Listens on loopback and relays each connection to ``target``, keeping what clients sent.

    Use as a context manager; on exit every socket is closed and every thread joined.
    """

    def __init__(self, target_url: str) -> None:
        host_port = target_url.split("://", 1)[1].rstrip("/")
        host, port = host_port.rsplit(":", 1)
        self._target = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self.connections: list[_Connection] = []
        self._sockets: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._accepting = threading.Thread(target=self._accept, name="relay-accept")

    def __enter__(self) -> RecordingRelay:
        self._accepting.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        # shutdown() wakes the blocked accept() and recv() calls on Linux.
        for sock in [self._listener, *self._sockets]:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self._accepting.join(5)
        for thread in self._threads:
            thread.join(5)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self._target)
            record = _Connection()
            with self._lock:
                self.connections.append(record)
                self._sockets.extend([client, upstream])
            for source, sink, keep in ((client, upstream, record), (upstream, client, None)):
                thread = threading.Thread(
                    target=self._pump, args=(source, sink, keep), name="relay-pump"
                )
                self._threads.append(thread)
                thread.start()

    def _pump(self, source: socket.socket, sink: socket.socket, keep: _Connection | None) -> None:
        while True:
            try:
                chunk = source.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                with contextlib.suppress(OSError):
                    sink.shutdown(socket.SHUT_WR)
                return
            if keep is not None:
                with self._lock:
                    keep.sent.extend(chunk)
            try:
                sink.sendall(chunk)
            except OSError:
                return

    def requests(self) -> list[RecordedRequest]:
        """Every request sent so far, parsed from the raw bytes (Content-Length framing)."""
        with self._lock:
            streams = [bytes(connection.sent) for connection in self.connections]
        parsed: list[RecordedRequest] = []
        for stream in streams:
            offset = 0
            while offset < len(stream):
                end = stream.index(b"\r\n\r\n", offset)
                head = stream[offset:end]
                lines = head.decode("latin-1").split("\r\n")
                method, target, _ = lines[0].split(" ", 2)
                headers = [
                    (name.strip(), value.strip())
                    for name, value in (line.split(":", 1) for line in lines[1:])
                ]
                length = next((int(v) for k, v in headers if k.lower() == "content-length"), 0)
                body = stream[end + 4 : end + 4 + length]
                parsed.append(RecordedRequest(method, target, headers, head, body))
                offset = end + 4 + length
        return parsed
