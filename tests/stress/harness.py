"""What every stress part shares: the server subprocess, a keep-alive client and the figures."""

from __future__ import annotations

import base64
import http.client
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.support.backend import RunningBackend, start_backend_process

TEMP_PREFIX = ".ambient-save-"  # the spec's name for a save in progress (R43)


@dataclass
class Figure:
    """One line of the report: every part must end with 0 lost, 0 leaked and 0 × 5xx."""

    name: str
    cases: int = 0
    lost: int = 0
    leaked: int = 0
    server_errors: int = 0
    stalls: int = 0
    """GUI-thread gaps over 100 ms, for the parts that drive the window (R76)."""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return (
            self.cases > 0
            and self.lost == 0
            and self.leaked == 0
            and self.server_errors == 0
            and self.stalls == 0
        )

    def line(self) -> str:
        extra = ", ".join(f"{key} {value}" for key, value in self.details.items())
        verdict = "ok" if self.ok else "FAILED"
        return (
            f"{self.name}: {self.cases:,} cases — {self.lost} lost, {self.leaked} leaked, "
            f"{self.server_errors} × 5xx" + (f" ({extra})" if extra else "") + f" [{verdict}]"
        )


class Http:
    """One keep-alive HTTP/1.1 connection; a dropped connection is reopened and counted."""

    def __init__(self, backend: RunningBackend, *, timeout: float = 30.0) -> None:
        parts = urlsplit(backend.url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.token = backend.token
        self.timeout = timeout
        self.key = ""
        self.reconnects = 0
        self._connection: http.client.HTTPConnection | None = None

    def request(
        self,
        method: str,
        target: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        """Status and body; reopens once when a kept-alive connection was closed under it."""
        for attempt in range(2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection(
                    self.host, self.port, timeout=self.timeout
                )
            try:
                return self._exchange(self._connection, method, target, body, headers or {})
            except (OSError, http.client.HTTPException):
                self.close()
                self.reconnects += 1
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    def _exchange(
        self,
        connection: http.client.HTTPConnection,
        method: str,
        target: str,
        body: bytes | None,
        headers: dict[str, str],
    ) -> tuple[int, bytes]:
        # A Host given by the caller replaces http.client's own (R65 cases send hostile ones).
        connection.putrequest(
            method, target, skip_host="Host" in headers, skip_accept_encoding=True
        )
        all_headers = {"Authorization": f"Bearer {self.token}", **headers}
        if self.key:
            all_headers.setdefault("X-Key-Session", self.key)
        if body is not None or method in ("PUT", "POST"):
            all_headers["Content-Length"] = str(len(body or b""))
        for name, value in all_headers.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read()
        if response.will_close:
            self.close()
        return response.status, data

    def open_key(self, workspace: str) -> str:
        status, data = self.request(
            "POST", "/v1/key-sessions", json.dumps({"workspace": workspace}).encode()
        )
        if status != 201:
            raise RuntimeError(f"no key session for {workspace}: {status} {data!r}")
        self.key = str(json.loads(data)["key"])
        return self.key

    def turn(
        self, conversation: str, message: str, ambient: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json"}
        if ambient is not None:
            headers["X-Ambient-Note"] = ambient
        body = json.dumps({"conversation": conversation, "message": message}).encode()
        status, data = self.request("POST", "/v1/agent/turns", body, headers)
        try:
            parsed = json.loads(data)
        except ValueError:
            parsed = {}
        return status, parsed if isinstance(parsed, dict) else {}

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def pointer_value(fields: dict[str, Any]) -> str:
    """The ``X-Ambient-Note`` value for ``fields``, built by hand as a hostile client would."""
    raw = json.dumps(fields, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def valid_pointer_fields(path: str, text: str) -> dict[str, Any]:
    import hashlib

    data = text.encode("utf-8")
    return {
        "v": 1,
        "path": path,
        "view": "edit",
        "frameId": "inbox-1",
        "selection": {"anchor": 0, "head": 0},
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest()[:16],
        "flushed": True,
        "capturedAt": "2026-11-29T19:08:18.123Z",
    }


def make_workspace_files(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        target = root.joinpath(*relative.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every entry under ``folder`` (links by their text), to prove nothing changed there."""
    found: dict[str, bytes] = {}
    for current, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(current) / name
            relative = str(path.relative_to(folder))
            if path.is_symlink():
                found[relative] = b"-> " + os.fsencode(os.readlink(path))
            elif path.is_file():
                found[relative] = path.read_bytes()
            else:
                found[relative] = b"<folder>"
    return found


def leftover_temporaries(folder: Path) -> list[Path]:
    return [
        Path(current) / name
        for current, _folders, files in os.walk(folder)
        for name in files
        if name.startswith(TEMP_PREFIX)
    ]


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc (Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@contextmanager
def server(data_dir: Path, extra_args: Sequence[str] = ()) -> Iterator[RunningBackend]:
    """``python -m workers serve`` on loopback with a fresh token; stopped at the end."""
    with start_backend_process(data_dir, extra_args=extra_args) as backend:
        yield backend
