"""R43: documents hold against links swapped in mid-request, leftovers, and paths that alias.

The race and the raw-byte paths run against ``python -m workers serve`` over real sockets;
the rest use the in-process app on the same code.
"""

from __future__ import annotations

import fcntl
import http.client
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bridge.connections import PATH_NOT_UTF8
from tests.stress.race import swap_race
from tests.support.backend import RunningBackend, make_workspace, start_backend_process
from tests.workers.conftest import DEVICE_TOKEN, NOTES, WORKSPACE, Backend, TestClient
from workers import messages
from workers.app import create_app
from workers.settings import Settings

DOCS = f"/v1/workspaces/{WORKSPACE}/documents"
SECRET = "TOP SECRET outside the workspace\n"


@pytest.mark.slow
def test_r43_a_folder_swapped_for_a_link_never_lets_a_request_escape(tmp_path: Path) -> None:
    """A thread swaps ``notes`` between a real folder and a link outside while requests run."""
    figure = swap_race(tmp_path, seconds=20.0, max_requests=800)
    assert figure.cases > 0
    assert (figure.leaked, figure.server_errors, figure.lost) == (0, 0, 0), figure.line()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningBackend, str]]:
    data_dir = tmp_path_factory.mktemp("served")
    make_workspace(data_dir, WORKSPACE, NOTES)
    with start_backend_process(data_dir) as backend:
        connection = _connect(backend)
        connection.request(
            "POST",
            "/v1/key-sessions",
            body=json.dumps({"workspace": WORKSPACE}),
            headers=backend.auth,
        )
        key = json.loads(connection.getresponse().read())["key"]
        connection.close()
        yield backend, key


def _connect(backend: RunningBackend) -> http.client.HTTPConnection:
    parts = urlsplit(backend.url)
    return http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)


def _send(
    connection: http.client.HTTPConnection,
    backend: RunningBackend,
    key: str,
    method: str,
    target: str,
    body: bytes = b"",
) -> tuple[int, bytes]:
    connection.request(method, target, body=body, headers={**backend.auth, "X-Key-Session": key})
    response = connection.getresponse()
    return response.status, response.read()


@pytest.mark.slow
def test_r43_percent_encoded_bytes_that_are_not_utf8_are_400(
    served: tuple[RunningBackend, str],
) -> None:
    """``x%ff.md`` and ``x%fe.md`` were both saved as ``x\\ufffd.md``: two paths, one file."""
    backend, key = served
    connection = _connect(backend)
    for path in ("x%ff.md", "x%fe.md", "notes/%C3%28.md", "%ff/a.md"):
        status, body = _send(connection, backend, key, "PUT", f"{DOCS}/{path}", b"planted")
        assert status == 400, body
        assert json.loads(body)["error"]["message"] == PATH_NOT_UTF8
        status, _ = _send(connection, backend, key, "GET", f"{DOCS}/{path}")
        assert status == 400
    status, _ = _send(connection, backend, key, "GET", f"{DOCS}?prefix=%ff")
    assert status == 400
    root = backend.data_dir / "workspaces" / WORKSPACE
    assert not any("\ufffd" in name for _, _, files in os.walk(root) for name in files)
    # Real UTF-8, percent-encoded, is still a path like any other.
    status, _ = _send(connection, backend, key, "PUT", f"{DOCS}/%E3%83%8E.md", b"no")
    assert status == 200
    assert (root / "ノ.md").read_text(encoding="utf-8") == "no"
    connection.close()


@pytest.mark.slow
def test_r43_a_refusal_keeps_the_connection_alive(served: tuple[RunningBackend, str]) -> None:
    """Each 4xx is followed by a 200 on the same kept-alive connection."""
    backend, key = served
    connection = _connect(backend)
    for refused in ("notes/missing.md", "x%ff.md", "..%2Fsecret.md", ".ambient-save-0123abcd"):
        status, _ = _send(connection, backend, key, "GET", f"{DOCS}/{refused}")
        assert 400 <= status < 500
        socket_before = connection.sock
        status, body = _send(connection, backend, key, "GET", f"{DOCS}/notes/a.md")
        assert (status, body.decode()) == (200, NOTES["notes/a.md"])
        assert connection.sock is socket_before  # not reopened behind the test's back
    connection.close()


def _tool(backend: Backend, key: str, command: str) -> Any:
    (call,) = backend.turn(f"/tool {command}", key=key)["toolCalls"]
    return call["result"]


def _start(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Settings(data_dir=tmp_path, device_token=DEVICE_TOKEN)))


