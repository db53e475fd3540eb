"""Connections to the backend as the frames see them: one client per thread, one key session.

``requests`` sessions are not meant to be shared across threads, so every worker
thread gets its own :class:`BackendClient` from :class:`BackendLink`. A
:class:`WorkspaceLink` pins the key session of one workspace: jobs carry the link
they were created with, so a save queued before a workspace switch still lands in
the workspace it was typed in.

Both may be made before the backend answers (the embedded backend starts after the
first note is painted, issue 33): then every call on a worker thread waits until
:meth:`BackendLink.answers` and :meth:`WorkspaceLink.opened` (or their ``failed``)
are called, so what was typed meanwhile is saved once the backend answers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from bridge.client import BackendClient, WireKeySession
from bridge.errors import AccessRefused, BackendError

T = TypeVar("T")

FolderRead = Callable[[str], tuple[str, str] | None]
"""``read(path) -> (text, etag)`` straight from the workspace folder, or None when it can't."""


class _Awaited:
    """Set once, from any thread: a value or a failure; :meth:`wait` blocks until then."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._failure: BackendError | None = None

    @property
    def settled(self) -> bool:
        return self._event.is_set()

    def settle(self, failure: BackendError | None = None) -> None:
        self._failure = failure
        self._event.set()

    def wait(self) -> None:
        """Block (on a worker thread only) until settled; raise the failure if there was one."""
        self._event.wait()
        if self._failure is not None:
            raise self._failure


class BackendLink:
    """Hands each thread its own client for one backend URL and device token.

    Made with :meth:`starting`, the address is not known yet: :meth:`client` waits on the
    calling worker thread until :meth:`answers` (or :meth:`failed`) is called.
    """

    def __init__(self, base_url: str, device_token: str) -> None:
        self.base_url = base_url
        self._device_token = device_token
        self._local = threading.local()
        self._clients: list[BackendClient] = []
        self._lock = threading.Lock()
        self._answer = _Awaited()
        if base_url:
            self._answer.settle()

    @classmethod
    def starting(cls) -> BackendLink:
        """A link to a backend that is still starting: its calls wait until it answers."""
        return cls("", "")

    @property
    def device_token(self) -> str:
        """The token the backend accepts ("" until it answers)."""
        return self._device_token

    @property
    def answering(self) -> bool:
        """True once the backend's address is known and it accepts connections."""
        return self._answer.settled and bool(self.base_url)

    def answers(self, base_url: str, device_token: str) -> None:
        """The backend is up at ``base_url``: waiting calls go ahead (any thread)."""
        self.base_url = base_url
        self._device_token = device_token
        self._answer.settle()

    def failed(self, failure: BackendError) -> None:
        """The backend will never answer: waiting and later calls raise ``failure``."""
        self._answer.settle(failure)

    def client(self) -> BackendClient:
        """The calling thread's client (created on first use); waits for a starting backend."""
        self._answer.wait()
        client: BackendClient | None = getattr(self._local, "client", None)
        if client is None:
            client = BackendClient(self.base_url, self._device_token)
            self._local.client = client
            with self._lock:
                self._clients.append(client)
        return client

    def close(self) -> None:
        """Close every client created so far; call once the worker threads have stopped."""
        with self._lock:
            clients, self._clients = self._clients, []
        for client in clients:
            client.close()


class WorkspaceLink:
    """The backend plus the key session of one workspace, renewed when the backend refuses it.

    Key sessions expire (15 minutes); a long editing session must not start
    failing its saves, so :meth:`call` opens a fresh key session once when the
    backend refuses the current one, then retries. Safe to use from any thread.
    """

    def __init__(
        self,
        backend: BackendLink,
        session: WireKeySession | None,
        *,
        workspace: str = "",
        read_folder: FolderRead | None = None,
    ) -> None:
        self.backend = backend
        self.workspace = session.workspace if session is not None else workspace
        self._session = session
        self._lock = threading.Lock()
        self._opened = _Awaited()
        if session is not None:
            self._opened.settle()
        self._read_folder = read_folder

    @classmethod
    def opening(
        cls, backend: BackendLink, workspace: str, read_folder: FolderRead | None = None
    ) -> WorkspaceLink:
        """A link whose key session comes later (:meth:`opened`); calls wait until then.

        ``read_folder`` reads a note straight from the workspace folder while the link
        waits (the embedded backend's own folder only): see :meth:`read_while_opening`.
        """
        return cls(backend, None, workspace=workspace, read_folder=read_folder)

    @property
    def is_open(self) -> bool:
        """True once the key session is held: calls go to the backend at once."""
        return self._session is not None

    def opened(self, session: WireKeySession) -> None:
        """The key session is open: waiting calls go ahead (any thread)."""
        with self._lock:
            self._session = session
        self._opened.settle()

    def failed(self, failure: BackendError) -> None:
        """The workspace could not be opened: waiting and later calls raise ``failure``."""
        self._opened.settle(failure)

    @property
    def session(self) -> WireKeySession:
        """The key session (waits on a worker thread while the link is opening)."""
        self._opened.wait()
        with self._lock:
            assert self._session is not None
            return self._session

    def read_while_opening(self, path: str) -> tuple[str, str] | None:
        """``path``'s text and ETag read from the workspace folder, while the link is opening.

        None once the key session is held, with no folder (a remote backend), or when the
        folder read fails: then the caller asks the backend, whose answer is the truth.
        The ETag is that of the bytes read, so the first save's ``If-Match`` meets the
        normal conflict path if the file changed meanwhile (R53).
        """
        if self._read_folder is None or self._opened.settled:
            return None
        return self._read_folder(path)

    def call(self, action: Callable[[BackendClient, WireKeySession], T]) -> T:
        """Run ``action(client, key_session)`` on the calling thread's client (blocks)."""
        session = self.session
        client = self.backend.client()
        try:
            return action(client, session)
        except AccessRefused:
            fresh = self._renew(client, session)
            if fresh is session:
                raise
            return action(client, fresh)

    def _renew(self, client: BackendClient, refused: WireKeySession) -> WireKeySession:
        with self._lock:
            if self._session is refused:
                try:
                    self._session = client.open_key_session(self.workspace)
                except BackendError:
                    return refused
            assert self._session is not None
            return self._session
