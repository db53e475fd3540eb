"""Turning sharing on says what connected tools can read and what guards them (issue 38)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.window.banner import Banner
from tests.app.conftest import AppFactory

WAIT_MS = 10_000


def _said(window: QWidget) -> list[str]:
    return [banner.label.text() for banner in window.findChildren(Banner) if banner.isVisible()]


def test_turning_sharing_on_explains_what_tools_read_and_the_token(make_app: AppFactory) -> None:
    app = make_app()
    sharing, controls = app.window.sharing, app.window.sharing_controls
    assert not any("Sharing is on" in text for text in _said(app.window))
    controls.action.trigger()  # Assistant ▸ Share the active note with other tools
    app.qtbot.waitUntil(lambda: sharing.is_on, timeout=WAIT_MS)
    app.qtbot.waitUntil(
        lambda: any("Sharing is on" in text for text in _said(app.window)), timeout=WAIT_MS
    )
    (said,) = [text for text in _said(app.window) if "Sharing is on" in text]
    for words in ("get_active_note", "saved text", "read_active_note", "access token"):
        assert words in said
    assert str(sharing.pointer_file) in said  # where the token is, readable by the user alone
    assert "Accept" in said  # a tool's change waits for the person
    assert said in controls.label.toolTip()  # the status in the menu bar says it too
    controls.action.trigger()  # off again
    app.qtbot.waitUntil(lambda: sharing.stopped, timeout=WAIT_MS)
