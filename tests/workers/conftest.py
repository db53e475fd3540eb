"""Fixtures for backend tests: an injected clock, a TestClient app and pointer headers."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from bridge.environment import DATABASE_URL_ENV
from bridge.pointer import encode_header, fingerprint
from tests.support.backend import make_workspace
from tests.support.database import configured_server_url, fresh_server_database
from tests.support.pointers import make_pointer
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model
from workers.app import create_app
from workers.settings import Settings

with warnings.catch_warnings():
    # Starlette's notice about its httpx dependency is not about this project's code.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient as _StarletteTestClient


class TestClient(_StarletteTestClient):
    """Starlette's client addressed to loopback: the backend refuses other Host names (R65)."""

    __test__ = False

    def __init__(self, app: Any, base_url: str = "http://127.0.0.1", **options: Any) -> None:
        super().__init__(app, base_url=base_url, **options)


DEVICE_TOKEN = "test-device-token"
WORKSPACE = "demo"
NOTES = {
    "notes/a.md": "# Alpha\nalpha is the first note. It has two sentences.\n- [ ] buy milk\n",
    "notes/b.md": "# Beta\nbeta text here.\n",
    "inbox/today.md": "Today\n\n## Plan\n- [ ] write\n- [x] read\n- [ ] ship\n",
}


class SteppingClock:
    """A clock that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


def pointer_header(
    path: str, text: str, *, view: str = "edit", flushed: bool = True, **changes: Any
) -> str:
    """The X-Ambient-Note value for ``text`` as the editor would send it."""
    size, digest = fingerprint(text)
    fields: dict[str, Any] = {"selection": None, **changes}
    pointer = make_pointer(path, view=view, bytes=size, sha256=digest, flushed=flushed, **fields)
    header = encode_header(pointer)
    assert header is not None
    return header


@dataclass
class Backend:
    """A TestClient app with helpers for the common requests."""

    client: TestClient
    settings: Settings
    clock: SteppingClock
    root: Path

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {DEVICE_TOKEN}"}

    def key(self, workspace: str = WORKSPACE) -> str:
        response = self.client.post(
            "/v1/key-sessions", json={"workspace": workspace}, headers=self.auth
        )
        assert response.status_code == 201, response.text
        key: str = response.json()["key"]
        return key

    def headers(self, key: str | None = None, ambient: str | None = None) -> dict[str, str]:
        headers = dict(self.auth)
        if key is not None:
            headers["X-Key-Session"] = key
        if ambient is not None:
            headers["X-Ambient-Note"] = ambient
        return headers

    def turn(
        self,
        message: str,
        *,
        key: str | None = None,
        ambient: str | None = None,
        conversation: str = "c1",
    ) -> dict[str, Any]:
        response = self.client.post(
            "/v1/agent/turns",
            json={"conversation": conversation, "message": message},
            headers=self.headers(key, ambient),
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def delivery(self, key: str, conversation: str = "c1") -> dict[str, Any] | None:
        response = self.client.get(
            f"/v1/agent/deliveries/{conversation}", headers=self.headers(key)
        )
        if response.status_code == 404:
            assert response.json()["error"]["code"] == "no_delivery"
            return None
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body


@pytest.fixture(autouse=True, scope="module")
def _database_per_module() -> Iterator[None]:
    """Module-scoped fixtures (a backend shared by a module's tests) get a database of their own."""
    server_url = configured_server_url()
    if server_url is None:
        yield
        return
    with fresh_server_database(server_url) as url, pytest.MonkeyPatch.context() as patch:
        patch.setenv(DATABASE_URL_ENV, url)
        yield


@pytest.fixture(autouse=True)
def _database_per_test(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """With a database server configured, each test (and any backend it starts) gets its own."""
    server_url = configured_server_url()
    if server_url is None:
        yield
        return
    with fresh_server_database(server_url) as url:
        monkeypatch.setenv(DATABASE_URL_ENV, url)
        yield


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock()


@pytest.fixture
def backend(tmp_path: Path, clock: SteppingClock) -> Iterator[Backend]:
    root = make_workspace(tmp_path, WORKSPACE, NOTES)
    make_workspace(tmp_path, "other", {"secret.md": "other workspace secret\n"})
    settings = Settings(data_dir=tmp_path, device_token=DEVICE_TOKEN, clock=clock)
    # raise_server_exceptions: a request that reaches the catch-all handler fails the test.
    with TestClient(create_app(settings), raise_server_exceptions=True) as client:
        yield Backend(client, settings, clock, root)


@contextmanager
def client_with_key(data_dir: Path) -> Iterator[tuple[TestClient, str]]:
    """An app over the demo workspace and one key session for it, for module-scoped fixtures."""
    make_workspace(data_dir, WORKSPACE, NOTES)
    with TestClient(create_app(Settings(data_dir=data_dir, device_token=DEVICE_TOKEN))) as client:
        response = client.post(
            "/v1/key-sessions",
            json={"workspace": WORKSPACE},
            headers={"Authorization": f"Bearer {DEVICE_TOKEN}"},
        )
        assert response.status_code == 201, response.text
        yield client, response.json()["key"]


@pytest.fixture
def scripted() -> Iterator[ScriptedModel]:
    """A loopback OpenAI-compatible server whose answers the test scripts."""
    with scripted_model() as server:
        yield server


@pytest.fixture
def model_backend(
    tmp_path: Path, clock: SteppingClock, scripted: ScriptedModel
) -> Iterator[Backend]:
    """The backend with the model assistant pointed at the scripted server."""
    root = make_workspace(tmp_path, WORKSPACE, NOTES)
    settings = Settings(
        data_dir=tmp_path,
        device_token=DEVICE_TOKEN,
        clock=clock,
        model_base_url=scripted.url,
        model=MODEL_ID,
        model_read_timeout_seconds=MODEL_READ_TIMEOUT_FOR_TESTS,
    )
    with TestClient(create_app(settings), raise_server_exceptions=True) as client:
        yield Backend(client, settings, clock, root)


MODEL_READ_TIMEOUT_FOR_TESTS = 2.0
"""Short, so a stalled provider fails a test turn quickly; only the time-out test waits it."""
