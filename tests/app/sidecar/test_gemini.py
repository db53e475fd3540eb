"""The Gemini CLI's own IDE client (``IdeClient``, ``@google/gemini-cli-core``) on the sidecar.

Node runs tests/sidecar/gemini/gemini_ide_client.mjs, which connects as the CLI does:
through the companion file named after this process's pid, with the port, token and
workspace also in the environment. ``make test`` installs the client with ``npm ci``
when node is present and skips this test otherwise; ``make test-mcp-clients`` (which
CI runs) fails without node (R58–R60).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.app.conftest import WORKSPACE_NOTES, AppFactory, AppUnderTest

CLIENT_DIR = Path(__file__).resolve().parents[2] / "sidecar" / "gemini"
SCRIPT = CLIENT_DIR / "gemini_ide_client.mjs"
REQUIRED = os.environ.get("AMBIENT_TEST_MCP_CLIENTS_REQUIRED") == "1"
WAIT_MS = 30_000
NOTE_A = WORKSPACE_NOTES["notes/a.md"]


def _node() -> str:
    node = shutil.which("node")
    installed = (CLIENT_DIR / "node_modules" / "@google" / "gemini-cli-core").is_dir()
    if node is None or not installed:
        why = "node is not installed" if node is None else "run `make test` to install it"
        if REQUIRED:
            pytest.fail(f"The Gemini CLI's IDE client is needed here: {why}.")
        pytest.skip(f"The Gemini CLI's IDE client is not available: {why}.")
    return node


class GeminiClient:
    """The node process; every JSON line it prints, collected on a reader thread."""

    def __init__(self, node: str, app: AppUnderTest, tmpdir: Path) -> None:
        server = app.window.sharing.server
        assert server is not None
        env = {
            **os.environ,
            "TMPDIR": str(tmpdir),
            "GEMINI_CLI_IDE_PID": str(os.getpid()),  # the "IDE" is this process
            "GEMINI_CLI_IDE_SERVER_PORT": str(server.port),
            "GEMINI_CLI_IDE_AUTH_TOKEN": server.token,
            "GEMINI_CLI_IDE_WORKSPACE_PATH": str(app.workspace_dir.resolve()),
            "SSH_CONNECTION": "127.0.0.1 1 127.0.0.1 2",  # in a container: dial 127.0.0.1
        }
        self.process = subprocess.Popen(
            [node, str(SCRIPT)],
            cwd=app.workspace_dir,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.events: list[dict[str, Any]] = []
        self.output: list[str] = []
        self._reader = threading.Thread(target=self._read, name="test-gemini-reader")
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith("{"):
                self.events.append(json.loads(line))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in list(self.events) if event["event"] == kind]

    def send(self, command: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send({"quit": True})
                self.process.wait(timeout=15)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self._reader.join()


def _active_path(event: dict[str, Any]) -> str | None:
    files = ((event.get("context") or {}).get("workspaceState") or {}).get("openFiles") or []
    active = [f for f in files if f.get("isActive")]
    return active[0]["path"] if active else None


def test_r58_r60_the_gemini_cli_ide_client_connects_hears_context_and_reviews_diffs(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = _node()
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    app.window.sharing.turn_on()
    client = GeminiClient(node, app, tmpdir)
    root = app.workspace_dir.resolve()
    try:
        app.qtbot.waitUntil(lambda: bool(client.of("connected")), timeout=WAIT_MS)
        (connected,) = client.of("connected")
        assert connected["status"] == "connected", client.output
        assert connected["ide"] == {"name": "ambient-notes", "displayName": "Ambient Notes"}
        assert connected["diffing"] is True  # openDiff and closeDiff are offered
        a_path, b_path = str(root / "notes/a.md"), str(root / "notes/b.md")
        app.qtbot.waitUntil(
            lambda: any(_active_path(e) == a_path for e in client.of("context")), timeout=WAIT_MS
        )
        app.mount("inbox-2", "notes/b.md")
        app.window.driver.activate_frame("inbox-2")
        app.qtbot.waitUntil(
            lambda: _active_path(client.of("context")[-1]) == b_path, timeout=WAIT_MS
        )
        changed = NOTE_A.replace("alpha line", "alpha line, from gemini")
        client.send({"openDiff": {"filePath": a_path, "newContent": changed}})
        diffs = app.window.sharing.diffs
        app.qtbot.waitUntil(lambda: len(diffs.open_reviews) == 1, timeout=WAIT_MS)
        (view,) = diffs.open_reviews
        app.qtbot.waitUntil(lambda: view.state == "ready", timeout=WAIT_MS)
        view.apply_button.click()
        app.qtbot.waitUntil(lambda: bool(client.of("diff")), timeout=WAIT_MS)
        assert client.of("diff")[0]["result"] == {"status": "accepted", "content": changed}
        assert frame.read_text() == changed
        client.send({"openDiff": {"filePath": b_path, "newContent": "no\n"}})
        app.qtbot.waitUntil(lambda: len(diffs.open_reviews) == 1, timeout=WAIT_MS)
        diffs.open_reviews[0].discard_button.click()
        app.qtbot.waitUntil(lambda: len(client.of("diff")) == 2, timeout=WAIT_MS)
        assert client.of("diff")[1]["result"] == {"status": "rejected"}
    finally:
        client.close()
    assert client.of("disconnected"), client.output
