"""Opening, replacing and closing a big note never holds the window in one go (R67).

Qt's ``setPlainText`` of a 5 MiB note held the GUI thread 230 ms on a quiet
machine and over a second on a busy one, and the document a frame showed was
freed in one go as the frame closed or showed another note. Now the note's text
goes into its editor a slice per turn of the event loop, read-only until the last
slice is in, and a document the editor no longer shows is emptied a slice at a
time. A heartbeat timer on the real window sees the slices: at some tick the
editor holds part of the note, read-only and not loaded; at some tick a document
left behind is part-emptied. How long each slice takes is ``make bench``'s to
hold (``bench_views``: opening a 5 MiB note, and another in its frame).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest

from renderer.frames.inbox import InboxFrame
from renderer.frames.note_fill import FIRST_FILL_CHARACTERS, fill_slices
from tests.app.conftest import LOAD_TIMEOUT_MS, AppFactory

TICK_MS = 5
BIG_LINE = "- [ ] a line of a long note, with some words in it to wrap\n"
BIG = BIG_LINE * (2 * 1024 * 1024 // len(BIG_LINE))
OTHER = "# Other\n\n" + "Some words.\n" * 2000
EMPTIED_TIMEOUT_MS = 60_000


class _Seen(NamedTuple):
    characters: int
    read_only: bool
    loaded: bool


class _Heartbeat:
    """A 5 ms timer on the GUI thread that records ``look()`` at every tick."""

    def __init__(self, look: Callable[[], object]) -> None:
        self.seen: list[object] = []
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(lambda: self.seen.append(look()))

    def __enter__(self) -> _Heartbeat:
        self._timer.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._timer.stop()


def _part_emptied(document: QTextDocument, full: int) -> Callable[[], bool]:
    """Whether ``document`` is alive and holds less than it did, but not nothing yet."""
    return lambda: shiboken6.isValid(document) and 1 < document.characterCount() < full


def test_a_big_note_goes_into_its_editor_in_slices_read_only_until_whole_R67(
    make_app: AppFactory,
) -> None:
    app = make_app({"notes/big.md": BIG})
    frames: list[InboxFrame] = []

    def look() -> _Seen | None:
        if not frames:
            return None
        frame = frames[0]
        editor = frame.editor
        return _Seen(editor.document().characterCount() - 1, editor.isReadOnly(), frame.is_loaded)

    with _Heartbeat(look) as heartbeat:
        frames.append(app.window.driver.mount_inbox("inbox-1", "notes/big.md"))
        with app.qtbot.waitSignal(frames[0].loaded, timeout=LOAD_TIMEOUT_MS):
            pass
    seen = [s for s in heartbeat.seen if isinstance(s, _Seen)]
    part = [s for s in seen if 0 < s.characters < len(BIG)]
    assert part, "the note went into the editor in one go"
    assert all(s.read_only and not s.loaded for s in part)  # nobody types into half a note
    assert not [s for s in seen if s.loaded and s.characters != len(BIG)]
    frame = frames[0]
    assert frame.read_text() == BIG
    assert not frame.editor.isReadOnly()
    assert not frame.editor.document().isUndoAvailable()  # the load is no edit to undo
    assert not frame.editor.document().isModified()


def test_another_note_in_the_frame_empties_the_big_one_a_slice_at_a_time_R67(
    make_app: AppFactory,
) -> None:
    app = make_app({"notes/big.md": BIG, "notes/other.md": OTHER})
    frame = app.mount("inbox-1", "notes/big.md")
    left = frame.editor.document()
    part_emptied = _part_emptied(left, len(BIG) + 1)
    with _Heartbeat(lambda: left is not frame.editor.document() and part_emptied()) as heartbeat:
        with app.qtbot.waitSignal(frame.loaded, timeout=LOAD_TIMEOUT_MS):
            frame.open_path("notes/other.md")  # as a scenario's step opens it
        app.qtbot.waitUntil(lambda: not shiboken6.isValid(left), timeout=EMPTIED_TIMEOUT_MS)
    assert any(heartbeat.seen), "the big note's document was freed in one go"
    assert frame.read_text() == OTHER


def test_closing_a_big_note_empties_its_document_a_slice_at_a_time_R67(
    make_app: AppFactory,
) -> None:
    app = make_app({"notes/big.md": BIG})
    frame = app.mount("inbox-1", "notes/big.md")
    left = frame.editor.document()
    assert frame.close_button is not None
    with _Heartbeat(_part_emptied(left, len(BIG) + 1)) as heartbeat:
        QTest.mouseClick(frame.close_button, Qt.MouseButton.LeftButton)
        app.qtbot.waitUntil(lambda: not shiboken6.isValid(left), timeout=EMPTIED_TIMEOUT_MS)
    assert "inbox-1" not in app.window.frames
    assert any(heartbeat.seen), "the closed note's document was freed in one go"


def test_a_text_put_in_slices_reads_back_as_one_put_at_once_R67(make_app: AppFactory) -> None:
    make_app({})
    # Line breaks of every kind across slice ends, a character outside the BMP, a form feed.
    text = "".join(f"line {n}\r\n😀 é\n\r\f" for n in range(20_000))
    whole, sliced = QTextDocument(), QTextDocument()
    whole.setPlainText(text)
    sizes = list(fill_slices(sliced, text, 7))
    assert len(sizes) > 1 and sum(sizes) == len(text)
    assert sliced.toPlainText() == whole.toPlainText()
    assert sliced.blockCount() == whole.blockCount()
    assert len(BIG) > FIRST_FILL_CHARACTERS  # the notes above take more than one slice
