"""What a connection may cost a server: time limits for headers and bodies (R44), a cap on
open connections (R76), clean paths (R43).

Both of the project's HTTP servers run with these: the backend (``workers.server``) and
the app's MCP sidecar (``app.sidecar.http``), so the app takes them from here, never
from the backend. uvicorn closes idle keep-alive connections itself
(``timeout_keep_alive``) but has no limit for a request's headers or body. Headers are
timed in the HTTP protocol (the app never sees a request whose headers have not all
arrived); bodies are timed here in ASGI, where the app asks for them.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final
from urllib.parse import unquote_to_bytes

import h11
import orjson
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from bridge.wire import envelope

MAX_CONNECTIONS: Final = 256
"""Open connections one server keeps at most (R76): far below a 1,024-descriptor limit,
far above what the app and its tools open (a few pooled ones each)."""
HEADER_TIMEOUT: Final = "The request's headers did not arrive in time; the connection is closed."
BODY_TIMEOUT: Final = "The request's body did not arrive in time; the connection is closed."
PATH_NOT_UTF8: Final = "The address has percent-encoded bytes that are not UTF-8 text."
REQUEST_UNREADABLE: Final = "The request could not be read as HTTP: {detail}. Nothing was done."


def _json_headers(body: bytes, *, close: bool) -> list[tuple[bytes, bytes]]:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    return headers


def _json_response_start(status: int, body: bytes, *, close: bool) -> Message:
    return {
        "type": "http.response.start",
        "status": status,
        "headers": _json_headers(body, close=close),
    }


def _is_utf8(raw: bytes) -> bool:
    try:
        unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class RequestLimits:
    """ASGI middleware: a 400 for paths that are not UTF-8, a 408 for a body that is too slow.

    uvicorn decodes ``%ff`` and ``%fe`` both to U+FFFD, so two paths would name one file
    (R43); the raw bytes are checked here before any route sees the path. The body
    deadline starts when the app first asks for the body and covers all of it (R44).
    """

    def __init__(self, app: ASGIApp, *, body_timeout: float) -> None:
        self.app = app
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw_path: bytes = scope.get("raw_path") or scope["path"].encode("utf-8")
        query: bytes = scope.get("query_string", b"").replace(b"+", b" ")
        if not (_is_utf8(raw_path) and _is_utf8(query)):
            body = orjson.dumps(envelope("invalid_path", PATH_NOT_UTF8))
            await send(_json_response_start(400, body, close=False))
            await send({"type": "http.response.body", "body": body})
            return
        deadline = _BodyDeadline(receive, send, self.body_timeout)
        await self.app(scope, deadline.receive, deadline.send)


class _BodyDeadline:
    """``receive`` with one deadline for the whole body; past it, a 408 and a disconnect."""

    def __init__(self, receive: Receive, send: Send, timeout: float) -> None:
        self._receive = receive
        self._send = send
        self._timeout = timeout
        self._deadline: float | None = None
        self._body_done = False
        self._timed_out = False
        self._started = False

    async def receive(self) -> Message:
        if self._timed_out:
            return {"type": "http.disconnect"}
        if self._body_done:  # after the body, waiting means waiting for a disconnect
            return await self._receive()
        loop = asyncio.get_running_loop()
        if self._deadline is None:
            self._deadline = loop.time() + self._timeout
        try:
            async with asyncio.timeout_at(self._deadline):
                message = await self._receive()
        except TimeoutError:
            self._timed_out = True
            if not self._started:
                await self._answer_timeout()
            return {"type": "http.disconnect"}
        if message["type"] != "http.request" or not message.get("more_body", False):
            self._body_done = True
        return message

    async def send(self, message: Message) -> None:
        """The app's answer, dropped once the 408 has gone out in its place."""
        if self._timed_out and not self._started:
            return
        if message["type"] == "http.response.start":
            self._started = True
        await self._send(message)

    async def _answer_timeout(self) -> None:
        """Answer 408 and close: the rest of the body is never read, so the connection ends."""
        body = orjson.dumps(envelope("request_timeout", BODY_TIMEOUT))
        try:
            await self._send(_json_response_start(408, body, close=True))
            await self._send({"type": "http.response.body", "body": body})
        except OSError:
            pass  # the client went away as well; nothing is left to tell


