"""Each model call on its own connection, which a stopped or failed turn shuts at once (R35).

A model server generates for as long as the request's connection is open: a
stopped turn, a time-out or a failure must close it, or the server goes on
generating and the next turn waits behind it. A blocked ``recv`` is only woken
by ``shutdown``, so the call keeps its socket: httpx reports it through the
request's ``trace`` extension when the connection opens. Connections are not
kept alive between calls, so every call opens the one it owns.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import httpx2

_CONNECTED: Final = "connection.connect_tcp.complete"
"""httpcore's trace event once a TCP connection is open; ``return_value`` is the stream."""

_current = threading.local()
"""The call the current thread is making (the openai SDK is synchronous here)."""


class CallConnection:
    """The socket one model call runs on; :meth:`close` ends it from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._closed = False

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        if event != _CONNECTED:
            return
        stream = info.get("return_value")
        opened = None if stream is None else stream.get_extra_info("socket")
        if not isinstance(opened, socket.socket):
            return
        with self._lock:
            self._sockets.append(opened)
            closed = self._closed
        if closed:  # stopped while connecting: the server must not start generating
            _shut(opened)

    def close(self) -> None:
        """Shut the call's connection: a reader blocked in ``recv`` wakes, the server is told."""
        with self._lock:
            self._closed = True
            sockets = list(self._sockets)
        for opened in sockets:
            _shut(opened)


def _shut(opened: socket.socket) -> None:
    with contextlib.suppress(OSError):
        opened.shutdown(socket.SHUT_RDWR)


@contextlib.contextmanager
def calling(connection: CallConnection) -> Iterator[CallConnection]:
    """Requests made by this thread inside the block run on ``connection``."""
    _current.connection = connection
    try:
        yield connection
    finally:
        _current.connection = None


def _attach(request: httpx2.Request) -> None:
    connection = getattr(_current, "connection", None)
    if isinstance(connection, CallConnection):
        request.extensions["trace"] = connection.trace


def http_client() -> httpx2.Client:
    """The SDK's usual client, without keep-alive, telling each call its socket."""
    import httpx2  # the SDK's own HTTP client, loaded only once a model is used (R67)
    import openai

    return openai.DefaultHttpxClient(
        limits=httpx2.Limits(max_keepalive_connections=0),
        event_hooks={"request": [_attach]},
    )
