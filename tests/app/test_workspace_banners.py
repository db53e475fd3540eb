"""Workspace messages that stay true: the "has no …" banner goes once a note is made there,
and the switch dialog says when there is no other workspace (R45, R47)."""

from __future__ import annotations

from app.workspace.finding import NO_OTHER_WORKSPACES, WorkspacePickerDialog
from app.workspace.switch import WORKSPACE_TOPIC
from tests.app.conftest import AppFactory, AppUnderTest

WAIT_MS = 10_000


def _workspace_banners(app: AppUnderTest) -> list[str]:
    return [b.label.text() for b in app.window.banners.banners if b.topic == WORKSPACE_TOPIC]


def test_the_has_no_banner_goes_once_a_note_is_created_in_the_new_workspace_R45(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    workspace = app.switch_workspace("personal")
    (said,) = _workspace_banners(app)
    assert said.startswith(f"Workspace “{workspace}” has no notes/a.md")
    app.window.driver.mount_provider("web", "web")  # a provider frame is not a note made here
    assert _workspace_banners(app) == [said]
    creation = app.window.driver.create_note("ideas")
    with app.qtbot.waitSignal(creation.opened, timeout=WAIT_MS):
        pass
    app.qtbot.waitUntil(lambda: _workspace_banners(app) == [])


def test_the_switch_dialog_says_there_is_no_other_workspace_yet_R47(
    make_app: AppFactory,
) -> None:
    app = make_app()
    dialog = app.window.menus.ask_workspace()
    assert isinstance(dialog, WorkspacePickerDialog)
    app.qtbot.waitUntil(lambda: dialog.is_listed, timeout=WAIT_MS)
    assert dialog.entries == []
    assert NO_OTHER_WORKSPACES in dialog.status.text()
    assert "no other workspaces yet" in dialog.status.text()
    dialog.reject()
