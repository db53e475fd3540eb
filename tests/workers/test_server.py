"""Starting the backend: the CLI subprocess and the embedded server (contract 1)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
import requests

from tests.support.backend import make_workspace, start_backend_process
from tests.support.database import configured_server_url
from tests.workers.conftest import pointer_header
from workers.server import EmbeddedServer
from workers.settings import Settings


@pytest.mark.slow
def test_cli_announces_a_real_port_and_serves_a_whole_turn(tmp_path: Path) -> None:
    text = "# Groceries\nMilk and eggs. Bread too.\n- [ ] milk\n"
    make_workspace(tmp_path, "home", {"lists/groceries.md": text})
    with start_backend_process(tmp_path) as backend:
        assert re.fullmatch(r"http://127\.0\.0\.1:[1-9]\d*", backend.url)
        assert requests.get(f"{backend.url}/v1/health", timeout=5).json() == {"status": "ok"}
        auth = {"Authorization": f"Bearer {backend.token}"}
        assert requests.get(f"{backend.url}/v1/agent/deliveries/x", timeout=5).status_code == 401
        key = requests.post(
            f"{backend.url}/v1/key-sessions", json={"workspace": "home"}, headers=auth, timeout=5
        ).json()["key"]
        turn = requests.post(
            f"{backend.url}/v1/agent/turns",
            json={"conversation": "c1", "message": "summarise this"},
            headers={
                **auth,
                "X-Key-Session": key,
                "X-Ambient-Note": pointer_header("lists/groceries.md", text),
            },
            timeout=5,
        ).json()
        assert turn["ambient"] == {"status": "stored", "reason": None}
        assert "Milk and eggs." in turn["reply"]
        # The SQLite file by default; none when AMBIENT_DATABASE_URL names a server.
        assert (tmp_path / "ambient.db").is_file() == (configured_server_url() is None)
    assert backend.process.poll() is not None  # stopped in teardown


@pytest.mark.slow
def test_cli_refuses_a_port_in_use(tmp_path: Path) -> None:
    with start_backend_process(tmp_path) as first:
        port = first.url.rsplit(":", 1)[1]
        with (
            pytest.raises(RuntimeError, match="cannot listen"),
            start_backend_process(tmp_path / "second", extra_args=("--port", port)),
        ):
            pass


def test_embedded_server_starts_stops_and_leaves_no_thread(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    server = EmbeddedServer(Settings(data_dir=tmp_path))
    url = server.start()
    assert url == server.url
    response = requests.get(
        f"{url}/v1/agent/deliveries/x",
        headers={"Authorization": f"Bearer {server.device_token}"},
        timeout=5,
    )
    assert response.status_code == 403  # the token is accepted; the key session is missing
    assert server.device_token == (tmp_path / "device-token").read_text().strip()
    server.stop()
    server.stop()  # idempotent
    assert set(threading.enumerate()) <= before
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{url}/v1/health", timeout=5)
