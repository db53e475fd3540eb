"""The sidecar's tools and notifications through the official MCP SDK's client (R60, R29)."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from app.scenario.sidecar_client import SdkClient
from bridge.caveat import CAVEAT
from bridge.pointer import fingerprint
from tests.app.conftest import WORKSPACE_NOTES, AppFactory, AppUnderTest

WAIT_MS = 10_000
NOTE_A = WORKSPACE_NOTES["notes/a.md"]


def _body(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    (block,) = result.content
    assert isinstance(block, types.TextContent)
    body = json.loads(block.text)
    assert isinstance(body, dict)
    assert result.structured_content == body
    return body


def _open_files(client: SdkClient) -> list[dict[str, Any]]:
    """The open notes of the latest context update ([] before any)."""
    updates = client.notifications("ide/contextUpdate")
    return list(updates[-1]["workspaceState"]["openFiles"]) if updates else []


def _settles(app: AppUnderTest, client: SdkClient, check: Any) -> list[dict[str, Any]]:
    """Wait until the latest update's open notes pass ``check``; those notes."""
    app.qtbot.waitUntil(lambda: check(_open_files(client)), timeout=WAIT_MS)
    return _open_files(client)


def _last_context(app: AppUnderTest, client: SdkClient, count: int) -> dict[str, Any]:
    app.qtbot.waitUntil(
        lambda: len(client.notifications("ide/contextUpdate")) >= count, timeout=WAIT_MS
    )
    return client.notifications("ide/contextUpdate")[-1]


def test_r60_the_tools_are_listed(shared: tuple[AppUnderTest, SdkClient]) -> None:
    _app, client = shared
    assert set(client.list_tools()) >= {
        "get_active_note",
        "read_active_note",
        "list_notes",
        "openDiff",
        "closeDiff",
    }


