"""The context chip says what a send carries, lines included (R48), at a fixed size (R46)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest

from renderer.ambient.lines import LineRange, SelectedSpan
from renderer.frames.assistant.chip import ContextChip
from tests.app.conftest import AppFactory, AppUnderTest

NOTES = {
    "notes/a.md": "# A\nalpha line\n- [ ] first task\n- [x] done task\n",
    "notes/b.md": "# B\nbeta\n",
}


def _laid_out(app: AppUnderTest) -> list[int]:
    """The columns' widths once the splitter gives each column at least its minimum."""
    splitter = app.window.splitter

    def honoured() -> None:
        for index, width in enumerate(splitter.sizes()):
            column = splitter.widget(index)
            if column.isHidden():
                continue  # an empty providers column takes no room at all
            # As QSplitter reads it: a column's own minimum width, else its size hint's.
            least = column.minimumWidth() or column.minimumSizeHint().width()
            assert width >= least

    app.qtbot.waitUntil(honoured)
    return splitter.sizes()


def test_the_chip_shows_the_selected_lines_and_the_send_carries_them_R48(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/a.md")
    chip = app.window.assistant.context_chip
    assert chip.location == "notes/a.md"  # a caret is no selection

    frame.select(4, 20)  # "alpha line\n- [ " : lines 2 to 3
    assert chip.location == "notes/a.md:2–3"
    assert app.window.assistant.chip.text() == "This note: notes/a.md:2–3 · edit · inbox-1"

    record = app.send()
    pointer = record.capture.pointer
    assert pointer is not None and pointer.selection is not None
    assert (pointer.selection.anchor, pointer.selection.head) == (4, 20)
    assert record.capture.selection_lines == LineRange(2, 3) == chip.lines

    frame.select(5, 5)
    assert chip.location == "notes/a.md"


def test_the_chip_follows_a_selection_made_with_the_keyboard_R48(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/a.md")
    chip = app.window.assistant.context_chip
    editor = frame.editor
    editor.moveCursor(QTextCursor.MoveOperation.Start)
    QTest.keyClick(editor, Qt.Key.Key_Down)  # line 2
    QTest.keyClick(editor, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)
    assert chip.location == "notes/a.md:2"
    QTest.keyClick(editor, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert chip.location == "notes/a.md:2–3"
    QTest.keyClicks(editor, "replaced")  # typing over the selection leaves a caret
    assert chip.location == "notes/a.md"


def test_the_chip_shows_lines_only_for_the_note_this_note_means_in_the_edit_view_R48(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    first, second = app.mount_two()
    chip = app.window.assistant.context_chip
    QTest.mouseClick(first.activation_target(), Qt.MouseButton.LeftButton)
    first.select(0, 3)
    assert chip.location == "notes/a.md:1"
    second.select(0, 8)  # a selection in the other note does not change the chip
    assert chip.location == "notes/a.md:1"
    QTest.mouseClick(second.view_buttons["preview"], Qt.MouseButton.LeftButton)
    QTest.mouseClick(second.view_buttons["edit"], Qt.MouseButton.LeftButton)
    assert chip.location == "notes/b.md:1–2"  # inbox-2 is this note now, with its selection
    QTest.mouseClick(second.view_buttons["preview"], Qt.MouseButton.LeftButton)
    assert chip.location == "notes/b.md"  # only the edit view sends a selection (R8)
    assert chip.resolution is not None and chip.resolution.view == "preview"


def test_a_long_path_is_shortened_in_the_middle_and_never_widens_the_window_R46(
    make_app: AppFactory,
) -> None:
    long_path = "projects/" + "quarterly-planning-and-review/" * 3 + "meeting-2-final.md"
    assert len(long_path) == 117
    app = make_app({**NOTES, long_path: "# Long\nbody\n"})
    window = app.window
    available = window.screen().availableGeometry().width()
    window.resize(available, 700)
    frame = app.mount("inbox-1", "notes/b.md")
    app.qtbot.waitUntil(lambda: window.width() == available)
    columns = _laid_out(app)
    wanted = (window.assistant.minimumSizeHint().width(), window.assistant.sizeHint().width())

    with app.qtbot.waitSignal(frame.loaded, timeout=10_000):
        frame.open_path(long_path)
    assert _laid_out(app) == columns
    assert wanted == (
        window.assistant.minimumSizeHint().width(),
        window.assistant.sizeHint().width(),
    )
    assert window.width() <= available
    label = window.assistant.chip
    shown = label.shown_text()
    # Shortened in the middle: its start and its whole file name stay readable.
    assert shown.startswith(("This note: p", "p")) and "…" in shown
    assert "/meeting-2-final.md" in shown
    assert long_path in label.toolTip() and long_path in label.text()


def test_leave_out_never_changes_the_chip_or_the_column_width_R46(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    window = app.window
    window.resize(window.screen().availableGeometry().width(), 700)
    app.mount("inbox-1", "notes/a.md")
    assistant = window.assistant
    columns = _laid_out(app)
    chip = (assistant.chip.width(), assistant.exclude_toggle.width())

    QTest.mouseClick(assistant.exclude_toggle, Qt.MouseButton.LeftButton)
    assert _laid_out(app) == columns
    assert "left out of the next message" in assistant.chip.text()
    shown = assistant.chip.shown_text()
    assert "notes/a.md" in shown and shown.endswith("left out")  # the shortest wording fits
    assert (assistant.chip.width(), assistant.exclude_toggle.width()) == chip

    QTest.mouseClick(assistant.exclude_toggle, Qt.MouseButton.LeftButton)
    assert _laid_out(app) == columns
    assert (assistant.chip.width(), assistant.exclude_toggle.width()) == chip


def test_leave_out_is_off_with_no_note_open_and_does_not_outlive_the_note_R48(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    toggle = app.window.assistant.exclude_toggle
    assert not toggle.isEnabled()  # nothing to leave out
    app.mount("inbox-1", "notes/a.md")
    assert toggle.isEnabled()
    QTest.mouseClick(toggle, Qt.MouseButton.LeftButton)
    assert toggle.isChecked()
    app.window.driver.close_frame("inbox-1")
    assert not toggle.isEnabled() and not toggle.isChecked()
    assert app.window.assistant.chip.text() == "No note open"


def _count_updates(chip: ContextChip) -> list[int]:
    """Count the times ``chip`` lays out its text again, each still done for real."""
    calls: list[int] = []
    update = chip._update

    def counted() -> None:
        calls.append(1)
        update()

    chip._update = counted  # type: ignore[method-assign]
    return calls


def test_a_hidden_chip_does_no_work_and_is_current_as_soon_as_it_is_shown(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    chip = assistant.context_chip
    runtime = app.window.store.resolve_runtime()
    assert runtime is not None
    reads: list[int] = []
    read_span = runtime.read_selected_span

    def counted_read() -> SelectedSpan | None:
        reads.append(1)
        return read_span()

    runtime.read_selected_span = counted_read  # type: ignore[method-assign]
    updates = _count_updates(chip)

    assistant.hide()
    frame.select(4, 20)  # lines 2 to 3
    frame.select(4, 35)
    assert (updates, reads) == ([], [])

    assistant.show()
    assert chip.location == "notes/a.md:2–4"  # read once on showing, nothing to wait for
    assert assistant.chip.text() == "This note: notes/a.md:2–4 · edit · inbox-1"
    assert (len(updates), len(reads)) == (1, 1)
    frame.select(5, 5)
    assert chip.location == "notes/a.md"  # following the store again


def test_the_chip_of_a_workspace_not_open_does_no_work_as_selections_change_R45(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    window = app.window
    first = window.assistant
    assert first.context_chip.location == "notes/a.md"
    app.switch_workspace("other")
    assert window.assistant is not first and not first.isVisible()
    updates = _count_updates(first.context_chip)

    other = window.driver.mount_inbox("inbox-1", "notes/a.md")
    app.qtbot.waitUntil(lambda: other.is_loaded)
    other.type_text("one\ntwo\nthree\n")
    other.select(0, 8)
    assert window.assistant.context_chip.location == "notes/a.md:1–2"
    assert updates == []

    app.switch_workspace(app.workspace_dir.name)
    assert window.assistant is first
    app.qtbot.waitUntil(lambda: first.context_chip.location == "notes/a.md")
    assert first.chip.text() == "This note: notes/a.md · edit · inbox-1"