class OpenConnections:
    """One server's open connections, oldest first, with its header deadline and its cap.

    At most ``most`` connections are open at once (R76): every one holds a file
    descriptor of the whole process, and a local user who could open them without end
    would leave none for saving. Past the cap, the oldest connection that is not in the
    middle of a request is closed to make room (a flood of idle sockets cannot keep a
    real client out); when every one is busy, the new connection is closed.
    """

    def __init__(self, header_timeout: float, most: int = MAX_CONNECTIONS) -> None:
        self.header_timeout = header_timeout
        self.most = most
        self._open: dict[LimitedProtocol, None] = {}
        """Oldest first: a dict keeps insertion order."""

    def opened(self, connection: LimitedProtocol) -> None:
        self._open[connection] = None
        if len(self._open) > self.most:
            self._make_room(connection)

    def closed(self, connection: LimitedProtocol) -> None:
        self._open.pop(connection, None)

    def close_client(self, client: object) -> bool:
        """Close the connection from ``client`` (an ASGI scope's ``client``); True if found.

        Closing the socket is what frees a response stuck on a client that never reads
        (R78): uvicorn sees a disconnect and the app's sends return.
        """
        if not isinstance(client, tuple | list) or len(client) < 2:
            return False
        for connection in list(self._open):
            peer = connection.transport.get_extra_info("peername")
            if peer is not None and tuple(peer[:2]) == tuple(client[:2]):
                # abort, not close: close waits to flush what the client never reads
                connection.transport.abort()
                return True
        return False

    def _make_room(self, newest: LimitedProtocol) -> None:
        for connection in self._open:
            if connection is newest or connection.transport.is_closing():
                continue
            if connection.between_requests():
                self._open.pop(connection, None)
                connection.transport.close()
                return
        self._open.pop(newest, None)
        newest.transport.close()


class LimitedConfig(uvicorn.Config):
    """uvicorn's settings with :class:`LimitedProtocol` and the connections it keeps count of."""

    def __init__(self, app: ASGIApp, connections: OpenConnections, **options: Any) -> None:
        super().__init__(app, http=LimitedProtocol, **options)
        self.connections = connections


class LimitedProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (R44), and a cap.

    The clock starts when the connection opens, or with the first byte of the next
    request on a kept-alive one (before that byte, uvicorn's keep-alive limit applies);
    it stops once the headers have all arrived. The cap is :class:`OpenConnections`'.
    """

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if not isinstance(config, LimitedConfig):
            raise TypeError("LimitedProtocol runs with a LimitedConfig")
        self._limits = config.connections
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._limits.opened(self)
        if self.transport.is_closing():
            return
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        if self._header_timer is None and self.between_requests():
            self._arm_header_timer()
        super().data_received(data)
        if not self.between_requests():
            self._disarm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._limits.closed(self)
        self._disarm_header_timer()
        super().connection_lost(exc)

    def between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm_header_timer(self) -> None:
        self._header_timer = self.loop.call_later(
            self._limits.header_timeout, self._headers_too_slow
        )

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or not self.between_requests():
            return
        try:
            # A connection that sent nothing is closed without a word, as uvicorn
            # closes an idle kept-alive one; one that sent part of a request hears why.
            if self.conn.our_state is h11.IDLE and self.conn.trailing_data[0]:
                body = orjson.dumps(envelope("request_timeout", HEADER_TIMEOUT))
                response = h11.Response(status_code=408, headers=_json_headers(body, close=True))
                self.transport.write(self.conn.send(response) or b"")
                self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
                self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        except h11.LocalProtocolError:
            pass  # nothing can be said on this connection any more; just close it
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot read (a Content-Length of thousands of digits, a broken
        line) is answered with the error envelope every refusal carries, not plain text
        (R93); the connection then closes, as uvicorn's own answer does."""
        detail = msg.rstrip(".") or "malformed"
        body = orjson.dumps(envelope("invalid_request", REQUEST_UNREADABLE.format(detail=detail)))
        response = h11.Response(status_code=400, headers=_json_headers(body, close=True))
        try:
            for event in (response, h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event) or b"")
        except h11.LocalProtocolError:
            pass  # an answer had started already: nothing more can be said here
        self.transport.close()
