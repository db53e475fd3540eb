"""Edges of turn authorization and reading: accounts, expiry instants, limits, symlinks, saves.

Each test pins one edge that the broader tests pass over: another account's rows, the
exact expiry instant, a note of exactly ``maxBytes``, a row replaced during a turn, a
listing beside a symlink out, a save that fails half-way (contract 2–4, R18–R22, R26).
"""

from __future__ import annotations

import errno
import json
import os
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bridge.caveat import CAVEAT
from bridge.contract import ACCESS_TTL
from tests.workers.conftest import (
    DEVICE_TOKEN,
    NOTES,
    WORKSPACE,
    Backend,
    TestClient,
    pointer_header,
)
from workers import messages
from workers.app import create_app
from workers.dependencies import BackendState
from workers.settings import Settings
from workers.tools import ToolContext, read_active_note, read_document

SECRET = "TOP SECRET outside the workspace"


def _state(backend: Backend) -> BackendState:
    state: BackendState = backend.client.app.state.backend  # type: ignore[attr-defined]
    return state


def _context(backend: Backend, key: str, conversation: str = "c1") -> ToolContext:
    """The context one turn's tools get, kept alive so a test can act between two calls."""
    state = _state(backend)
    return ToolContext(
        session=state.key_sessions.check(state.account, key),
        conversation=conversation,
        deliveries=state.deliveries,
        workspaces=state.workspaces,
        clock=backend.clock,
    )


def _tool(backend: Backend, key: str, command: str, ambient: str | None = None) -> Any:
    (call,) = backend.turn(f"/tool {command}", key=key, ambient=ambient)["toolCalls"]
    return call["result"]


