"""``openDiff`` / ``closeDiff`` from the official MCP SDK's client, shown as R51 reviews (R60)."""

from __future__ import annotations

import json

import mcp_types as types
import pytest

from app.scenario.sidecar_client import SdkClient
from renderer.frames.assistant.proposal_view import ProposalView
from tests.app.conftest import WORKSPACE_NOTES, AppUnderTest

WAIT_MS = 10_000
NOTE_A = WORKSPACE_NOTES["notes/a.md"]
NOTE_B = WORKSPACE_NOTES["notes/b.md"]


def _review(app: AppUnderTest) -> ProposalView:
    diffs = app.window.sharing.diffs
    app.qtbot.waitUntil(lambda: len(diffs.open_reviews) == 1, timeout=WAIT_MS)
    (view,) = diffs.open_reviews
    app.qtbot.waitUntil(lambda: view.state == "ready", timeout=WAIT_MS)
    return view


def _absolute(app: AppUnderTest, path: str) -> str:
    return str(app.workspace_dir.resolve() / path)


def test_r60_r51_open_diff_shows_the_review_and_apply_answers_diff_accepted(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    frame = app.mount("inbox-1", "notes/a.md")
    changed = NOTE_A.replace("alpha line", "alpha line, reviewed")
    result = client.call(
        "openDiff", {"filePath": _absolute(app, "notes/a.md"), "newContent": changed}
    )
    assert not result.is_error and result.content == []
    view = _review(app)
    assert frame.read_text() == NOTE_A  # R51: nothing changes before Apply
    assert "reviewed" in view.diff.text()
    view.apply_button.click()
    assert frame.read_text() == changed
    app.qtbot.waitUntil(lambda: bool(client.notifications("ide/diffAccepted")), timeout=WAIT_MS)
    assert client.notifications("ide/diffAccepted") == [
        {"filePath": _absolute(app, "notes/a.md"), "content": changed}
    ]
    assert app.window.sharing.diffs.open_reviews == []
    frame.editor.undo()  # one undo step, as for the assistant's proposals
    assert frame.read_text() == NOTE_A


def test_r60_discarding_answers_diff_rejected(shared: tuple[AppUnderTest, SdkClient]) -> None:
    app, client = shared
    frame = app.mount("inbox-1", "notes/a.md")
    client.call("openDiff", {"filePath": "notes/a.md", "newContent": "replaced\n"})
    _review(app).discard_button.click()
    app.qtbot.waitUntil(lambda: bool(client.notifications("ide/diffRejected")), timeout=WAIT_MS)
    assert client.notifications("ide/diffRejected") == [{"filePath": "notes/a.md"}]
    assert frame.read_text() == NOTE_A


def test_r60_a_note_no_frame_shows_is_reviewed_over_its_saved_copy(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    changed = NOTE_B + "added by a tool\n"
    client.call("openDiff", {"filePath": _absolute(app, "notes/b.md"), "newContent": changed})
    view = _review(app)
    assert app.window.driver.inbox_frames() == []  # no frame is opened for it
    view.apply_button.click()
    app.qtbot.waitUntil(lambda: app.saved_text("notes/b.md") == changed, timeout=WAIT_MS)  # R53
    app.qtbot.waitUntil(lambda: bool(client.notifications("ide/diffAccepted")), timeout=WAIT_MS)
    assert client.notifications("ide/diffAccepted")[0]["content"] == changed


def test_r60_close_diff_answers_the_current_text_without_a_notification(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    app.mount("inbox-1", "notes/a.md")
    client.call("openDiff", {"filePath": "notes/a.md", "newContent": "other\n"})
    _review(app)
    result = client.call("closeDiff", {"filePath": "notes/a.md", "suppressNotification": True})
    (block,) = result.content
    assert isinstance(block, types.TextContent)
    assert json.loads(block.text) == {"content": NOTE_A}
    assert app.window.sharing.diffs.open_reviews == []
    app.mount("inbox-2", "notes/b.md")  # a round trip later, still nothing was sent
    client.call("sidecar_info")
    assert client.notifications("ide/diffRejected") == []
    assert client.notifications("ide/diffAccepted") == []


@pytest.mark.parametrize("outside", ["/etc/passwd", "../outside.md", "notes/../../x.md"])
def test_r60_a_path_outside_the_workspace_is_an_error(
    shared: tuple[AppUnderTest, SdkClient], outside: str
) -> None:
    app, client = shared
    result = client.call("openDiff", {"filePath": outside, "newContent": "x"})
    assert result.is_error
    (block,) = result.content
    assert isinstance(block, types.TextContent)
    assert block.text.startswith("That document path is not allowed")
    assert app.window.sharing.diffs.open_reviews == []
