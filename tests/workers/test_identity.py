"""Identity: the device token and workspace key sessions (contract 2, R19, R28)."""

from __future__ import annotations

import os
import stat
from datetime import timedelta
from pathlib import Path

import pytest

from bridge.contract import ACCESS_TTL
from bridge.environment import DEVICE_TOKEN_ENV
from bridge.paths import WORKSPACE_ID_INVALID
from tests.workers.conftest import WORKSPACE, Backend, TestClient
from workers import messages
from workers.app import create_app
from workers.settings import Settings


def test_missing_or_wrong_device_token_is_401(backend: Backend) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic x"}):
        response = backend.client.post(
            "/v1/key-sessions", json={"workspace": WORKSPACE}, headers=headers
        )
        assert response.status_code == 401
        assert response.json() == {
            "error": {"code": "unauthorized", "message": messages.DEVICE_TOKEN_INVALID}
        }


def test_health_needs_no_token(backend: Backend) -> None:
    assert backend.client.get("/v1/health").json() == {"status": "ok"}


def test_device_token_file_is_created_0600_and_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DEVICE_TOKEN_ENV, raising=False)
    first = Settings(data_dir=tmp_path).resolve_device_token()
    token_file = tmp_path / "device-token"
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    assert Settings(data_dir=tmp_path).resolve_device_token() == first
    monkeypatch.setenv(DEVICE_TOKEN_ENV, "from-the-environment")
    assert Settings(data_dir=tmp_path).resolve_device_token() == "from-the-environment"


def test_key_session_answers_201_with_expiry(backend: Backend) -> None:
    response = backend.client.post(
        "/v1/key-sessions", json={"workspace": WORKSPACE}, headers=backend.auth
    )
    assert response.status_code == 201
    body = response.json()
    assert body["workspace"] == WORKSPACE and len(body["key"]) >= 32
    assert body["expiresAt"] == "2026-11-29T19:15:00.000Z"  # clock + 15 minutes


def test_key_session_for_unknown_or_invalid_workspace(backend: Backend) -> None:
    unknown = backend.client.post(
        "/v1/key-sessions", json={"workspace": "nowhere"}, headers=backend.auth
    )
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "workspace_not_found"
    for workspace in ("..", ".hidden", "a/b", "x" * 65, ""):
        invalid = backend.client.post(
            "/v1/key-sessions", json={"workspace": workspace}, headers=backend.auth
        )
        assert invalid.status_code == 400, workspace
        assert invalid.json()["error"]["message"] == WORKSPACE_ID_INVALID


def test_r28_another_workspaces_key_is_refused_with_the_shared_message(backend: Backend) -> None:
    other_key = backend.key("other")
    response = backend.client.get(
        f"/v1/workspaces/{WORKSPACE}/documents/notes/a.md", headers=backend.headers(other_key)
    )
    assert response.status_code == 403
    assert response.json()["error"]["message"] == messages.KEY_SESSION_OTHER_WORKSPACE


def test_r19_expired_key_session_is_refused_everywhere(backend: Backend) -> None:
    key = backend.key()
    document = f"/v1/workspaces/{WORKSPACE}/documents/notes/a.md"
    assert backend.client.get(document, headers=backend.headers(key)).status_code == 200
    backend.clock.advance(ACCESS_TTL + timedelta(seconds=1))
    response = backend.client.get(document, headers=backend.headers(key))
    assert response.status_code == 403
    assert response.json()["error"]["message"] == messages.KEY_SESSION_EXPIRED
    turn = backend.client.post(
        "/v1/agent/turns",
        json={"conversation": "c1", "message": "this"},
        headers=backend.headers(key),
    )
    assert turn.status_code == 403
    # Purged when touched: the same key is now simply unknown.
    assert turn.json()["error"]["message"] == messages.KEY_SESSION_UNKNOWN


def test_unknown_or_missing_key_is_403(backend: Backend) -> None:
    document = f"/v1/workspaces/{WORKSPACE}/documents"
    forged = backend.client.get(document, headers=backend.headers("forged-key"))
    assert forged.status_code == 403
    assert forged.json()["error"]["message"] == messages.KEY_SESSION_UNKNOWN
    missing = backend.client.get(document, headers=backend.auth)
    assert missing.status_code == 403
    assert missing.json()["error"]["message"] == messages.KEY_SESSION_MISSING


def test_key_of_another_device_token_is_unknown(tmp_path: Path, backend: Backend) -> None:
    key = backend.key()
    backend.client.close()
    settings = Settings(data_dir=tmp_path, device_token="a-different-device")
    with TestClient(create_app(settings)) as client:
        response = client.get(
            f"/v1/workspaces/{WORKSPACE}/documents",
            headers={"Authorization": "Bearer a-different-device", "X-Key-Session": key},
        )
    assert response.status_code == 403
    assert response.json()["error"]["message"] == messages.KEY_SESSION_UNKNOWN


def test_create_workspace_extension(backend: Backend) -> None:
    created = backend.client.post(
        "/v1/workspaces", json={"workspace": "fresh"}, headers=backend.auth
    )
    assert created.status_code == 201 and created.json() == {"workspace": "fresh"}
    assert (backend.settings.workspaces_dir / "fresh").is_dir()
    again = backend.client.post("/v1/workspaces", json={"workspace": "fresh"}, headers=backend.auth)
    assert again.status_code == 200
    bad = backend.client.post("/v1/workspaces", json={"workspace": "../up"}, headers=backend.auth)
    assert bad.status_code == 400
    assert not (backend.settings.data_dir / "up").exists()
    anonymous = backend.client.post("/v1/workspaces", json={"workspace": "x"})
    assert anonymous.status_code == 401


def test_listing_workspaces_extension_R47(backend: Backend) -> None:
    """``GET /v1/workspaces``: the workspace folders, sorted, for the app's picker (R47)."""
    backend.client.post("/v1/workspaces", json={"workspace": "zeta"}, headers=backend.auth)
    backend.client.post("/v1/workspaces", json={"workspace": "alpha"}, headers=backend.auth)
    # A folder whose name is no workspace id, and a plain file, are not workspaces.
    (backend.settings.workspaces_dir / "not a workspace").mkdir()
    (backend.settings.workspaces_dir / "stray.txt").write_text("x", encoding="utf-8")
    listed = backend.client.get("/v1/workspaces", headers=backend.auth)
    assert listed.status_code == 200
    names = listed.json()["workspaces"]
    assert names == sorted(names)
    assert {"alpha", "zeta", WORKSPACE} <= set(names)
    assert "not a workspace" not in names and "stray.txt" not in names
    assert backend.client.get("/v1/workspaces").status_code == 401
