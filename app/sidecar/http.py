"""The sidecar's MCP server: the official SDK over streamable HTTP on loopback (R58).

It runs on a thread with its own event loop (uvicorn, as the embedded backend
does) and never touches a widget: tool calls go to a :data:`ToolHandler` that asks
the GUI thread. A guard in front of the SDK's app refuses any request without the
bearer token (401); the SDK's transport security refuses a ``Host`` other than
loopback on this port (421) and an ``Origin`` that is not loopback (403).

A tool is counted as connected while its event stream (the GET on ``/mcp``) is
open: that stream is where ``ide/contextUpdate`` and the diff notifications go.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import socket
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, cast

import mcp_types as types
import uvicorn
from mcp.server.lowlevel.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import NotificationParams
from pydantic import BaseModel
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bridge.connections import LimitedConfig, OpenConnections, RequestLimits
from bridge.tools import READ_ACTIVE_NOTE

LOOPBACK: Final = "127.0.0.1"
MCP_PATH: Final = "/mcp"
TOKEN_BYTES: Final = 32  # token_urlsafe(32) gives 43 characters (contract 11: at least 32)
SESSION_HEADER: Final = "mcp-session-id"
STOP_SECONDS: Final = 5.0
HEADER_SECONDS: Final = 10.0
"""A connection that has not sent all of a request's headers by then is closed (R76)."""
KEEP_ALIVE_SECONDS: Final = 5
"""An idle kept-alive connection is closed after this long (R76), as the backend's is."""
BODY_SECONDS: Final = 60.0
"""A request body that has not all arrived by then is answered 408 (R76)."""
MAX_CONNECTIONS: Final = 32
"""Open connections at most (R76); a tool holds two or three (its event stream and calls)."""
SEND_SECONDS: Final = 5.0
"""A tool whose stream has not taken a notification in this long does not read: dropped (R78)."""
OUTBOX_MAX: Final = 64
"""Diff answers waiting for one tool at most; more means it does not read (R78)."""
CONTEXT_UPDATE: Final = "ide/contextUpdate"
SESSION_IDLE_SECONDS: Final = 30 * 60.0
"""A session with no request and no open event stream for this long ends (R78)."""
UNAUTHORIZED: Final = (
    "This request needs the sidecar's token as 'Authorization: Bearer <token>'; "
    "it is in active-note-pointer.json in the app's data folder."
)

ToolHandler = Callable[[str, Mapping[str, Any], str | None], Awaitable[types.CallToolResult]]
"""(tool name, arguments, session id) → result; awaited on the server's loop."""


@dataclass
class _Outbox:
    """What waits to go to one tool: the latest context, and the other notifications in order."""

    context: dict[str, Any] | None = None
    others: deque[tuple[str, dict[str, Any]]] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    sender: asyncio.Future[None] | None = None


class _Notification(BaseModel):
    """A notification outside MCP's own set (``ide/contextUpdate`` and the diff answers)."""

    method: str
    params: dict[str, Any]


