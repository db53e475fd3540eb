"""Hostile paths against the real server: nothing outside the workspace is read or written.

Contract 3's path rules, R16 and R28, spoken over raw HTTP to ``python -m workers serve``
so that no client library tidies the attack away first.
"""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.support.backend import RunningBackend, make_workspace, start_backend_process
from tests.workers.conftest import pointer_header

SECRET = "TOP SECRET outside the workspace"
WORKSPACE = "demo"

ATTACKS = [
    "../outside/secret.md",
    "../../outside/secret.md",
    "notes/../../../outside/secret.md",
    "%2e%2e/%2e%2e/outside/secret.md",
    "%2E%2E%2F%2E%2E%2Foutside%2Fsecret.md",
    "notes%2F..%2F..%2F..%2Foutside%2Fsecret.md",
    "..%5C..%5Coutside%5Csecret.md",
    "notes\\..\\..\\outside\\secret.md",
    "notes%00.md",
    "%00",
    "/etc/passwd",
    "%2Fetc%2Fpasswd",
    "notes//a.md",
    "notes/./a.md",
    ".",
    "notes/",
    "a" * 256 + ".md",
    "/".join(["d" * 200] * 21),  # over 4,096 bytes
    "escape.md",  # a symlink to a file outside
    "outlink/secret.md",  # a symlinked folder leading outside
    "outlink/planted.md",
]


@dataclass
class Attacked:
    backend: RunningBackend
    key: str
    outside: Path

    def request(
        self, method: str, target: str, body: bytes | None = None, **headers: str
    ) -> tuple[int, bytes]:
        parts = urlsplit(self.backend.url)
        connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=10
        )
        try:
            connection.putrequest(method, target, skip_accept_encoding=True)
            all_headers = {
                "Authorization": f"Bearer {self.backend.token}",
                "X-Key-Session": self.key,
                "Content-Length": str(len(body or b"")),
                **headers,
            }
            for name, value in all_headers.items():
                connection.putheader(name, value)
            connection.endheaders(body)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def turn(self, message: str, **headers: str) -> dict[str, Any]:
        body = json.dumps({"conversation": "attack", "message": message}).encode()
        status, data = self.request(
            "POST", "/v1/agent/turns", body, **{"Content-Type": "application/json", **headers}
        )
        assert status == 200, data
        result: dict[str, Any] = json.loads(data)
        return result


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under the data folder and its content; the database files only by name."""
    return {
        str(path.relative_to(folder)): b""
        if path.name.startswith("ambient.db")
        else path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


@pytest.fixture(scope="module")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Attacked]:
    data_dir = tmp_path_factory.mktemp("attacks")
    outside = data_dir / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET, encoding="utf-8")
    root = make_workspace(data_dir, WORKSPACE, {"notes/a.md": "# A\nalpha\n"})
    os.symlink(outside / "secret.md", root / "escape.md")
    os.symlink(outside, root / "outlink")
    with start_backend_process(data_dir) as backend:
        parts = urlsplit(backend.url)
        connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=10
        )
        connection.request(
            "POST",
            "/v1/key-sessions",
            body=json.dumps({"workspace": WORKSPACE}),
            headers={"Authorization": f"Bearer {backend.token}"},
        )
        key = json.loads(connection.getresponse().read())["key"]
        connection.close()
        yield Attacked(backend, key, outside)


@pytest.mark.slow
@pytest.mark.parametrize("attack", ATTACKS)
def test_document_api_refuses_path_attacks(attacked: Attacked, attack: str) -> None:
    before = _snapshot(attacked.backend.data_dir)
    target = f"/v1/workspaces/{WORKSPACE}/documents/{attack}"
    status, body = attacked.request("GET", target)
    assert status in (400, 404), (status, body)
    assert SECRET.encode() not in body
    assert "error" in json.loads(body)
    status, body = attacked.request("PUT", target, b"planted by an attack")
    assert status in (400, 404), (status, body)
    assert json.loads(body)["error"]["message"]
    assert _snapshot(attacked.backend.data_dir) == before


@pytest.mark.slow
def test_symlink_out_of_the_workspace_is_400_with_the_shared_message(attacked: Attacked) -> None:
    status, body = attacked.request("GET", f"/v1/workspaces/{WORKSPACE}/documents/escape.md")
    assert status == 400
    assert json.loads(body)["error"]["code"] == "path_outside_workspace"


@pytest.mark.slow
def test_workspace_segment_attacks_are_refused(attacked: Attacked) -> None:
    for target in (
        "/v1/workspaces/../documents/outside/secret.md",
        "/v1/workspaces/%2e%2e/documents/outside/secret.md",
        f"/v1/workspaces/{WORKSPACE}/../outside/documents/secret.md",
    ):
        status, body = attacked.request("GET", target)
        assert status in (400, 403, 404), (target, status)
        assert SECRET.encode() not in body


@pytest.mark.slow
@pytest.mark.parametrize("attack", ATTACKS)
def test_read_document_tool_refuses_path_attacks(attacked: Attacked, attack: str) -> None:
    # The tool takes the path as JSON, so percent-escapes are literal characters there.
    reply = attacked.turn(f"/tool read_document {json.dumps({'path': attack})}")
    (call,) = reply["toolCalls"]
    assert call["result"]["status"] in ("invalid_argument", "access_denied", "not_found")
    assert call["result"]["text"] is None
    assert SECRET not in json.dumps(reply)


@pytest.mark.slow
def test_r28_active_note_through_a_symlink_out_is_refused(attacked: Attacked) -> None:
    header = pointer_header("escape.md", SECRET)
    reply = attacked.turn("summarise this", **{"X-Ambient-Note": header})
    assert reply["ambient"]["status"] == "stored"
    (call,) = reply["toolCalls"]
    assert call["name"] == "read_active_note"
    assert call["result"]["status"] == "access_denied"
    document = attacked.turn(f"/tool read_document {json.dumps({'path': 'escape.md'})}")
    # R28: both read tools refuse with the same message.
    assert document["toolCalls"][0]["result"]["message"] == call["result"]["message"]
    assert SECRET not in json.dumps(reply)
