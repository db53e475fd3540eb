"""One focus, one "this note" (R81): the keys go into the frame the chip names, at every moment.

Driven as a person drives the window: clicks and keys through QTest on the real
widgets, the keys always sent to the widget Qt has focused now
(``QApplication.focusWidget()``), never to an editor the test picks.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from app.window.main_window import MainWindow
from app.workspace.layout_state import LAYOUT_FILE
from renderer.frames.assistant.chip import chip_text
from renderer.frames.inbox.frame import InboxFrame
from tests.app.conftest import AppFactory, AppUnderTest

FOUR_NOTES = {
    "notes/one.md": "one\n",
    "notes/two.md": "two\n",
    "notes/three.md": "three\n",
    "notes/four.md": "four\n",
}
TIMEOUT_MS = 10_000


def _keys_target(window: MainWindow) -> QWidget:
    """Where a key typed now goes: Qt's focus widget (the window is active)."""
    focused = QApplication.focusWidget()
    assert focused is not None, "no widget has the focus: the next key would be lost"
    assert focused.window() is window
    return focused


def _type(window: MainWindow, text: str) -> None:
    QTest.keyClicks(_keys_target(window), text)


def _this_note(window: MainWindow) -> str:
    resolution = window.store.resolve()
    assert resolution is not None
    assert window.assistant.chip.text() == chip_text(resolution)
    return resolution.frame_id


def _frame_with_keys(window: MainWindow) -> str:
    focused = _keys_target(window)
    for frame in window.frames.values():
        if frame.isAncestorOf(focused):
            return frame.frame_id
    raise AssertionError(f"the focus is outside every frame: {focused!r}")


def _open_four(app: AppUnderTest) -> list[InboxFrame]:
    frames = [app.mount(f"inbox-{number}", path) for number, path in enumerate(FOUR_NOTES, start=1)]
    app.window.activateWindow()
    app.qtbot.waitUntil(app.window.isActiveWindow, timeout=TIMEOUT_MS)
    return frames


def _use(app: AppUnderTest, frame: InboxFrame, text: str) -> None:
    """Click into the note's text and type there, as a person uses a note."""
    QTest.mouseClick(frame.editor.viewport(), Qt.MouseButton.LeftButton)
    _type(app.window, text)


def test_typing_right_after_start_goes_into_the_note_the_chip_names_R81(
    make_app: AppFactory,
) -> None:
    app = make_app(demo=True)  # the demo's starting layout: two notes, opened before the window
    window = app.window
    # Before any window manager made the window active (or without one): the keys go to
    # the window's own focus widget, which must be in the note the chip names.
    waiting = window.focusWidget()
    assert waiting is not None
    chosen = _this_note(window)
    holder = window.driver.frame(chosen)
    assert isinstance(holder, InboxFrame) and waiting is holder.editor

    app.qtbot.waitUntil(lambda: holder.is_loaded, timeout=TIMEOUT_MS)
    app.qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT_MS)
    assert _this_note(window) == _frame_with_keys(window) == chosen
    _type(window, "typed at once ")
    assert holder.editor.toPlainText().startswith("typed at once ")
    pointer = app.send().capture.pointer
    assert pointer is not None and pointer.frameId == chosen


