"""Keyboard use of the frameset, frame rearranging, and key-session renewal."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from bridge.client import WireKeySession
from renderer.ambient.backend import WorkspaceLink
from tests.app.conftest import AppFactory


def test_shortcuts_switch_views_and_focus_frames_and_the_assistant_R2_R8(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first, second = app.mount_two()
    window = app.window
    window.activateWindow()
    app.qtbot.waitUntil(lambda: window.isActiveWindow())

    QTest.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: second.editor.hasFocus())
    assert window.store.last_activated_frame == "inbox-2"

    QTest.keyClick(second.editor, Qt.Key.Key_3, Qt.KeyboardModifier.AltModifier)
    assert second.view == "todo"
    assert window.assistant.chip.text() == "This note: notes/b.md · todo · inbox-2"

    QTest.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: window.assistant.input.hasFocus())
    resolution = window.store.resolve()
    assert resolution is not None and resolution.frame_id == "inbox-2"  # R5
    assert first.view == "edit"

    QTest.keyClick(window.assistant.input, Qt.Key.Key_F6)  # wraps round to the first frame
    app.qtbot.waitUntil(lambda: first.editor.hasFocus())
    assert window.store.last_activated_frame == "inbox-1"


def test_frames_can_be_moved_within_their_column(make_app: AppFactory) -> None:
    app = make_app()
    first, second = app.mount_two()
    column = app.window.inbox_column
    app.window.driver.move_frame("inbox-2", -1)
    assert [column.widget(0), column.widget(1)] == [second, first]
    app.window.driver.focus_frame_number(1)
    assert app.window.store.last_activated_frame == "inbox-2"


def test_a_refused_key_session_is_renewed_once_and_the_call_succeeds(
    make_app: AppFactory,
) -> None:
    app = make_app()
    workspace = app.session.workspace
    stale = WireKeySession(key="expired-key", workspace=workspace, expires_at=datetime.now(UTC))
    link = WorkspaceLink(app.session.backend, stale)
    documents = link.call(lambda client, session: client.list_documents(session))
    assert [info.path for info in documents] == ["notes/a.md", "notes/b.md"]
    assert link.session is not stale and link.session.workspace == workspace
