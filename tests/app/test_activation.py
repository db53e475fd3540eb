"""Activation through real input events drives the resolver, and the chip follows (R2–R6, R8)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from renderer.frames.assistant.chip import chip_text
from tests.app.conftest import AppFactory


def test_a_click_in_a_frame_makes_it_this_note_and_the_chip_follows_R2_R4(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first, second = app.mount_two()
    store, chip = app.window.store, app.window.assistant.chip

    QTest.mouseClick(first.activation_target(), Qt.MouseButton.LeftButton)
    resolution = store.resolve()
    assert resolution is not None and resolution.frame_id == "inbox-1"
    assert chip.text() == "This note: notes/a.md · edit · inbox-1"

    QTest.mouseClick(second.activation_target(), Qt.MouseButton.LeftButton)
    resolution = store.resolve()
    assert resolution is not None and resolution.frame_id == "inbox-2"
    assert chip.text() == chip_text(resolution)


def test_activating_the_assistant_or_a_provider_keeps_the_inbox_choice_R5(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first, _ = app.mount_two()
    placeholder = app.window.driver.mount_provider("web", "web")
    QTest.mouseClick(first.activation_target(), Qt.MouseButton.LeftButton)

    QTest.mouseClick(app.window.assistant.activation_target(), Qt.MouseButton.LeftButton)
    assert app.window.store.last_activated_frame == "assistant"
    QTest.mouseClick(placeholder.activation_target(), Qt.MouseButton.LeftButton)
    assert app.window.store.last_activated_frame == "web"

    record = app.send()
    assert record.capture.pointer is not None
    assert record.capture.pointer.frameId == "inbox-1"


def test_keyboard_focus_inside_a_frame_activates_it_R2(make_app: AppFactory) -> None:
    app = make_app()
    first, second = app.mount_two()
    app.window.activateWindow()
    QTest.mouseClick(first.activation_target(), Qt.MouseButton.LeftButton)

    app.window.driver.focus_frame_number(2)  # what Ctrl+2 does
    app.qtbot.waitUntil(lambda: second.editor.hasFocus())
    resolution = app.window.store.resolve()
    assert resolution is not None and resolution.frame_id == "inbox-2"

    first.editor.setFocus(Qt.FocusReason.TabFocusReason)
    app.qtbot.waitUntil(lambda: first.editor.hasFocus())
    resolution = app.window.store.resolve()
    assert resolution is not None and resolution.frame_id == "inbox-1"


def test_the_only_mounted_note_resolves_without_activation_R3(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/b.md")
    assert app.window.store.last_activated_frame != "inbox-1"  # never clicked or focused
    assert app.window.assistant.chip.text() == "This note: notes/b.md · edit · inbox-1"


def test_with_no_inbox_frame_there_is_no_note_and_no_header_R6(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.window.driver.close_frame("inbox-1")
    assert app.window.assistant.chip.text() == "No note open"
    record = app.send()
    assert record.capture.header is None
    assert record.dropped == "no-inbox"
    assert record.flushed is None


def test_a_view_switch_by_its_button_shows_in_the_chip_and_the_pointer_R8(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    QTest.mouseClick(frame.view_buttons["todo"], Qt.MouseButton.LeftButton)
    assert frame.view == "todo"
    assert app.window.assistant.chip.text() == "This note: notes/a.md · todo · inbox-1"
    record = app.send()
    pointer = record.capture.pointer
    assert pointer is not None
    assert pointer.view == "todo"
    assert pointer.selection is None  # only the edit view has a selection

    QTest.mouseClick(frame.view_buttons["mindmap"], Qt.MouseButton.LeftButton)
    pointer = app.send().capture.pointer
    assert pointer is not None and pointer.view == "mindmap"


def test_the_active_frame_is_shown_and_the_choice_survives_a_close_R4(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first, second = app.mount_two()
    QTest.mouseClick(first.activation_target(), Qt.MouseButton.LeftButton)
    QTest.mouseClick(second.activation_target(), Qt.MouseButton.LeftButton)
    assert second.property("active") is True
    assert first.property("active") is False

    app.window.driver.close_frame("inbox-2")
    resolution = app.window.store.resolve()
    assert resolution is not None and resolution.frame_id == "inbox-1"
    assert "inbox-2" not in app.window.frames
