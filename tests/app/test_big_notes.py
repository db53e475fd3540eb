"""Big notes never freeze the window (R67): views read off the GUI thread and draw in slices.

Notes here are above the size that is drawn at once, so every view goes the way a
big note goes: read in the reading process, drawn a slice at a time, busy meanwhile.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QTextCursor, QTextDocument, QTextOption
from PySide6.QtWidgets import QApplication, QLabel

from renderer.ambient.lines import selection_lines
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.inbox.rendering import (
    INLINE_CHARACTERS,
    RAW_CHARACTERS_PER_STEP,
    READING_NICENESS,
    ReadingProcess,
    raw_text_chunks,
    raw_text_steps,
)
from renderer.frames.inbox.runtime import BLOCK_SEPARATOR
from renderer.frames.inbox.views import RENDERING, REWRAP_LATER_CHARS
from tests.app.conftest import AppFactory, AppUnderTest

DRAW_TIMEOUT_MS = 60_000
PROJECT_ROOT = Path(__file__).resolve().parents[2]
SECTIONS = 60
TASKS_PER_SECTION = 12


def _big_note() -> str:
    sections = [
        f"## Section {n}\n\n"
        + "".join(f"- [ ] task {n}.{t}\n" for t in range(TASKS_PER_SECTION))
        + "\nProse.\n\n"
        for n in range(SECTIONS)
    ]
    text = "# Big\n\n" + "".join(sections)
    assert len(text) > INLINE_CHARACTERS
    return text


NOTES = {"notes/big.md": _big_note(), "notes/other.md": _big_note().replace("task", "job")}


def test_a_big_view_draws_off_the_gui_thread_with_a_busy_label_R67(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/big.md")
    frame.set_view("todo")
    assert frame.renders.busy  # set_view came back at once
    assert _rendering_said(frame) == ["renderCover"]  # said once, over the view (issue 38)
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert _rendering_said(frame) == []
    assert frame.todo.list.count() == SECTIONS * TASKS_PER_SECTION
    assert frame.todo.list.item(0).text() == "task 0.0"
    # Drawn again for new text: the view stays shown, and the corner says it, once.
    frame.type_text("\n- [ ] one more\n", at="end")
    app.qtbot.waitUntil(lambda: frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert _rendering_said(frame) == ["renderBusy"]
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert _rendering_said(frame) == []


def _rendering_said(frame: InboxFrame) -> list[str]:
    """Which labels of the frame say "Rendering this note…" now."""
    return [
        label.objectName()
        for label in frame.findChildren(QLabel)
        if label.isVisible() and label.text() == RENDERING
    ]


def test_a_big_notes_text_is_taken_in_steps_exactly_as_at_once_R67(qapp: QApplication) -> None:
    """Whole blocks per step: emoji (surrogate pairs), line separators and one block longer
    than a step come out as ``toRawText`` gives them."""
    line = "- [ ] a task 🙂 with\u2028a line separator and ünïcode\n"
    long_block = "🙂" * (RAW_CHARACTERS_PER_STEP // 2 + 7)  # longer than a step in UTF-16
    text = line * (RAW_CHARACTERS_PER_STEP // len(line) + 3) + long_block + "\n" + line * 5000
    document = QTextDocument()
    document.setPlainText(text)
    pieces: list[str] = []
    steps = sum(1 for _ in raw_text_steps(document, pieces))
    assert steps >= 3
    assert "".join(pieces) == document.toRawText()
    assert len(pieces[0]) <= RAW_CHARACTERS_PER_STEP  # whole blocks, no more than a step


def test_a_big_notes_text_reaches_the_reading_process_as_the_editor_holds_it_R67(
    qapp: QApplication,
) -> None:
    """Encoded a step at a time and shared through memory, not a pipe: emoji, line and
    block separators and accents arrive exactly, the blocks joined by line breaks."""
    line = "- [ ] a task 🙂 with\u2028a line separator and ünïcode\n"
    document = QTextDocument()
    document.setPlainText(line * (3 * RAW_CHARACTERS_PER_STEP // len(line)))
    chunks: list[bytes] = []
    assert sum(1 for _ in raw_text_chunks(document, chunks)) >= 3
    ReadingProcess.join()
    try:
        text = ReadingProcess.read(str, chunks)  # ``str`` of the text is the text itself
        niceness = ReadingProcess.read(_niceness_of, [b""])
    finally:
        ReadingProcess.leave()
    assert text == document.toRawText().replace(BLOCK_SEPARATOR, "\n")
    assert niceness == min(19, os.nice(0) + READING_NICENESS)  # the cores go to the window first


def _niceness_of(_text: str) -> int:
    """The niceness of the process it runs in (sent to the reading process by name)."""
    return os.nice(0)


def test_a_switch_while_a_view_draws_cancels_it_R67(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/big.md")
    drawn: list[int] = []
    frame.renders.finished.connect(lambda: drawn.append(1))
    frame.set_view("preview")
    frame.set_view("mindmap")  # before the preview's reading is back
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert drawn == [1]  # the map only: the preview was never drawn
    assert frame.mindmap.node_count == SECTIONS + 1
    assert "task 0.0" not in frame.preview.toPlainText()
    frame.set_view("preview")  # cancelled, so drawn now
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert "task 0.0" in frame.preview.toPlainText() and drawn == [1, 1]


def test_a_note_opened_in_a_view_is_drawn_once_R67(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    frame = app.window.driver.mount_inbox("inbox-1", "notes/big.md", "preview")
    drawn: list[int] = []
    frame.renders.finished.connect(lambda: drawn.append(1))
    with app.qtbot.waitSignal(frame.loaded, timeout=DRAW_TIMEOUT_MS):
        pass
    assert not frame._rerender.isActive()  # the load's setPlainText queues no second render
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert drawn == [1]
    frame.set_view("edit")
    frame.set_view("preview")  # the same text is shown already: nothing to draw again
    assert drawn == [1] and not frame.renders.busy


def test_the_preview_and_todo_keep_the_readers_place_when_the_note_changes_R67(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/big.md")
    for view, bar in (
        ("preview", frame.preview.verticalScrollBar()),
        ("todo", frame.todo.list.verticalScrollBar()),
    ):
        frame.set_view(view)  # type: ignore[arg-type]
        app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
        assert bar.maximum() > 0
        place = bar.maximum() // 2
        bar.setValue(place)
        with app.qtbot.waitSignal(frame.renders.finished, timeout=DRAW_TIMEOUT_MS):
            frame.type_text("\n- [ ] one more\n", at="end")  # the view is drawn again
        assert bar.value() == place, view


def test_a_switch_to_the_preview_leaves_the_note_it_shows_laid_out_R67(
    make_app: AppFactory,
) -> None:
    """The next drawing's wrap mode is not set on the note shown: Qt would lay all of it
    out again, from a timer, in steps of up to 200,000 characters at a time."""
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/big.md", "preview")
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    shown = frame.preview.document()
    relaid: list[int] = []
    shown.documentLayout().update.connect(lambda *_: relaid.append(1))
    frame.set_view("edit")
    frame.type_text("\n- [ ] one more\n", at="end")
    frame.set_view("preview")  # draws again: its wrap mode is chosen now
    assert frame.renders.busy and relaid == []
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert "one more" in frame.preview.toPlainText()


def test_the_preview_of_a_note_with_an_endless_run_wraps_anywhere_R63_R67(
    make_app: AppFactory,
) -> None:
    run = "# Run\n\n" + "x" * 3_000 + "\n\n" + _big_note()
    app = make_app({**NOTES, "notes/run.md": run})
    endless = app.mount("inbox-1", "notes/run.md", "preview")
    plain = app.mount("inbox-2", "notes/big.md", "preview")
    for frame in (endless, plain):
        app.qtbot.waitUntil(lambda frame=frame: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    wrap = QTextOption.WrapMode
    assert endless.preview.document().defaultTextOption().wrapMode() == wrap.WrapAnywhere
    assert plain.preview.document().defaultTextOption().wrapMode() == (
        wrap.WrapAtWordBoundaryOrAnywhere
    )


def test_the_preview_of_a_long_list_is_laid_out_as_short_lists_R67(
    make_app: AppFactory,
) -> None:
    tasks = "".join(f"- [ ] task {n}\n" for n in range(1_000))
    app = make_app({"notes/tasks.md": tasks})
    frame = app.mount("inbox-1", "notes/tasks.md", "preview")
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    document = frame.preview.document()
    lists = {document.findBlockByNumber(n).textList() for n in range(document.blockCount())}
    lists.discard(None)
    assert len(lists) == 1_000 // 50
    assert all(text_list.count() == 50 for text_list in lists)
    assert frame.preview.toPlainText().count("☐ task") == 1_000


def test_the_chips_lines_read_from_the_selection_agree_with_the_whole_note_R48_R67(
    make_app: AppFactory,
) -> None:
    text = "first line\nzweite Zeile — ü\n\n😀 four\n" * 40
    app = make_app({"notes/mixed.md": text})
    frame = app.mount("inbox-1", "notes/mixed.md")
    app.window.driver.activate_frame("inbox-1")
    chip = app.window.assistant.context_chip
    runtime = app.window.store.resolve_runtime()
    assert runtime is not None
    length = frame.editor.document().characterCount() - 1
    for anchor, head in [(0, 5), (11, 30), (30, 11), (40, 300), (length - 20, length), (5, 6)]:
        frame.select(anchor, head)
        expected = selection_lines(runtime.read_text(), runtime.read_selection())
        assert chip.lines == expected, (anchor, head)
    cursor = frame.editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    frame.editor.setTextCursor(cursor)
    assert chip.lines is None  # a caret has no lines


def test_the_app_shows_its_first_note_without_loading_the_model_or_mcp_sdk_R67(
    tmp_path: Path,
) -> None:
    environment = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    completed = subprocess.run(
        [sys.executable, "-m", "app", "--data-dir", str(tmp_path), "--quit-when-ready"],
        cwd=PROJECT_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.strip().splitlines()
    assert lines[0] == "window" and lines[-1] == "ready"  # the window shows before the note
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, app.session, app.window.main_window;"
            " print('openai' in sys.modules, 'mcp' in sys.modules)",
        ],
        cwd=PROJECT_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert imported.stdout.strip() == "False False"  # only a model, or sharing, needs them


def _window_narrower(app: AppUnderTest, by: int) -> None:
    window = app.window
    window.resize(window.width() - by, window.height())
    QApplication.processEvents()  # the layouts hand the new width down


def test_a_long_preview_keeps_its_layout_while_resized_and_is_drawn_again_after_R67(
    make_app: AppFactory,
) -> None:
    """Qt would lay all of it out again for each width, in steps of up to 200,000 characters."""
    app = make_app({"notes/long.md": _big_note() * 11})
    frame = app.mount("inbox-1", "notes/long.md", "preview")
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    preview, shown = frame.preview, frame.preview.document()
    assert shown.characterCount() >= REWRAP_LATER_CHARS
    width = preview.laid_out_width()
    assert width == preview.viewport().width()
    relaid: list[int] = []
    shown.documentLayout().update.connect(lambda *_: relaid.append(1))
    with app.qtbot.waitSignal(frame.renders.finished, timeout=DRAW_TIMEOUT_MS):
        _window_narrower(app, 200)
        assert preview.viewport().width() < width
        assert preview.document() is shown and preview.laid_out_width() == width
        assert relaid == []  # nothing laid out again on the GUI thread
    assert preview.document() is not shown  # drawn afresh once the width stayed put
    assert preview.laid_out_width() == preview.viewport().width() < width
    assert preview.toPlainText().count("☐ task 59.11") == 11


def test_a_short_preview_follows_a_new_width_at_once_R67(make_app: AppFactory) -> None:
    app = make_app({"notes/short.md": "# Short\n\nA few words.\n"})
    frame = app.mount("inbox-1", "notes/short.md", "preview")
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    preview, shown = frame.preview, frame.preview.document()
    width = preview.laid_out_width()
    _window_narrower(app, 200)
    assert preview.document() is shown
    assert preview.laid_out_width() == preview.viewport().width() < width


def test_r80_a_view_says_only_that_it_renders_until_it_has_read_the_note(
    make_app: AppFactory,
) -> None:
    """No count or absence before the note is read: the todo view's hint waits for its tasks."""
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/big.md")
    for view in ("todo", "mindmap", "preview"):
        frame.set_view(view)  # type: ignore[arg-type]
        assert frame.renders.busy, view
        assert frame.drawing.cover.isVisible() and frame.drawing.cover.text() == RENDERING
        assert not frame.todo.empty.isVisible()
        app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
        assert not frame.drawing.cover.isVisible(), view
    frame.set_view("todo")
    assert not frame.drawing.cover.isVisible()  # drawn already from this load
    assert frame.todo.list.isVisible() and not frame.todo.empty.isVisible()
    with app.qtbot.waitSignal(frame.renders.finished, timeout=DRAW_TIMEOUT_MS):
        frame.type_text("\n- [ ] one more\n", at="end")
    assert not frame.drawing.cover.isVisible()  # the same note a keystroke older is no lie
    frame.open_path("notes/other.md")
    app.qtbot.waitUntil(lambda: frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert frame.drawing.cover.isVisible()  # never the tasks of the note shown before
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert not frame.drawing.cover.isVisible() and frame.todo.list.item(0).text() == "job 0.0"


def test_r80_a_note_without_tasks_says_so_only_once_read(make_app: AppFactory) -> None:
    app = make_app({"notes/plain.md": "# Plain\n\n" + "Prose without tasks.\n" * 400})
    frame = app.mount("inbox-1", "notes/plain.md")
    frame.set_view("todo")
    assert not frame.todo.empty.isVisible() and frame.drawing.cover.isVisible()
    app.qtbot.waitUntil(lambda: not frame.renders.busy, timeout=DRAW_TIMEOUT_MS)
    assert frame.todo.empty.isVisible() and not frame.drawing.cover.isVisible()


def test_r92_a_start_removes_the_reading_memory_a_killed_app_left_and_only_that(
    make_app: AppFactory,
) -> None:
    """An app killed mid-reading leaves the note's text in /dev/shm; the next start removes
    it, and leaves a block of a running app, and anyone else's, alone."""
    from multiprocessing import resource_tracker
    from multiprocessing.shared_memory import SharedMemory

    from renderer.frames.inbox.rendering import SEGMENT_PREFIX, SHARED_MEMORY_FOLDER

    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead_pid = int(gone.stdout)
    left = f"{SEGMENT_PREFIX}{dead_pid}-0"
    running = f"{SEGMENT_PREFIX}{os.getpid()}-999999"
    other = "psm_not_ours_r92"
    blocks = [SharedMemory(name=name, create=True, size=64) for name in (left, running, other)]
    for block in blocks:
        block.buf[:12] = b"private text"
        block.close()
        resource_tracker.unregister(f"/{block.name}", "shared_memory")  # as a killed app's
    try:
        make_app()
        assert not (SHARED_MEMORY_FOLDER / left).exists()
        assert (SHARED_MEMORY_FOLDER / running).exists()
        assert (SHARED_MEMORY_FOLDER / other).exists()
    finally:
        for name in (left, running, other):
            (SHARED_MEMORY_FOLDER / name).unlink(missing_ok=True)
