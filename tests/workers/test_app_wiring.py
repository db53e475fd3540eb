"""The app's wiring: every route is documented, true bugs get the 500 envelope, saves can stall."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from fastapi.routing import APIRoute

from tests.support.backend import make_workspace
from tests.workers.conftest import DEVICE_TOKEN, TestClient
from workers import messages
from workers.app import create_app
from workers.routers import agent, documents, key_sessions, system
from workers.settings import Settings


def test_every_route_is_documented_in_its_router() -> None:
    modules = (agent, documents, key_sessions, system)
    docs = "\n".join(module.__doc__ or "" for module in modules)
    routes = [
        route for module in modules for route in module.router.routes if isinstance(route, APIRoute)
    ]
    assert len(routes) == 8
    for route in routes:
        # The docstrings name the path parameters as the contract does.
        documented = re.sub(r"\{(\w+):path\}", r"{\1}", route.path).replace("{workspace}", "{ws}")
        for method in route.methods - {"HEAD"}:
            assert f"{method} {documented}" in docs, (method, route.path)


def test_catch_all_gives_the_500_envelope_for_a_real_bug(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, device_token=DEVICE_TOKEN))

    @app.get("/v1/broken")
    def broken() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/v1/broken")
    assert response.status_code == 500
    assert response.json() == {
        "error": {"code": "internal_error", "message": messages.INTERNAL_ERROR}
    }
    assert "a bug" not in response.text


@pytest.mark.slow
def test_save_delay_stalls_each_document_put(tmp_path: Path) -> None:
    make_workspace(tmp_path, "demo", {})
    delay = 0.3
    settings = Settings(data_dir=tmp_path, device_token=DEVICE_TOKEN, save_delay_seconds=delay)
    auth = {"Authorization": f"Bearer {DEVICE_TOKEN}"}
    with TestClient(create_app(settings)) as client:
        key = client.post("/v1/key-sessions", json={"workspace": "demo"}, headers=auth).json()[
            "key"
        ]
        started = time.perf_counter()
        response = client.put(
            "/v1/workspaces/demo/documents/a.md",
            content=b"x",
            headers={**auth, "X-Key-Session": key},
        )
        elapsed = time.perf_counter() - started
    assert response.status_code == 200
    assert elapsed >= delay


@pytest.mark.slow
def test_load_delay_stalls_each_document_get(tmp_path: Path) -> None:
    make_workspace(tmp_path, "demo", {"a.md": "alpha"})
    delay = 0.3
    settings = Settings(data_dir=tmp_path, device_token=DEVICE_TOKEN, load_delay_seconds=delay)
    auth = {"Authorization": f"Bearer {DEVICE_TOKEN}"}
    with TestClient(create_app(settings)) as client:
        key = client.post("/v1/key-sessions", json={"workspace": "demo"}, headers=auth).json()[
            "key"
        ]
        started = time.perf_counter()
        response = client.get(
            "/v1/workspaces/demo/documents/a.md", headers={**auth, "X-Key-Session": key}
        )
        elapsed = time.perf_counter() - started
    assert response.status_code == 200 and response.text == "alpha"
    assert elapsed >= delay
