"""The providers column is there while it holds a frame, never as an empty strip (R46)."""

from __future__ import annotations

from app.workspace.switch import BROWSER_FRAME_ID
from renderer.frames.providers import WORKSPACE_PROVIDER
from tests.app.conftest import AppFactory


def test_an_empty_providers_column_takes_no_room_and_a_provider_brings_it_back(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    column = window.providers_column
    app.mount("inbox-1", "notes/a.md")
    assert column.isHidden()
    app.qtbot.waitUntil(lambda: window.splitter.sizes()[0] == 0)
    window.driver.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
    app.qtbot.waitUntil(lambda: column.isVisible() and window.splitter.sizes()[0] > 0)
    window.driver.close_frame(BROWSER_FRAME_ID)
    app.qtbot.waitUntil(column.isHidden)
