"""Switching workspace is a boundary (R7): saves flushed, store cleared, captures invalidated."""

from __future__ import annotations

from tests.app.conftest import SWITCH_TIMEOUT_MS, AppFactory


def test_switching_flushes_clears_and_remounts_only_notes_that_exist_R7(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first, _ = app.mount_two()
    app.window.driver.activate_frame("inbox-1")
    first.type_text(" pending", at="end")
    typed = first.editor.toPlainText()
    window = app.window

    assert app.switch_workspace("other") == "other"
    assert app.saved_text("notes/a.md") == typed  # the pending save landed in the old workspace
    assert window.session.workspace == "other"
    assert window.driver.inbox_frames() == []  # "other" is empty: no note there to remount
    assert window.store.resolve() is None
    assert window.store.last_activated_frame is None
    assert window.assistant.chip.text() == "No note open"
    record = app.send()
    assert record.dropped == "no-inbox"
    assert any("no notes/a.md" in banner.label.text() for banner in window.banners.banners)


def test_frames_whose_note_exists_are_remounted_on_the_new_workspace_R7(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    window = app.window
    # A second workspace with its own notes/a.md, written through the document API.
    app.switch_workspace("second")
    created = window.driver.mount_inbox("inbox-1", "notes/a.md")
    created.type_text("second workspace text")
    app.session.autosave.save_now("inbox-1")
    app.switch_workspace(app.workspace_dir.name)
    reopened = window.driver.frame("inbox-1")
    app.qtbot.waitUntil(lambda: getattr(reopened, "is_loaded", False))
    assert reopened.editor.toPlainText().startswith("# A")  # type: ignore[attr-defined]
    app.switch_workspace("second")
    back = window.driver.frame("inbox-1")
    app.qtbot.waitUntil(lambda: getattr(back, "is_loaded", False))
    assert back.editor.toPlainText() == "second workspace text"  # type: ignore[attr-defined]


def test_a_switch_during_a_send_discards_its_capture_R7_R13(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    frame.type_text("x")
    window = app.window
    window.assistant.flush_started.connect(lambda: window.driver.switch_workspace("elsewhere"))
    with app.qtbot.waitSignal(window.workspace_switched, timeout=SWITCH_TIMEOUT_MS):
        record = app.send()
    assert record.capture.header is None
    assert record.dropped == "discarded"


def test_an_invalid_workspace_name_is_refused_plainly_and_nothing_changes(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    window = app.window
    with app.qtbot.waitSignal(window.workspace_switch_failed, timeout=1000) as blocker:
        window.driver.switch_workspace("../etc")
    assert "not a valid workspace name" in blocker.args[0]
    assert "inbox-1" in window.frames
    assert window.store.resolve() is not None


def test_a_workspace_name_with_a_trailing_newline_is_refused_like_the_backend_does(
    make_app: AppFactory,
) -> None:
    """The app checks names with the backend's own rule (contract 2), not a copy of it."""
    app = make_app()
    window = app.window
    with app.qtbot.waitSignal(window.workspace_switch_failed, timeout=1000) as blocker:
        window.driver.switch_workspace("other\n")
    assert blocker.args[0].startswith("“other\n” is not a valid workspace name")
    assert not window.is_switching_workspace
