"""Pop-out: a real child process with its own store; the host no longer sees that note (R29)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QProcess, Qt
from PySide6.QtTest import QTest

from app.popout.window import READY_LINE
from renderer.frames.inbox.frame import InboxFrame
from tests.app.conftest import AppFactory

CHILD_START_TIMEOUT_MS = 30_000


@pytest.mark.slow
def test_popped_out_note_leaves_the_host_store_and_a_killed_child_leaves_the_host_working_R29(
    make_app: AppFactory,
) -> None:
    app = make_app()
    _, second = app.mount_two()
    window = app.window
    QTest.mouseClick(second.activation_target(), Qt.MouseButton.LeftButton)
    second.type_text(" typed before pop-out", at="end")
    typed = second.editor.toPlainText()

    with app.qtbot.waitSignal(window.session.popouts.popped_out, timeout=10_000) as popped:
        QTest.mouseClick(second.popout_button, Qt.MouseButton.LeftButton)
    handle = popped.args[0]
    output = bytearray()
    handle.process.readyReadStandardOutput.connect(
        lambda: output.extend(handle.process.readAllStandardOutput().data())
    )
    assert handle.frame_id == "inbox-2" and handle.path == "notes/b.md"
    assert app.session.backend_url in handle.process.arguments()
    token = app.session.server.device_token if app.session.server else ""
    assert token and all(token not in argument for argument in handle.process.arguments())
    # The child keeps text whose save fails in the host's recovery folder.
    recovery = app.session.recovery.folder
    assert handle.process.arguments()[-2:] == ["--recovery-dir", str(recovery)]
    # The host withdrew the frame; its last edit was saved before the child started.
    assert window.store.mounted_frame_ids == ("inbox-1",)
    assert "inbox-2" not in window.frames
    moved = "notes/b.md is now in its own window"
    assert any(moved in banner.label.text() for banner in window.banners.banners)
    assert app.saved_text("notes/b.md") == typed
    app.qtbot.waitUntil(lambda: READY_LINE.encode() in output, timeout=CHILD_START_TIMEOUT_MS)

    pointer = app.send().capture.pointer
    assert pointer is not None
    assert (pointer.frameId, pointer.path) == ("inbox-1", "notes/a.md")

    with app.qtbot.waitSignal(window.session.popouts.return_offered, timeout=10_000) as offered:
        handle.process.kill()
    assert offered.args[0] is handle and handle.crashed
    assert handle.process.state() == QProcess.ProcessState.NotRunning
    assert any("ended unexpectedly" in banner.label.text() for banner in window.banners.banners)
    assert not any(moved in banner.label.text() for banner in window.banners.banners)

    record = app.send()
    assert record.error is None and record.capture.pointer is not None
    banner = window.banners.banners[-1]
    QTest.mouseClick(banner.buttons["Bring back"], Qt.MouseButton.LeftButton)
    returned = window.driver.frame("inbox-2")
    assert isinstance(returned, InboxFrame)
    app.qtbot.waitUntil(lambda: returned.is_loaded)
    assert returned.editor.toPlainText() == typed
    assert "inbox-2" in window.store.mounted_frame_ids


@pytest.mark.slow
def test_quitting_the_host_ends_its_popped_out_children(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    with app.qtbot.waitSignal(app.window.session.popouts.popped_out, timeout=10_000) as popped:
        frame.pop_out()
    handle = popped.args[0]
    output = bytearray()
    handle.process.readyReadStandardOutput.connect(
        lambda: output.extend(handle.process.readAllStandardOutput().data())
    )
    app.qtbot.waitUntil(lambda: READY_LINE.encode() in output, timeout=CHILD_START_TIMEOUT_MS)
    app.window.close()
    assert handle.process.state() == QProcess.ProcessState.NotRunning
    # Ended through its own close path (saves flushed), not killed.
    assert handle.exit_code == 0 and not handle.crashed


@pytest.mark.slow
def test_a_note_popped_out_at_quit_reopens_in_its_old_place_next_start_R45_R49(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first, _second = app.mount_two()
    with app.qtbot.waitSignal(app.window.session.popouts.popped_out, timeout=10_000) as popped:
        first.pop_out()
    handle = popped.args[0]
    assert handle.running
    assert [frame.path for frame in app.window.driver.inbox_frames()] == ["notes/b.md"]
    app.window.close()
    kept = json.loads((app.data_dir / "layout.json").read_text(encoding="utf-8"))
    notes = kept["workspaces"][kept["workspace"]]["notes"]
    assert [(note["id"], note["path"]) for note in notes] == [
        ("inbox-1", "notes/a.md"),
        ("inbox-2", "notes/b.md"),
    ]
