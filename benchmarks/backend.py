"""What every backend benchmark sets up: an embedded backend, a key session, a pointer.

The backend runs in a thread of this process and is reached through real HTTP on
loopback, as the desktop app reaches it; a benchmark then times turns and reads
against a floor measured in the same run.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from bridge.pointer import AmbientPointer, encode_header, fingerprint
from bridge.views import EDIT
from workers.server import EmbeddedServer
from workers.settings import Settings

CAPTURED_AT = "2026-11-29T19:08:18.123Z"
"""The pointer's capture time: fixed, since no benchmark depends on it."""

TIMEOUT_SECONDS = 10


def pointer_header(path: str, text: str) -> str:
    """A valid ``X-Ambient-Note`` for the note at ``path`` whose saved copy is ``text``."""
    size, digest = fingerprint(text)
    pointer = AmbientPointer(
        path=path,
        view=EDIT,
        frameId="inbox-1",
        bytes=size,
        sha256=digest,
        flushed=True,
        capturedAt=CAPTURED_AT,
    )
    header = encode_header(pointer)
    assert header is not None
    return header


def write_notes(settings: Settings, workspace: str, notes: dict[str, str]) -> Path:
    """The workspace folder with each note (a path inside it → its text) saved; its root."""
    root = settings.workspaces_dir / workspace
    for path, text in notes.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    root.mkdir(parents=True, exist_ok=True)
    return root


def key_session(server: EmbeddedServer, workspace: str) -> requests.Session:
    """An HTTP session carrying the device token and a new key session for ``workspace``."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {server.device_token}"
    answer = session.post(
        f"{server.url}/v1/key-sessions", json={"workspace": workspace}, timeout=TIMEOUT_SECONDS
    )
    answer.raise_for_status()
    session.headers[KEY_SESSION_HEADER] = answer.json()["key"]
    return session


@contextmanager
def backend(
    settings: Settings, workspace: str
) -> Iterator[tuple[EmbeddedServer, requests.Session]]:
    """The embedded backend on ``settings`` and a key session for ``workspace``."""
    with EmbeddedServer(settings) as server, key_session(server, workspace) as session:
        yield server, session


def post_turn(
    server: EmbeddedServer,
    session: requests.Session,
    conversation: str,
    message: str,
    *,
    pointer: str | None = None,
    timeout: float = TIMEOUT_SECONDS,
    **options: Any,
) -> requests.Response:
    """``POST /v1/agent/turns``, with ``pointer`` as the ``X-Ambient-Note`` when given."""
    headers = {} if pointer is None else {HEADER_NAME: pointer}
    return session.post(
        f"{server.url}/v1/agent/turns",
        json={"conversation": conversation, "message": message},
        headers=headers,
        timeout=timeout,
        **options,
    )