@pytest.fixture
def other_device(backend: Backend, tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """A second device token on the same data folder and database: another account."""
    token = f"{DEVICE_TOKEN}-other-device"
    settings = Settings(data_dir=tmp_path, device_token=token, clock=backend.clock)
    with TestClient(create_app(settings), raise_server_exceptions=True) as client:
        yield client, {"Authorization": f"Bearer {token}"}


def test_r18_a_send_without_key_session_keeps_another_accounts_row(
    backend: Backend, other_device: tuple[TestClient, dict[str, str]]
) -> None:
    key = backend.key()
    backend.turn("one", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    client, auth = other_device
    response = client.post(
        "/v1/agent/turns", json={"conversation": "c1", "message": "no key"}, headers=auth
    )
    assert response.status_code == 200 and response.json()["ambient"]["status"] == "absent"
    stored = backend.delivery(key)  # contract 4: only this account's rows are deleted
    assert stored is not None and stored["ambient_path"] == "notes/a.md"


def test_r22_one_turn_context_rereads_a_row_replaced_between_calls(backend: Backend) -> None:
    key = backend.key()
    backend.turn("one", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    context = _context(backend, key)
    assert read_active_note(context, {})["path"] == "notes/a.md"
    backend.turn("two", key=key, ambient=pointer_header("notes/b.md", NOTES["notes/b.md"]))
    second = read_active_note(context, {})
    assert (second["status"], second["path"], second["text"]) == (
        "ok",
        "notes/b.md",
        NOTES["notes/b.md"],
    )
    backend.turn("three", key=key)
    assert read_active_note(context, {})["status"] == "no_active_note"


def test_r22_r28_key_session_expiring_during_a_live_row_refuses_both_tools(
    backend: Backend,
) -> None:
    backend.settings.delivery_ttl = timedelta(hours=1)  # so only the key session expires
    key = backend.key()
    backend.turn("one", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    context = _context(backend, key)
    assert read_active_note(context, {})["status"] == "ok"
    backend.clock.advance(ACCESS_TTL)
    active = read_active_note(context, {})
    named = read_document(context, {"path": "notes/a.md"})
    assert active["status"] == named["status"] == "access_denied"
    assert active["message"] == named["message"] == messages.KEY_SESSION_EXPIRED
    assert active["text"] is None and named["text"] is None


def test_key_session_expires_exactly_15_minutes_after_it_was_issued(backend: Backend) -> None:
    key = backend.key()
    document = f"/v1/workspaces/{WORKSPACE}/documents/notes/a.md"
    backend.clock.advance(ACCESS_TTL - timedelta(milliseconds=1))
    assert backend.client.get(document, headers=backend.headers(key)).status_code == 200
    backend.clock.advance(timedelta(milliseconds=1))
    response = backend.client.get(document, headers=backend.headers(key))
    assert response.status_code == 403
    assert response.json()["error"]["message"] == messages.KEY_SESSION_EXPIRED


def test_r21_read_document_is_clamped_to_256_kib_too(backend: Backend) -> None:
    key = backend.key()
    big = "y" * (262_144 + 1000)
    (backend.root / "notes" / "big.md").write_text(big, encoding="utf-8")
    result = _tool(backend, key, 'read_document {"path": "notes/big.md", "maxBytes": 100000000}')
    assert result["status"] == "ok" and result["partial"] is True
    assert len(result["text"]) == 262_144 and result["bytes"] == len(big)


def test_r25_r26_a_note_of_exactly_max_bytes_is_complete_and_compared(backend: Backend) -> None:
    key = backend.key()
    text = NOTES["notes/a.md"]
    size = len(text.encode())
    behind = pointer_header("notes/a.md", text + " typed")
    exact = _tool(backend, key, f'read_active_note {{"maxBytes": {size}}}', behind)
    assert (exact["partial"], exact["text"], exact["caveat"]) == (False, text, CAVEAT)
    short = _tool(backend, key, f'read_active_note {{"maxBytes": {size - 1}}}', behind)
    assert (short["partial"], short["caveat"]) == (True, None)
    assert short["text"] == text[: size - 1]


@pytest.fixture
def symlinks_out(backend: Backend, tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET, encoding="utf-8")
    os.symlink(outside / "secret.md", backend.root / "escape.md")
    os.symlink(outside, backend.root / "outlink")
    return outside


def test_listing_leaves_out_symlinks_leading_outside(backend: Backend, symlinks_out: Path) -> None:
    """Contract 3: nothing outside the workspace is read, not even to fingerprint it."""
    key = backend.key()
    response = backend.client.get(
        f"/v1/workspaces/{WORKSPACE}/documents", headers=backend.headers(key)
    )
    assert response.status_code == 200
    assert [d["path"] for d in response.json()["documents"]] == sorted(NOTES)
    listing = _tool(backend, key, "list_documents {}")
    assert [d["path"] for d in listing["documents"]] == sorted(NOTES)


def test_a_save_that_fails_half_way_leaves_the_old_copy(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Contract 3: the write is atomic; a disk failure before the rename changes nothing."""
    key = backend.key()

    def disk_full(_descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    response = backend.client.put(
        f"/v1/workspaces/{WORKSPACE}/documents/notes/a.md",
        content=b"# Replaced\n",
        headers=backend.headers(key),
    )
    monkeypatch.undo()
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "write_failed"
    assert (backend.root / "notes" / "a.md").read_text(encoding="utf-8") == NOTES["notes/a.md"]
    assert sorted(os.listdir(backend.root / "notes")) == ["a.md", "b.md"]


def test_a_path_the_file_system_cannot_open_is_a_plain_400(backend: Backend) -> None:
    """Contract 2, 3: a symlink loop or a path too long once under the root is never a 5xx."""
    key = backend.key()
    os.symlink("loop.md", backend.root / "loop.md")
    too_long = "/".join(["d" * 240] * 17)  # 4,096 bytes: lexically valid, too long on disk
    for path, reason in (("loop.md", errno.ELOOP), (too_long, errno.ENAMETOOLONG)):
        message = messages.DOCUMENT_READ_FAILED.format(reason=os.strerror(reason))
        url = f"/v1/workspaces/{WORKSPACE}/documents/{path}"
        read = backend.client.get(url, headers=backend.headers(key))
        assert read.status_code == 400, read.text
        assert read.json()["error"] == {"code": "read_failed", "message": message}
        tool = _tool(backend, key, f"read_document {json.dumps({'path': path})}")
        assert (tool["status"], tool["message"]) == ("invalid_argument", message)
    # The long path does not fit in a header (R15); the loop does.
    active = _tool(backend, key, "read_active_note {}", pointer_header("loop.md", "x"))
    named = _tool(backend, key, 'read_document {"path": "loop.md"}')
    assert active["message"] == named["message"]  # R28: the same words from both tools
    saved = backend.client.put(
        f"/v1/workspaces/{WORKSPACE}/documents/{too_long}",
        content=b"x",
        headers=backend.headers(key),
    )
    assert saved.status_code == 400
    assert saved.json()["error"]["message"] == messages.DOCUMENT_WRITE_FAILED.format(
        reason=os.strerror(errno.ENAMETOOLONG)
    )


def test_a_path_of_4097_bytes_is_refused_by_the_path_rules(backend: Backend) -> None:
    """Contract 3 fixes the number itself: 4,096 bytes, whatever the file system allows."""
    key = backend.key()
    path = "/".join(["d" * 240] * 17) + "x"
    assert len(path.encode()) == 4097
    for response in (
        backend.client.get(
            f"/v1/workspaces/{WORKSPACE}/documents/{path}", headers=backend.headers(key)
        ),
        backend.client.put(
            f"/v1/workspaces/{WORKSPACE}/documents/{path}",
            content=b"x",
            headers=backend.headers(key),
        ),
    ):
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid_path"


def test_a_fifo_in_the_workspace_is_not_a_document_and_never_blocks(backend: Backend) -> None:
    """Contract 3: a named pipe is refused at once (opening it would wait for a writer)."""
    key = backend.key()
    os.mkfifo(backend.root / "notes" / "pipe.md")
    outcome: list[int] = []
    reader = threading.Thread(
        target=lambda: outcome.append(
            backend.client.get(
                f"/v1/workspaces/{WORKSPACE}/documents/notes/pipe.md",
                headers=backend.headers(key),
            ).status_code
        ),
        daemon=True,
    )
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():
        # Unblock the stuck open so the test run can end, then fail plainly.
        with open(backend.root / "notes" / "pipe.md", "wb"):
            pass
        reader.join(timeout=10)
        pytest.fail("reading a FIFO blocked the request")
    assert outcome == [404]
    listing = backend.client.get(
        f"/v1/workspaces/{WORKSPACE}/documents", headers=backend.headers(key)
    ).json()["documents"]
    assert "notes/pipe.md" not in [document["path"] for document in listing]
