"""The official MCP SDK's client on a thread of its own, driven from the Qt event loop.

What a QA scenario, a test or a benchmark sees of the sidecar (R60). The app answers
tools on its GUI thread, so the caller never blocks on the client:
:meth:`SdkClient.call` submits the call and :meth:`SdkClient.wait` runs the Qt event
loop until it is done (``qtbot.waitUntil``, or :func:`app.scenario.waiting.wait_until`).
Notifications outside MCP's own set (``ide/contextUpdate``, ``ide/diffAccepted``,
``ide/diffRejected``) are received through the SDK's notification bindings.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, Protocol

import httpx2
import mcp_types as types
from mcp.client.extension import NotificationBinding
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from pydantic import BaseModel, ConfigDict

IDE_NOTIFICATIONS = ("ide/contextUpdate", "ide/diffAccepted", "ide/diffRejected")
WAIT_MS = 15_000


class Waits(Protocol):
    """What runs the Qt event loop until a condition holds: ``qtbot``, or a benchmark's loop."""

    def waitUntil(self, callback: Callable[[], bool], *, timeout: int) -> None: ...


class _AnyParams(BaseModel):
    model_config = ConfigDict(extra="allow")


class SdkClient:
    """One connected MCP session: ``call`` tools, read ``heard`` notifications, ``close``."""

    def __init__(self, qtbot: Waits, url: str, token: str) -> None:
        self._qtbot = qtbot
        self.url = url
        self.heard: list[tuple[str, dict[str, Any], float]] = []
        """(method, params, ``time.perf_counter()`` when it arrived)."""
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._session: ClientSession | None = None
        self._ready: Future[None] = Future()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, args=(token,), name="test-mcp-client")
        self._thread.start()
        self.wait(self._ready)

    def _run(self, token: str) -> None:
        try:
            asyncio.run(self._main(token))
        except BaseException as error:  # reported to the test through the future
            if not self._ready.done():
                self._ready.set_exception(error)

    async def _main(self, token: str) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        bindings = [
            NotificationBinding(method=method, params_type=_AnyParams, handler=self._hearer(method))
            for method in IDE_NOTIFICATIONS
        ]
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http,
            streamable_http_client(self.url, http_client=http) as (read, write),
            ClientSession(read, write, notification_bindings=bindings) as session,
        ):
            await session.initialize()
            self._session = session
            self._ready.set_result(None)
            await self._stop.wait()

    def _hearer(self, method: str) -> Any:
        async def heard(params: BaseModel) -> None:
            with self._lock:
                self.heard.append((method, params.model_dump(by_alias=True), time.perf_counter()))

        return heard

    def notifications(self, method: str) -> list[dict[str, Any]]:
        with self._lock:
            return [params for name, params, _at in self.heard if name == method]

    def arrivals(self, method: str) -> list[tuple[dict[str, Any], float]]:
        """Each ``method`` notification with the moment it arrived."""
        with self._lock:
            return [(params, at) for name, params, at in self.heard if name == method]

    def submit(self, work: Coroutine[Any, Any, Any]) -> Future[Any]:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(work, self._loop)

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> types.CallToolResult:
        """Call a tool and run the Qt event loop until it answers."""
        assert self._session is not None
        result = self.wait(self.submit(self._session.call_tool(name, arguments or {})))
        assert isinstance(result, types.CallToolResult)
        return result

    def list_tools(self) -> list[str]:
        assert self._session is not None
        listing = self.wait(self.submit(self._session.list_tools()))
        return [tool.name for tool in listing.tools]

    def wait(self, future: Future[Any], timeout_ms: int = WAIT_MS) -> Any:
        self._qtbot.waitUntil(future.done, timeout=timeout_ms)
        return future.result()

    def close(self) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        self._qtbot.waitUntil(lambda: not self._thread.is_alive(), timeout=WAIT_MS)
