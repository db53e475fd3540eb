"""A big note an editor stops showing is emptied a slice at a time, not freed in one go (R67).

The document of a frame's editor was freed in one go as the frame closed, and
cleared inside ``setPlainText`` as the frame showed another note: hundreds of
milliseconds of the GUI thread for a 5 MiB note. Now the editor shows a fresh
document and the one it leaves is emptied a slice at a time (as closed previews'
are). A heartbeat timer on the real window sees it: at some tick the document
left behind is alive and part-emptied. How long a slice takes is ``make bench``'s
to hold (``bench_views``: opening a 5 MiB note, and another in its frame).
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest

from tests.app.conftest import LOAD_TIMEOUT_MS, AppFactory

TICK_MS = 5
BIG_LINE = "- [ ] a line of a long note, with some words in it to wrap\n"
BIG = BIG_LINE * (2 * 1024 * 1024 // len(BIG_LINE))
OTHER = "# Other\n\n" + "Some words.\n" * 2000
EMPTIED_TIMEOUT_MS = 60_000


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