class McpSidecarServer:
    """One run of the server: a fresh token and port from :meth:`start` to :meth:`stop`."""

    def __init__(
        self,
        tools: list[types.Tool],
        call_tool: ToolHandler,
        *,
        streams_changed: Callable[[set[str]], None],
        stream_opened: Callable[[str], None],
        header_seconds: float = HEADER_SECONDS,
        keep_alive_seconds: int = KEEP_ALIVE_SECONDS,
        max_connections: int = MAX_CONNECTIONS,
        session_idle_seconds: float = SESSION_IDLE_SECONDS,
    ) -> None:
        self._keep_alive_seconds = keep_alive_seconds
        self._session_idle_seconds = session_idle_seconds
        self.token = secrets.token_urlsafe(TOKEN_BYTES)
        self._tools = tools
        self._call_tool = call_tool
        self._streams_changed = streams_changed
        self._stream_opened = stream_opened
        self._sessions: dict[str, Any] = {}
        """Session id → the SDK's ServerSession, kept from ``notifications/initialized``."""
        self._open_streams: dict[str, int] = {}
        self._stream_clients: dict[str, list[object]] = {}
        """Session id → the (host, port) of each of its open event streams."""
        self._outboxes: dict[str, _Outbox] = {}
        self.send_seconds = SEND_SECONDS
        self.sent: dict[str, int] = {}
        """Notifications delivered per session: what tests and the stress run count."""
        self.dropped: set[str] = set()
        """Sessions dropped for not reading (R78)."""
        self._max_connections = max_connections
        self._connections = OpenConnections(header_seconds, max_connections)
        self._socket = socket.create_server((LOOPBACK, 0))
        self.port: int = self._socket.getsockname()[1]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.ended = threading.Event()
        self.on_ended: Callable[[], None] = lambda: None
        """Called on the server thread once it has stopped."""

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}{MCP_PATH}"

    # -- life ------------------------------------------------------------------------

    def start(self) -> None:
        """Serve on the bound port from a thread of its own; returns at once.

        The socket already listens, so a tool that connects before the loop runs waits
        in the backlog instead of being refused.
        """
        # R76: the backend's limits, so idle or half-sent connections cannot pile up.
        config = LimitedConfig(
            self._asgi_app(),
            self._connections,
            log_config=None,
            access_log=False,
            lifespan="on",
            ws="none",
            timeout_keep_alive=self._keep_alive_seconds,
            # asyncio accepts up to this many connections at once, each a descriptor before
            # the cap can close it: uvicorn's 2,048 alone would exhaust a 1,024 limit.
            backlog=self._max_connections,
            timeout_graceful_shutdown=1,  # off means off: open event streams end within 1 s
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="sidecar-mcp", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        finally:
            self._socket.close()
            self.ended.set()
            self.on_ended()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        assert self._server is not None
        await self._server.serve(sockets=[self._socket])

    def request_stop(self) -> None:
        """Disconnect every tool and stop; the thread ends on its own (``ended`` is set)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is None:
            self._socket.close()
            self.ended.set()

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """:meth:`request_stop` and wait for the thread (at quit)."""
        self.request_stop()
        if self._thread is not None:
            self._thread.join(timeout)

    # -- notifications (any thread) ----------------------------------------------------

    def notify(self, method: str, params: dict[str, Any], session_id: str | None = None) -> None:
        """Queue a notification for one session's stream, or every open stream; no wait.

        Each tool has its own outbox (R78): a context update replaces the one still
        waiting there (only the latest context counts), other notifications queue in
        order up to :data:`OUTBOX_MAX`. One sender per tool empties it, so a tool that
        does not read holds up no other tool, and it is dropped once a send to it has
        waited :attr:`send_seconds` or its outbox overflows.
        """
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
            loop.call_soon_threadsafe(self._enqueue, method, params, session_id)

    def _enqueue(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        targets = [session_id] if session_id is not None else list(self._open_streams)
        for target in targets:
            if target not in self._open_streams:
                continue  # (a stream may open before its session's ``initialized``: kept)
            outbox = self._outboxes.get(target)
            if outbox is None:
                outbox = self._outboxes[target] = _Outbox()
                outbox.sender = asyncio.ensure_future(self._send_from(target, outbox))
            if method == CONTEXT_UPDATE:
                outbox.context = params
            elif len(outbox.others) >= OUTBOX_MAX:
                self.drop(target)
                continue
            else:
                outbox.others.append((method, params))
            outbox.ready.set()

    async def _send_from(self, session_id: str, outbox: _Outbox) -> None:
        while True:
            await outbox.ready.wait()
            outbox.ready.clear()
            while True:
                if outbox.others:
                    method, params = outbox.others.popleft()
                elif outbox.context is not None:
                    method, params, outbox.context = CONTEXT_UPDATE, outbox.context, None
                else:
                    break
                session = self._sessions.get(session_id)
                if session is None:  # not initialized yet: wait for it, the message kept
                    if method == CONTEXT_UPDATE:
                        outbox.context = outbox.context or params
                    else:
                        outbox.others.appendleft((method, params))
                    break
                message = cast(
                    types.ServerNotification, _Notification(method=method, params=params)
                )
                try:
                    async with asyncio.timeout(self.send_seconds):
                        await session.send_notification(message)
                except TimeoutError:
                    self.drop(session_id)  # it does not read: it must not hold the app's memory
                    return
                except Exception:
                    pass
                self.sent[session_id] = self.sent.get(session_id, 0) + 1

    def drop(self, session_id: str) -> None:
        """Disconnect one tool: its event streams close; it may connect again (R78)."""
        self.dropped.add(session_id)
        outbox = self._outboxes.pop(session_id, None)
        if outbox is not None and outbox.sender is not None:
            outbox.sender.cancel()
        for client in self._stream_clients.pop(session_id, []):
            self._connections.close_client(client)

    # -- the app -----------------------------------------------------------------------

    def _asgi_app(self) -> ASGIApp:
        server: Server[Any] = Server(
            "ambient-notes",
            title="Ambient Notes",
            instructions=(
                "Ambient Notes tells you which note the person has open: get_active_note "
                f"for where it is, {READ_ACTIVE_NOTE.name} for its saved text."
            ),
            on_list_tools=self._list_tools,
            on_call_tool=self._on_call_tool,
        )
        server.add_notification_handler(
            "notifications/initialized", NotificationParams, self._on_initialized
        )
        loopback = [f"127.0.0.1:{self.port}", f"localhost:{self.port}", f"[::1]:{self.port}"]
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=loopback,
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
        app = server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            transport_security=security,
            session_idle_timeout=self._session_idle_seconds,
        )
        return RequestLimits(self._guard(app), body_timeout=BODY_SECONDS)

    async def _list_tools(
        self, _ctx: Any, _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._tools)

    async def _on_call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await self._call_tool(params.name, params.arguments or {}, _session_id(ctx))

    async def _on_initialized(self, ctx: Any, _params: NotificationParams) -> None:
        session_id = _session_id(ctx)
        if session_id is not None:
            self._sessions[session_id] = ctx.session
            outbox = self._outboxes.get(session_id)
            if outbox is not None:
                outbox.ready.set()  # what waited for the session goes now

    def _guard(self, app: ASGIApp) -> ASGIApp:
        """The token check in front of the SDK, and the count of open event streams."""

        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            headers = Headers(scope=scope)
            if not _bearer_matches(headers.get("authorization"), self.token):
                body = {"error": {"code": "unauthorized", "message": UNAUTHORIZED}}
                response = JSONResponse(
                    body, status_code=401, headers={"WWW-Authenticate": "Bearer"}
                )
                await response(scope, receive, send)
                return
            session_id = headers.get(SESSION_HEADER)
            if scope["method"] == "DELETE" and session_id:
                self._sessions.pop(session_id, None)
            if scope["method"] != "GET" or not session_id:
                await app(scope, receive, send)
                return
            await self._event_stream(app, scope, receive, send, session_id)

        return guarded

    async def _event_stream(
        self, app: ASGIApp, scope: Scope, receive: Receive, send: Send, session_id: str
    ) -> None:
        opened = False

        async def watched(message: Message) -> None:
            nonlocal opened
            await send(message)
            if message["type"] == "http.response.start" and message["status"] == 200:
                opened = True
                self._open_streams[session_id] = self._open_streams.get(session_id, 0) + 1
                self._streams_changed(set(self._open_streams))
                self._stream_opened(session_id)

        client = scope.get("client")
        self._stream_clients.setdefault(session_id, []).append(client)
        try:
            await app(scope, receive, watched)
        finally:
            clients = self._stream_clients.get(session_id, [])
            if client in clients:
                clients.remove(client)
            if not clients:
                self._stream_clients.pop(session_id, None)
            if opened:
                left = self._open_streams.pop(session_id, 1) - 1
                if left > 0:
                    self._open_streams[session_id] = left
                else:
                    outbox = self._outboxes.pop(session_id, None)
                    if outbox is not None and outbox.sender is not None:
                        outbox.sender.cancel()
                self._streams_changed(set(self._open_streams))


def _session_id(ctx: Any) -> str | None:
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    value = headers.get(SESSION_HEADER) if headers is not None else None
    return value if isinstance(value, str) else None


def _bearer_matches(header: str | None, token: str) -> bool:
    if not header:
        return False
    scheme, _, value = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        value.strip().encode("utf-8", "surrogatepass"), token.encode()
    )
