"""Connections to the backend as the frames see them: one client per thread, one key session.

``requests`` sessions are not meant to be shared across threads, so every worker
thread gets its own :class:`BackendClient` from :class:`BackendLink`. A
:class:`WorkspaceLink` pins the key session of one workspace: jobs carry the link
they were created with, so a save queued before a workspace switch still lands in
the workspace it was typed in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from bridge.client import BackendClient, WireKeySession
from bridge.errors import AccessRefused, BackendError

T = TypeVar("T")


class BackendLink:
    """Hands each thread its own client for one backend URL and device token."""

    def __init__(self, base_url: str, device_token: str) -> None:
        self.base_url = base_url
        self._device_token = device_token
        self._local = threading.local()
        self._clients: list[BackendClient] = []
        self._lock = threading.Lock()

    def client(self) -> BackendClient:
        """The calling thread's client (created on first use)."""
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

    def __init__(self, backend: BackendLink, session: WireKeySession) -> None:
        self.backend = backend
        self.workspace = session.workspace
        self._session = session
        self._lock = threading.Lock()

    @property
    def session(self) -> WireKeySession:
        with self._lock:
            return self._session

    def call(self, action: Callable[[BackendClient, WireKeySession], T]) -> T:
        """Run ``action(client, key_session)`` on the calling thread's client (blocks)."""
        client = self.backend.client()
        session = self.session
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
            return self._session