def test_r60_r3_r4_r11_get_active_note_is_captured_afresh_and_holds_no_text(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    assert _body(client.call("get_active_note"))["status"] == "no_active_note"  # R6
    first = app.mount("inbox-1", "notes/a.md")
    body = _body(client.call("get_active_note"))
    assert body["path"] == "notes/a.md" and body["frameId"] == "inbox-1"  # R3
    assert body["absolutePath"] == str(app.workspace_dir.resolve() / "notes" / "a.md")
    second = app.mount("inbox-2", "notes/b.md")
    app.window.driver.activate_frame("inbox-2")
    app.window.driver.activate_frame("assistant")  # R5: the assistant does not change the choice
    assert _body(client.call("get_active_note"))["frameId"] == "inbox-2"  # R4
    app.window.driver.activate_frame("inbox-1")
    first.type_text(" typed", at="end")
    first.select(0, 3)
    body = _body(client.call("get_active_note"))
    expected_bytes, expected_sha = fingerprint(NOTE_A + " typed")
    assert body["bytes"] == expected_bytes and body["sha256"] == expected_sha  # R11
    assert body["flushed"] is True and body["view"] == "edit"  # R10: the flush ran first
    assert body["selection"] == {"anchor": 0, "head": 3}
    assert set(body) == {
        "status",
        "path",
        "view",
        "frameId",
        "selection",
        "bytes",
        "sha256",
        "flushed",
        "capturedAt",
        "absolutePath",
    }
    assert "alpha" not in json.dumps(body)  # R8: never the note's text
    app.qtbot.waitUntil(lambda: app.saved_text("notes/a.md") == NOTE_A + " typed", timeout=WAIT_MS)
    assert second.read_text() == WORKSPACE_NOTES["notes/b.md"]


def test_r60_r21_r25_read_active_note_and_list_notes(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    none = _body(client.call("read_active_note"))
    assert none["status"] == "no_active_note" and none["text"] is None  # R27
    app.mount("inbox-1", "notes/a.md")
    body = _body(client.call("read_active_note"))
    assert body["status"] == "ok" and body["text"] == NOTE_A and body["caveat"] is None
    assert body["bytes"] == len(NOTE_A.encode()) and body["partial"] is False
    cut = _body(client.call("read_active_note", {"maxBytes": 5}))
    assert cut["text"] == NOTE_A[:5] and cut["partial"] is True and cut["caveat"] is None  # R26
    bad = _body(client.call("read_active_note", {"maxBytes": 0}))
    assert bad["status"] == "invalid_argument"  # R21
    listing = _body(client.call("list_notes"))
    assert [entry["path"] for entry in listing["documents"]] == ["notes/a.md", "notes/b.md"]
    assert _body(client.call("list_notes", {"prefix": "notes/b"}))["documents"][0]["path"] == (
        "notes/b.md"
    )
    assert CAVEAT  # the caveat is R25's sentence; a stalled save shows it (test below)


def test_r25_a_save_that_has_not_landed_gets_the_caveat(make_app: AppFactory) -> None:
    app = make_app(save_delay_seconds=3.0)
    app.window.sharing.turn_on()
    server = app.window.sharing.server
    assert server is not None
    client = SdkClient(app.qtbot, server.url, server.token)
    try:
        frame = app.mount("inbox-1", "notes/a.md")
        frame.type_text(" unsaved", at="end")
        body = _body(client.call("read_active_note"))
        assert body["text"] == NOTE_A and body["caveat"] == CAVEAT  # R12, R25
    finally:
        client.close()


def test_r60_context_updates_follow_activation_and_selection(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    first = _last_context(app, client, 1)  # after initialize
    assert first == {"workspaceState": {"openFiles": [], "isTrusted": True}}
    a = app.mount("inbox-1", "notes/a.md")
    app.mount("inbox-2", "notes/b.md")
    app.window.driver.activate_frame("inbox-1")
    a.select(2, 7)  # "A\nalp" → line 2, character 4 at the head (1-based)
    files = _settles(app, client, lambda f: bool(f) and f[0].get("selectedText") == "A\nalp")
    root = app.workspace_dir.resolve()
    assert [f["path"] for f in files] == [str(root / "notes/a.md"), str(root / "notes/b.md")]
    active = files[0]
    assert active["isActive"] is True and active["cursor"] == {"line": 2, "character": 4}
    assert "isActive" not in files[1] and files[0]["timestamp"] > files[1]["timestamp"]
    assert client.notifications("ide/contextUpdate")[-1]["workspaceState"]["isTrusted"] is True
    app.window.driver.activate_frame("inbox-2")
    files = _settles(app, client, lambda f: bool(f) and f[0]["path"].endswith("b.md"))
    assert files[0]["isActive"] is True and "cursor" in files[0] and "isActive" not in files[1]
    app.window.driver.close_frame("inbox-1")
    assert [f["path"] for f in _settles(app, client, lambda f: len(f) == 1)] == [
        str(root / "notes/b.md")
    ]


def test_r29_a_popped_out_note_is_never_reported(shared: tuple[AppUnderTest, SdkClient]) -> None:
    app, client = shared
    app.mount_two()
    app.window.driver.activate_frame("inbox-2")
    with app.qtbot.waitSignal(app.window.session.popouts.popped_out, timeout=WAIT_MS):
        app.window.driver.frame("inbox-2").pop_out()  # type: ignore[attr-defined]
    root = app.workspace_dir.resolve()
    files = _settles(app, client, lambda f: len(f) == 1)
    assert [f["path"] for f in files] == [str(root / "notes/a.md")]
    body = _body(client.call("get_active_note"))
    assert body["frameId"] == "inbox-1" and body["path"] == "notes/a.md"
    listed = json.dumps(client.notifications("ide/contextUpdate")[-1])
    assert "b.md" not in listed


def test_r58_sharing_changes_nothing_in_the_turn_channel(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    app.mount("inbox-1", "notes/a.md")
    _body(client.call("get_active_note"))
    _body(client.call("read_active_note"))
    link = app.session.link
    conversation = app.window.assistant.conversation
    # No turn was sent: the backend holds no delivery row for the conversation (R17, R18).
    assert link.call(lambda backend, key: backend.get_delivery(key, conversation)) is None
    record = app.send()
    pointer = record.capture.pointer
    assert pointer is not None and pointer.path == "notes/a.md"
    stored = link.call(lambda backend, key: backend.get_delivery(key, conversation))
    assert stored is not None and stored["ambient_path"] == "notes/a.md"


def test_r4_r60_a_note_activated_before_sharing_began_is_the_newest(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount_two()
    app.window.driver.activate_frame("inbox-1")  # before sharing: the feed never saw it happen
    app.window.sharing.turn_on()
    server = app.window.sharing.server
    assert server is not None
    client = SdkClient(app.qtbot, server.url, server.token)
    try:
        files = _settles(app, client, lambda f: len(f) == 2)
        assert files[0]["path"].endswith("notes/a.md") and files[0]["isActive"] is True
        assert files[0]["timestamp"] > files[1]["timestamp"]  # the CLI sorts by it
    finally:
        client.close()
