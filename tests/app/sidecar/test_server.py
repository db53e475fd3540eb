"""The sidecar's server and files, reached by real HTTP clients (R58, R59, contract 11)."""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
from pathlib import Path

import httpx2
import pytest

from app.scenario.sidecar_client import SdkClient
from app.sidecar.controls import STARTING_TEXT
from app.sidecar.sharing import SDK_MODULE, ActiveNoteSharing
from tests.app.conftest import AppFactory, AppUnderTest

WAIT_MS = 10_000
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _sharing(app: AppUnderTest) -> ActiveNoteSharing:
    return app.window.sharing


def _companion_files(tmpdir: Path) -> list[Path]:
    folder = tmpdir / "gemini" / "ide"
    return sorted(folder.glob("gemini-ide-server-*.json")) if folder.exists() else []


def _post(url: str, headers: dict[str, str]) -> httpx2.Response:
    return httpx2.post(url, headers={**HEADERS, **headers}, json=INITIALIZE, timeout=10)


def _port_is_closed(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def test_r58_off_unless_turned_on(make_app: AppFactory, own_tmpdir: Path) -> None:
    app = make_app()
    sharing = _sharing(app)
    assert not sharing.is_on and sharing.server is None
    assert not app.window.sharing_controls.action.isChecked()
    assert not (app.data_dir / "active-note-pointer.json").exists()
    assert _companion_files(own_tmpdir) == []


def test_r58_r59_on_writes_both_files_0600_and_off_removes_them_and_the_port(
    make_app: AppFactory, own_tmpdir: Path
) -> None:
    app = make_app()
    sharing = _sharing(app)
    sharing.turn_on()
    server = sharing.server
    assert server is not None
    pointer_file = app.data_dir / "active-note-pointer.json"
    pointer = json.loads(pointer_file.read_text(encoding="utf-8"))
    assert pointer == {
        "url": f"http://127.0.0.1:{server.port}/mcp",
        "token": server.token,
        "pid": os.getpid(),
        "workspace": app.session.workspace,
        "workspacePath": str(app.workspace_dir.resolve()),
    }
    assert len(server.token) >= 32
    (companion,) = _companion_files(own_tmpdir)
    assert companion.name == f"gemini-ide-server-{os.getpid()}-{server.port}.json"
    assert json.loads(companion.read_text(encoding="utf-8")) == {
        "port": server.port,
        "workspacePath": str(app.workspace_dir.resolve()),
        "authToken": server.token,
        "ideInfo": {"name": "ambient-notes", "displayName": "Ambient Notes"},
    }
    for path in (pointer_file, companion):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert app.window.sharing_controls.label.isVisible()  # the window says it is on
    assert "Sharing the active note" in app.window.sharing_controls.label.text()
    port, token = server.port, server.token
    sharing.turn_off()
    assert not pointer_file.exists() and _companion_files(own_tmpdir) == []
    app.qtbot.waitUntil(lambda: sharing.stopped, timeout=WAIT_MS)
    assert _port_is_closed(port)
    sharing.turn_on()  # R58: a fresh token each time it is turned on
    assert sharing.server is not None and sharing.server.token != token


def test_r58_token_host_and_origin_are_checked(make_app: AppFactory) -> None:
    app = make_app()
    sharing = _sharing(app)
    sharing.turn_on()
    assert sharing.server is not None
    url, token, port = sharing.server.url, sharing.server.token, sharing.server.port
    bearer = {"Authorization": f"Bearer {token}"}
    assert _post(url, {}).status_code == 401
    assert _post(url, {"Authorization": "Bearer " + "x" * len(token)}).status_code == 401
    assert _post(url, {"Authorization": token}).status_code == 401
    refused = _post(url, {**bearer, "Host": f"evil.example:{port}"})
    assert 400 <= refused.status_code < 500
    assert _post(url, {**bearer, "Host": "127.0.0.1:1"}).status_code >= 400
    assert _post(url, {**bearer, "Origin": "http://evil.example"}).status_code == 403
    assert _post(url, {**bearer, "Origin": f"http://localhost:{port}"}).status_code == 200
    assert _post(url, {**bearer, "Host": f"localhost:{port}"}).status_code == 200


def test_r58_the_window_counts_connected_tools_and_off_disconnects_them(
    make_app: AppFactory,
) -> None:
    app = make_app()
    sharing = _sharing(app)
    sharing.turn_on()
    assert sharing.server is not None
    label = app.window.sharing_controls.label
    assert label.text().endswith("no tool connected")
    client = SdkClient(app.qtbot, sharing.server.url, sharing.server.token)
    try:
        app.qtbot.waitUntil(lambda: sharing.connected == 1, timeout=WAIT_MS)
        assert label.text().endswith("1 tool connected")
        sharing.turn_off()
        assert not label.isVisible() and not app.window.sharing_controls.action.isChecked()
        app.qtbot.waitUntil(lambda: sharing.stopped, timeout=WAIT_MS)
    finally:
        client.close()


def test_r58_the_menu_choice_is_kept_for_the_next_start(
    make_app: AppFactory, own_tmpdir: Path
) -> None:
    app = make_app()
    app.window.sharing_controls.action.trigger()  # Assistant ▸ Share the active note…
    app.qtbot.waitUntil(lambda: _sharing(app).is_on, timeout=WAIT_MS)
    app.quit()
    assert not (app.data_dir / "active-note-pointer.json").exists()  # R59: quit removes them
    assert _companion_files(own_tmpdir) == []
    again = make_app(restart=app)
    assert _sharing(again).is_on and again.window.sharing_controls.action.isChecked()
    again.window.sharing_controls.action.trigger()
    assert not _sharing(again).is_on


def test_r59_stale_files_of_dead_processes_are_removed_at_start(
    make_app: AppFactory, own_tmpdir: Path, tmp_path: Path
) -> None:
    dead = 2**22 + 12345  # above the default pid_max: no process has it
    folder = own_tmpdir / "gemini" / "ide"
    folder.mkdir(parents=True)
    ours = folder / f"gemini-ide-server-{dead}-4000.json"
    ours.write_text(json.dumps({"port": 4000, "ideInfo": {"name": "ambient-notes"}}))
    theirs = folder / f"gemini-ide-server-{dead}-4001.json"
    theirs.write_text(json.dumps({"port": 4001, "ideInfo": {"name": "vscode"}}))
    data_dir = tmp_path / "data-0"
    data_dir.mkdir()
    pointer = data_dir / "active-note-pointer.json"
    pointer.write_text(json.dumps({"url": "http://127.0.0.1:4000/mcp", "pid": dead}))
    app = make_app()
    assert not pointer.exists()
    app.qtbot.waitUntil(lambda: app.window.sharing.stale_checked)  # R76: off the GUI thread
    assert not ours.exists()
    assert theirs.exists()  # another IDE's file is that IDE's to clean up


def test_r59_a_workspace_switch_rewrites_the_pointer_file(make_app: AppFactory) -> None:
    app = make_app()
    app.window.sharing.turn_on()
    pointer_file = app.data_dir / "active-note-pointer.json"
    assert (
        json.loads(pointer_file.read_text(encoding="utf-8"))["workspace"] == app.session.workspace
    )
    app.switch_workspace("other")
    listing = json.loads(pointer_file.read_text(encoding="utf-8"))
    assert listing["workspace"] == "other"
    assert listing["workspacePath"].endswith("other")


@pytest.fixture
def sdk_not_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a window that never shared: the server module (and so the SDK) is not imported."""
    monkeypatch.delitem(sys.modules, SDK_MODULE, raising=False)


@pytest.mark.usefixtures("sdk_not_loaded")
def test_r67_the_menu_loads_the_mcp_sdk_off_the_gui_thread(make_app: AppFactory) -> None:
    app = make_app()
    sharing, controls = _sharing(app), app.window.sharing_controls
    controls.action.trigger()
    assert sharing.loading and not sharing.is_on  # the GUI thread went on at once
    assert controls.action.isChecked() and controls.label.text() == STARTING_TEXT
    app.qtbot.waitUntil(lambda: sharing.is_on, timeout=WAIT_MS)
    assert not sharing.loading and controls.label.text().startswith("Sharing the active note")
    assert (app.data_dir / "active-note-pointer.json").exists()
    sharing.turn_off()
    app.qtbot.waitUntil(lambda: sharing.stopped, timeout=WAIT_MS)


@pytest.mark.usefixtures("sdk_not_loaded")
def test_r67_turning_sharing_off_while_the_sdk_loads_keeps_it_off(make_app: AppFactory) -> None:
    app = make_app()
    sharing, controls = _sharing(app), app.window.sharing_controls
    controls.action.trigger()
    controls.action.trigger()  # taken back before the SDK is in
    assert not controls.action.isChecked()
    app.qtbot.waitUntil(lambda: not sharing.loading, timeout=WAIT_MS)
    assert not sharing.is_on and not (app.data_dir / "active-note-pointer.json").exists()