def test_r43_leftover_temporary_files_are_removed_at_start(tmp_path: Path) -> None:
    """kill -9 during a save leaves ``.ambient-save-*``; the next start deletes it."""
    root = make_workspace(tmp_path, WORKSPACE, NOTES)
    leftovers = [root / ".ambient-save-14dd1f879490130d", root / "notes/.ambient-save-0a1b2c3d"]
    for leftover in leftovers:
        leftover.write_bytes(b"half a save")
    held = root / "notes/.ambient-save-feedfacecafe0001"
    held.write_bytes(b"a save another server is writing right now")
    with open(held, "rb") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)  # as a running save holds its file
        with _start(tmp_path):
            pass
    assert [path.exists() for path in leftovers] == [False, False]
    assert held.exists()  # another server's save in progress is left alone


def test_r43_a_temporary_file_is_never_served_or_listed(backend: Backend) -> None:
    key = backend.key()
    temporary = backend.root / "notes" / ".ambient-save-14dd1f879490130d"
    temporary.write_text("half a save", encoding="utf-8")
    read = backend.client.get(f"{DOCS}/notes/{temporary.name}", headers=backend.headers(key))
    assert read.status_code == 404
    listing = backend.client.get(DOCS, headers=backend.headers(key)).json()["documents"]
    assert [entry["path"] for entry in listing] == sorted(NOTES)
    written = backend.client.put(
        f"{DOCS}/notes/{temporary.name}", content=b"x", headers=backend.headers(key)
    )
    assert written.status_code == 400
    assert temporary.read_text(encoding="utf-8") == "half a save"


def test_r43_a_hard_linked_file_is_not_read_and_a_save_unlinks_it(
    backend: Backend, tmp_path: Path
) -> None:
    """A hard link may be an outside file under an inside name: not served, not listed.

    A save is safe (it renames a new file into place, so the outside file is untouched),
    and afterwards the document is a file of its own and is served again.
    """
    outside = tmp_path / "outside.md"
    outside.write_text(SECRET, encoding="utf-8")
    os.link(outside, backend.root / "hard.md")
    key = backend.key()
    read = backend.client.get(f"{DOCS}/hard.md", headers=backend.headers(key))
    assert read.status_code == 400
    assert read.json()["error"] == {
        "code": "hard_linked",
        "message": messages.DOCUMENT_HARD_LINKED,
    }
    listing = backend.client.get(DOCS, headers=backend.headers(key)).json()["documents"]
    assert "hard.md" not in [entry["path"] for entry in listing]
    tool = _tool(backend, key, 'read_document {"path": "hard.md"}')
    assert (tool["status"], tool["message"]) == ("access_denied", messages.DOCUMENT_HARD_LINKED)
    saved = backend.client.put(f"{DOCS}/hard.md", content=b"mine", headers=backend.headers(key))
    assert saved.status_code == 200
    assert outside.read_text(encoding="utf-8") == SECRET
    again = backend.client.get(f"{DOCS}/hard.md", headers=backend.headers(key))
    assert (again.status_code, again.text) == (200, "mine")


def test_r43_links_inside_the_workspace_still_work_and_dot_dot_links_out_do_not(
    backend: Backend, tmp_path: Path
) -> None:
    """Links are walked by hand: inside targets (relative or absolute) are served."""
    os.symlink("notes", backend.root / "alias")
    os.symlink(backend.root / "notes" / "a.md", backend.root / "absolute.md")
    os.symlink("../../../outside.md", backend.root / "notes" / "up.md")
    (tmp_path / "outside.md").write_text(SECRET, encoding="utf-8")
    key = backend.key()
    for path in ("alias/a.md", "absolute.md"):
        read = backend.client.get(f"{DOCS}/{path}", headers=backend.headers(key))
        assert (read.status_code, read.text) == (200, NOTES["notes/a.md"])
    escape = backend.client.get(f"{DOCS}/notes/up.md", headers=backend.headers(key))
    assert escape.status_code == 400
    assert escape.json()["error"]["code"] == "path_outside_workspace"
    written = backend.client.put(f"{DOCS}/alias/new.md", content=b"n", headers=backend.headers(key))
    assert written.status_code == 200
    assert (backend.root / "notes" / "new.md").read_text(encoding="utf-8") == "n"
    refused = backend.client.put(f"{DOCS}/notes/up.md", content=b"x", headers=backend.headers(key))
    assert refused.status_code == 400
    assert (tmp_path / "outside.md").read_text(encoding="utf-8") == SECRET


def test_r43_a_workspace_folder_that_is_a_link_is_not_a_workspace(
    backend: Backend, tmp_path: Path
) -> None:
    """``DIR/workspaces/<id>`` must be a folder of its own; a folder elsewhere is configured."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET, encoding="utf-8")
    os.symlink(outside, backend.settings.workspaces_dir / "linked")
    response = backend.client.post(
        "/v1/key-sessions", json={"workspace": "linked"}, headers=backend.auth
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "workspace_not_found"
