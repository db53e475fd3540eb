"""Running the app under uvicorn: in a background thread (embedded) or in the foreground (CLI)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from bridge.connections import LimitedConfig, OpenConnections
from workers.allocator import keep_freed_memory
from workers.app import create_app
from workers.settings import Settings

LOOPBACK = "127.0.0.1"
STARTUP_TIMEOUT_SECONDS = 30.0
ACCEPT_BACKLOG = 128


class _AnnouncingServer(uvicorn.Server):
    """Calls ``on_listening`` once the sockets accept connections and the app has started."""

    def __init__(self, config: uvicorn.Config, on_listening: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_listening = on_listening
        self.loop: asyncio.AbstractEventLoop | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets=sockets)
        if not self.should_exit:
            self._on_listening()


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening socket; port 0 asks the system for a free one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto must be IPPROTO_TCP: asyncio only sets TCP_NODELAY on such sockets, and
    # without it every keep-alive response waits ~40 ms on a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(ACCEPT_BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def uvicorn_config(app: ASGIApp, settings: Settings, **options: Any) -> uvicorn.Config:
    """The server settings both ways of running share: quiet logs and the R44 time limits."""
    return LimitedConfig(
        app,
        OpenConnections(settings.header_timeout_seconds),
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_keep_alive=settings.idle_timeout_seconds,
        # R76: asyncio accepts up to this many connections in one go, each a descriptor
        # before the cap closes it; uvicorn's 2,048 alone would exhaust a 1,024 limit.
        backlog=ACCEPT_BACKLOG,
        **options,
    )


def serve_forever(settings: Settings, host: str, port: int) -> None:
    """The CLI path: foreground, signals handled by uvicorn, one announcement line."""
    keep_freed_memory()
    sock = bind_socket(host, port)
    url = base_url(sock)

    def announce() -> None:
        print(f"workers listening on {url}", flush=True)

    app = create_app(settings)
    config = uvicorn_config(app, settings)
    server = _AnnouncingServer(config, announce)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def _join_worker_threads(server: _AnnouncingServer) -> None:
    """Wait for the thread pool of the finished loop, so stop() leaves no thread behind.

    AnyIO tells its workers to stop when the loop's root task ends; they belong to
    the loop through their ``loop`` attribute.
    """
    if server.loop is None:
        return
    for thread in threading.enumerate():
        if (
            thread is not threading.current_thread()
            and getattr(thread, "loop", None) is server.loop
        ):
            thread.join(STARTUP_TIMEOUT_SECONDS)


class EmbeddedServer:
    """The backend in a background thread on loopback, for the desktop app and QA.

    ``start()`` returns the base URL once connections are accepted; ``stop()`` joins
    the thread and may be called more than once.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.url = ""
        self.device_token = ""
        self._server: _AnnouncingServer | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._failure: BaseException | None = None

    def start(self) -> str:
        if self._thread is not None:
            return self.url
        keep_freed_memory()
        app = create_app(self.settings)
        self.device_token = app.state.backend.device_token
        self._socket = bind_socket(LOOPBACK, 0)
        self.url = base_url(self._socket)
        listening = threading.Event()
        # log_config=None: the host process keeps its own logging set-up.
        config = uvicorn_config(app, self.settings, log_config=None)
        self._server = _AnnouncingServer(config, listening.set)
        server, sock = self._server, self._socket

        def run() -> None:
            try:
                server.run(sockets=[sock])
            except BaseException as error:  # reported to start(), which re-raises
                self._failure = error
            finally:
                listening.set()

        self._thread = threading.Thread(target=run, name="workers-embedded", daemon=True)
        self._thread.start()
        if not listening.wait(STARTUP_TIMEOUT_SECONDS) or not server.started:
            self.stop()
            raise RuntimeError("The embedded backend did not start.") from self._failure
        return self.url

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join()
            self._thread = None
            if self._server is not None:
                _join_worker_threads(self._server)
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self._server = None

    def __enter__(self) -> EmbeddedServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
