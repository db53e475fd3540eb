"""The real backend on loopback beside a scripted model, and inline requests on plain sockets.

A plain socket is how a test leaves mid-answer (``close()``), as a person closing the app
or a dropped connection does, and how it sends what no HTTP client library would.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model
from tests.support.waiting import WAIT_SECONDS
from workers.server import EmbeddedServer
from workers.settings import Settings

WORKSPACE = "w"


@dataclass
class ServedInline:
    """A running backend with one workspace and a key session for it, and its model."""

    url: str
    token: str
    key: str
    model: ScriptedModel

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "X-Key-Session": self.key}

    def raw(self, head: list[str], body: bytes = b"") -> socket.socket:
        """Send a request line and headers (``head``), the auth ones added, then ``body``."""
        address = urlsplit(self.url)
        assert address.hostname is not None and address.port is not None
        connection = socket.create_connection((address.hostname, address.port), WAIT_SECONDS)
        lines = [*head, f"Host: {address.netloc}"]
        lines += [f"{name}: {value}" for name, value in self.headers.items()]
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        return connection

    def open_inline(self, *, streamed: bool, lines: str = "[1, 1]") -> socket.socket:
        """Send one inline request and leave its answer unread; ``lines`` as JSON text."""
        body = inline_body(lines)
        head = [
            f"POST /v1/workspaces/{WORKSPACE}/inline HTTP/1.1",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
        ]
        if streamed:
            head.append("Accept: text/event-stream")
        return self.raw(head, body)

    def history(self) -> list[dict[str, Any]]:
        """The workspace's inline records, newest first."""
        answer = httpx.get(
            f"{self.url}/v1/workspaces/{WORKSPACE}/inline",
            params={"limit": 100},
            headers=self.headers,
            timeout=WAIT_SECONDS,
        )
        assert answer.status_code == 200, answer.text
        found: list[dict[str, Any]] = answer.json()["requests"]
        return found

    def put(self, path: str, text: bytes, timeout: float) -> httpx.Response:
        return httpx.put(
            f"{self.url}/v1/workspaces/{WORKSPACE}/documents/{path}",
            content=text,
            headers=self.headers,
            timeout=timeout,
        )


def inline_body(lines: str = "[1, 1]") -> bytes:
    """An inline request's JSON with ``lines`` written as given (a number JSON cannot parse
    into Python's ``int`` is text here)."""
    fields = {"instruction": "rewrite this", "path": "notes/a.md", "selection": "some words\n"}
    return (json.dumps(fields)[:-1] + f', "lines": {lines}' + "}").encode()


@contextmanager
def served_inline(folder: Path) -> Iterator[ServedInline]:
    with ExitStack() as stack:
        model = stack.enter_context(scripted_model())
        settings = Settings(data_dir=folder, model_base_url=model.url, model=MODEL_ID)
        server = stack.enter_context(EmbeddedServer(settings))
        auth = {"Authorization": f"Bearer {server.device_token}"}
        created = httpx.post(
            f"{server.url}/v1/workspaces", json={"workspace": WORKSPACE}, headers=auth
        )
        assert created.status_code in (200, 201), created.text
        issued = httpx.post(
            f"{server.url}/v1/key-sessions", json={"workspace": WORKSPACE}, headers=auth
        )
        assert issued.status_code == 201, issued.text
        yield ServedInline(server.url, server.device_token, issued.json()["key"], model)
        model.release.set()  # the stalls end before the server stops
