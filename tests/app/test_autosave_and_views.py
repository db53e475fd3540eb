"""Autosave (debounced, in order, visible) and the four views over one live document (R8, R10)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from bridge.pointer import fingerprint
from tests.app.conftest import AppFactory

SAVE_TIMEOUT_MS = 10_000


def test_typing_shows_unsaved_then_saves_through_the_document_api(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    states: list[str] = []
    frame.save_state_changed.connect(states.append)
    frame.editor.setFocus()
    QTest.keyClicks(frame.editor, "hello")
    assert frame.title_bar.badge.text() == "● Unsaved"
    with app.qtbot.waitSignal(
        frame.save_state_changed, timeout=SAVE_TIMEOUT_MS, check_params_cb=lambda s: s == "saved"
    ):
        pass
    assert states[0] == "unsaved" and "saving" in states and states[-1] == "saved"
    assert app.saved_text("notes/a.md") == frame.editor.toPlainText()
    assert frame.title_bar.badge.text() == "Saved"


def test_saves_of_one_note_land_in_order_the_last_text_wins(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    autosave = app.session.autosave
    for index in range(12):
        frame.type_text(f" {index}", at="end")
        autosave.save_now("inbox-1")  # a save per keystroke: many queued behind each other
    final = frame.editor.toPlainText()
    with app.qtbot.waitSignal(autosave.flush().finished, timeout=SAVE_TIMEOUT_MS) as blocker:
        pass
    assert blocker.args == [True]
    assert app.saved_text("notes/a.md") == final
    assert not autosave.pending_for(app.session.workspace, "notes/a.md")


def test_a_missing_note_opens_empty_and_is_created_by_its_first_save(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/new.md")
    assert frame.is_new_note and frame.editor.toPlainText() == ""
    assert frame.title_bar.badge.text() == "New note"
    frame.type_text("# New\n")
    with app.qtbot.waitSignal(
        frame.save_state_changed, timeout=SAVE_TIMEOUT_MS, check_params_cb=lambda s: s == "saved"
    ):
        pass
    assert app.saved_text("notes/new.md") == "# New\n"


def test_ticking_a_task_in_the_todo_view_edits_the_note_R8(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md", "todo")
    items = frame.todo.list
    assert items.count() == 2
    assert items.item(0).text() == "first task"
    assert items.item(0).checkState() == Qt.CheckState.Unchecked
    items.item(0).setCheckState(Qt.CheckState.Checked)
    assert "- [x] first task" in frame.editor.toPlainText()
    pointer = app.send().capture.pointer
    assert pointer is not None
    assert (pointer.bytes, pointer.sha256) == fingerprint(frame.editor.toPlainText())
    assert app.saved_text("notes/a.md") == frame.editor.toPlainText()


def test_preview_and_mindmap_render_the_same_live_document_R8(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/b.md")
    frame.type_text("## Added live\n", at="end")
    frame.set_view("preview")
    html = frame.preview.toHtml()
    assert "Added live" in html and "Child" in html
    frame.set_view("mindmap")
    assert frame.mindmap.node_count == 3  # B, Child, Added live
    frame.set_view("edit")
    assert frame.stack.currentWidget() is frame.editor


def test_unknown_view_or_bad_path_is_a_plain_error_and_changes_nothing(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    with pytest.raises(ValueError, match="Unknown view"):
        frame.set_view("table")  # type: ignore[arg-type]
    assert frame.view == "edit"
    with pytest.raises(ValueError, match=r"\.\."):
        app.window.driver.mount_inbox("inbox-2", "../outside.md")
    with pytest.raises(ValueError, match="relative"):
        frame.open_path("/etc/passwd")
    assert frame.path == "notes/a.md"
    assert "inbox-2" not in app.window.frames


def test_the_workspace_browser_lists_notes_and_opens_one_in_an_inbox_frame(
    make_app: AppFactory,
) -> None:
    app = make_app()
    browser = app.window.driver.mount_provider("workspace", "workspace")
    app.qtbot.waitUntil(lambda: browser.list.count() == 2)  # type: ignore[attr-defined]
    item = browser.list.item(1)  # type: ignore[attr-defined]
    assert item.text() == "notes/b.md"
    listing = browser.list  # type: ignore[attr-defined]
    QTest.mouseClick(
        listing.viewport(), Qt.MouseButton.LeftButton, pos=listing.visualItemRect(item).center()
    )
    assert listing.currentItem() is item
    QTest.keyClick(listing, Qt.Key.Key_Return)  # Enter opens the selected note
    opened = [frame for frame in app.window.driver.inbox_frames() if frame.path == "notes/b.md"]
    assert len(opened) == 1
    resolution = app.window.store.resolve()
    assert resolution is not None and resolution.path == "notes/b.md"
