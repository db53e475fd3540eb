"""R86, contract 14: a connected tool never sees a private note (the official MCP client, Gemini's).

Neither ``get_active_note``, ``read_active_note``, ``list_notes``, ``closeDiff``/``openDiff``
nor the IDE context updates name a note ``.aiexclude`` keeps from the assistant: not
its path, its selection or its text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.scenario.sidecar_client import SdkClient
from bridge.privacy import AIEXCLUDE
from tests.app.conftest import AppFactory
from tests.app.sidecar.test_gemini import WAIT_MS, GeminiClient, _node

SECRET = "pangolinharbour8822"
NOTES = {
    "notes/a.md": "# Shared\nalpha line\n",
    "notes/secret.md": f"# Secret\nThe {SECRET} code.\n",
    AIEXCLUDE: "notes/secret.md\n",
}


def _text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


def _body(result: types.CallToolResult) -> dict[str, Any]:
    body = json.loads(_text(result))
    assert isinstance(body, dict)
    return body


def test_r86_the_mcp_client_never_sees_a_private_note(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    secret = app.mount("inbox-2", "notes/secret.md")
    app.window.driver.activate_frame("inbox-2")
    secret.editor.setFocus()  # a selection in the private note, made with the keyboard
    QTest.keyClick(secret.editor, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)
    app.window.sharing.turn_on()
    server = app.window.sharing.server
    assert server is not None
    client = SdkClient(app.qtbot, server.url, server.token)
    try:
        active = _body(client.call("get_active_note"))
        assert active["status"] == "private" and "path" not in active
        read = _body(client.call("read_active_note"))
        assert read["status"] == "private" and read["text"] is None and read["path"] is None
        listing = _body(client.call("list_notes"))
        assert [d["path"] for d in listing["documents"]] == ["notes/a.md"]
        assert listing["privateCount"] == 1
        absolute = str(app.workspace_dir.resolve() / "notes" / "secret.md")
        closed = client.call("closeDiff", {"filePath": absolute})
        assert closed.is_error and "private" in _text(closed)
        opened = client.call("openDiff", {"filePath": "notes/secret.md", "newContent": "x"})
        assert opened.is_error and "private" in _text(opened)
        app.window.driver.activate_frame("inbox-1")  # a context update now names notes/a.md
        app.qtbot.waitUntil(
            lambda: any(
                f.get("isActive") and f["path"].endswith("notes/a.md")
                for update in client.notifications("ide/contextUpdate")
                for f in update["workspaceState"]["openFiles"]
            ),
            timeout=WAIT_MS,
        )
        heard = json.dumps(client.notifications("ide/contextUpdate"))
        assert "secret.md" not in heard and SECRET not in heard
        for result in (active, read, listing):
            assert "secret.md" not in json.dumps(result) and SECRET not in json.dumps(result)
    finally:
        client.close()


def test_r86_the_gemini_cli_client_never_hears_of_a_private_note(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = _node()
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    secret = app.mount("inbox-2", "notes/secret.md")
    secret.editor.setFocus()
    QTest.keyClick(secret.editor, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)
    app.window.sharing.turn_on()
    client = GeminiClient(node, app, tmpdir)
    root = app.workspace_dir.resolve()
    try:
        app.qtbot.waitUntil(lambda: bool(client.of("connected")), timeout=WAIT_MS)
        app.window.driver.activate_frame("inbox-2")  # the private note is "this note"
        app.window.driver.activate_frame("inbox-1")
        a_path = str(root / "notes" / "a.md")
        app.qtbot.waitUntil(
            lambda: any(a_path in json.dumps(event) for event in client.of("context")),
            timeout=WAIT_MS,
        )
        client.send({"openDiff": {"filePath": str(root / "notes/secret.md"), "newContent": "x"}})
        app.qtbot.waitUntil(lambda: bool(client.of("diff")), timeout=WAIT_MS)
        assert app.window.sharing.diffs.open_reviews == []  # no review of a private note
    finally:
        client.close()
    heard = "".join(client.output)
    assert 'secret.md"' not in json.dumps(client.of("context"))
    assert SECRET not in heard