@pytest.mark.slow
def test_closing_the_active_note_gives_chip_and_keys_to_the_note_used_before_it_R81(
    make_app: AppFactory,
) -> None:
    app = make_app(FOUR_NOTES)
    window = app.window
    one, two, three, four = _open_four(app)
    # Used in this order; Qt's next editor after each closed one is another note.
    for frame, text in ((two, "b"), (four, "d"), (one, "a"), (three, "c")):
        _use(app, frame, text)
    assert _this_note(window) == "inbox-3"

    # Ctrl+W, typed into the note itself: the keys typed next, at once, go to inbox-1.
    QTest.keyClick(_keys_target(window), Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert "inbox-3" not in window.frames
    _type(window, "X")
    assert _this_note(window) == _frame_with_keys(window) == "inbox-1"
    assert one.editor.toPlainText().count("X") == 1

    # ✕ on the active note: inbox-4 was used before it (Qt's next editor is inbox-2's).
    activated: list[str] = []
    window.store.frame_activated.connect(activated.append)
    assert one.close_button is not None
    QTest.mouseClick(one.close_button, Qt.MouseButton.LeftButton)
    _type(window, "Y")
    assert _this_note(window) == _frame_with_keys(window) == "inbox-4"
    assert four.editor.toPlainText().count("Y") == 1
    assert "inbox-2" not in activated  # Qt's own focus move was never an activation

    # ↗ on the active note: inbox-2 was used before it.
    with app.qtbot.waitSignal(window.session.popouts.popped_out, timeout=TIMEOUT_MS):
        QTest.mouseClick(four.popout_button, Qt.MouseButton.LeftButton)
    _type(window, "Z")
    assert _this_note(window) == _frame_with_keys(window) == "inbox-2"
    assert two.editor.toPlainText().count("Z") == 1
    pointer = app.send().capture.pointer
    assert pointer is not None and pointer.frameId == "inbox-2"


def test_a_click_on_a_frames_title_or_margin_leaves_the_cursor_in_its_editor_R81(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    first, second = app.mount_two()
    window.activateWindow()
    app.qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT_MS)
    _use(app, first, "1")

    QTest.mouseClick(second.title_bar.title, Qt.MouseButton.LeftButton)
    assert _this_note(window) == _frame_with_keys(window) == "inbox-2"
    assert _keys_target(window) is second.editor
    _type(window, "title ")

    # The title bar's own margin, left of the title: no widget of its own there.
    QTest.mouseClick(first.title_bar, Qt.MouseButton.LeftButton, pos=QPoint(3, 3))
    assert _keys_target(window) is first.editor
    _type(window, "margin ")
    assert "title " in second.editor.toPlainText()
    assert "margin " in first.editor.toPlainText()


def test_after_a_restart_the_note_typed_in_last_is_this_note_and_the_order_is_kept_R81(
    make_app: AppFactory,
) -> None:
    app = make_app(FOUR_NOTES)
    one, _two, three, _four = _open_four(app)
    for frame, text in ((three, "c"), (one, "a")):
        _use(app, frame, text)
    # Then to the assistant, as before asking about the note: it is not a note.
    QTest.mouseClick(app.window.assistant.input.viewport(), Qt.MouseButton.LeftButton)
    _type(app.window, "what is in")
    app.qtbot.waitUntil(lambda: "a" in app.saved_text("notes/one.md"), timeout=TIMEOUT_MS)
    app.quit()

    again = make_app(restart=app)
    window = again.window
    for frame in window.driver.inbox_frames():
        again.qtbot.waitUntil(lambda frame=frame: frame.is_loaded, timeout=TIMEOUT_MS)
    window.activateWindow()
    again.qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT_MS)
    assert _this_note(window) == _frame_with_keys(window) == "inbox-1"
    # The order of use came back too: closing inbox-1 falls back to inbox-3, used before it,
    # not to the note mounted last (inbox-4) nor to Qt's next editor (inbox-2).
    QTest.keyClick(_keys_target(window), Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert _this_note(window) == _frame_with_keys(window) == "inbox-3"


@pytest.mark.parametrize(
    ("recent", "active", "expected"),
    [
        (["inbox-2", "gone-frame", 7, ""], "gone-frame", "inbox-2"),  # the ids still there
        (["gone-frame"], "gone-too", "inbox-1"),  # nothing left: the top note
        ("not a list", "gone-frame", "inbox-1"),  # a broken order: as if it named nothing
    ],
)
def test_a_layout_whose_order_names_frames_that_are_gone_falls_back_sensibly_R81(
    make_app: AppFactory, recent: object, active: str, expected: str
) -> None:
    app = make_app(FOUR_NOTES)
    _open_four(app)
    app.quit()
    path = app.data_dir / LAYOUT_FILE
    saved = json.loads(path.read_text("utf-8"))
    layout = saved["workspaces"][app.session.workspace]
    layout["recent"], layout["active"] = recent, active
    path.write_text(json.dumps(saved), "utf-8")

    again = make_app(restart=app)
    window = again.window
    window.activateWindow()
    again.qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT_MS)
    assert [frame.frame_id for frame in window.driver.inbox_frames()] == [
        "inbox-1",
        "inbox-2",
        "inbox-3",
        "inbox-4",
    ]  # nothing set aside for it
    assert _this_note(window) == _frame_with_keys(window) == expected


def test_focus_qt_moves_on_its_own_is_never_an_activation_R81(make_app: AppFactory) -> None:
    """A window manager that refuses focus, then hands it over with Qt's focus on another note."""
    app = make_app(FOUR_NOTES)
    window = app.window
    one, two, _three, _four = _open_four(app)
    _use(app, one, "a")
    _use(app, two, "b")
    history = window.store.activation_history

    other = QWidget()
    app.qtbot.addWidget(other)
    other.show()
    other.activateWindow()
    app.qtbot.waitUntil(lambda: not window.isActiveWindow(), timeout=TIMEOUT_MS)
    # Out of order: while the window is not active, Qt's remembered focus lands on inbox-1.
    one.editor.setFocus(Qt.FocusReason.ActiveWindowFocusReason)
    window.activateWindow()
    app.qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT_MS)
    assert window.store.activation_history == history
    assert _this_note(window) == _frame_with_keys(window) == "inbox-2"

    # Closed while the window manager keeps the focus elsewhere: the window's own
    # focus (where its keys go once it has them) is the note used before.
    other.activateWindow()
    app.qtbot.waitUntil(lambda: not window.isActiveWindow(), timeout=TIMEOUT_MS)
    window.driver.close_frame("inbox-2")
    assert window.focusWidget() is one.editor
    window.activateWindow()
    app.qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT_MS)
    _type(window, "kept")
    assert _this_note(window) == "inbox-1" and "kept" in one.editor.toPlainText()


def test_a_tick_in_the_todo_view_and_a_click_in_the_map_move_both_R81(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    editing = app.mount("inbox-1", "notes/a.md")
    ticking = app.mount("inbox-2", "notes/a.md", "todo")
    mapping = app.mount("inbox-3", "notes/b.md", "mindmap")
    window.activateWindow()
    app.qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT_MS)
    app.qtbot.waitUntil(lambda: ticking.todo.list.count() == 2, timeout=TIMEOUT_MS)
    app.qtbot.waitUntil(lambda: mapping.mindmap.node_count > 0, timeout=TIMEOUT_MS)
    _use(app, editing, "typed ")

    row = ticking.todo.list.visualItemRect(ticking.todo.list.item(0))
    box = QPoint(row.left() + row.height() // 2, row.center().y())
    QTest.mouseClick(ticking.todo.list.viewport(), Qt.MouseButton.LeftButton, pos=box)
    assert _this_note(window) == _frame_with_keys(window) == "inbox-2"
    assert "- [x] first task" in editing.editor.toPlainText()  # one document (R53)

    QTest.mouseClick(mapping.mindmap.viewport(), Qt.MouseButton.LeftButton)
    assert _this_note(window) == _frame_with_keys(window) == "inbox-3"

    # Closing the map's frame: back to the list ticked in just before.
    QTest.keyClick(_keys_target(window), Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert _this_note(window) == _frame_with_keys(window) == "inbox-2"
