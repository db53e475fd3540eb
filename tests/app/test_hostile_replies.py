"""No reply can freeze the window (R91, issue 45): the audit's notes, as a model's replies.

A reply is someone else's text (a model server's, or a note the offline assistant
quotes). Each of the audit's payloads comes back from a scripted OpenAI-compatible
server on loopback as the reply of a turn in the real window; a heartbeat timer on
the GUI thread watches from the send until the reply is drawn. Before, a 150 KB reply
of ``"**_" * 50000`` held the GUI thread for 7 s. What is drawn short says so; the
turn's record keeps the whole reply.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtTest import QTest

from benchmarks.bench_hostile_notes import HOSTILE_NOTES, REPLY_PIECE_CHARS
from bridge.preview_bounds import INLINE_MARK, MAX_NESTING, NESTING_MARK, ROWS_MARK
from renderer.frames.assistant.turn_view import (
    REPLY_CUT_MARK,
    REPLY_DRAWN_CHARS,
    REPLY_DRAWN_LINES,
    REPLY_TABLE_ROWS,
    TurnView,
    drawn_part,
)
from tests.app.conftest import AppFactory, AppUnderTest
from tests.app.test_hostile_notes_draw import _Heartbeat
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model, text

WAIT_MS = 60_000
MAX_STALL_SECONDS = 1.0
"""Far above the 100 ms budget, far below today's 2-7 s: a turn's end lays the transcript
out a few times (its tools, its details, the reply drawn), each 20-170 ms on this shared
machine at load 10; ``make bench`` holds the 100 ms target on a quiet one."""
MARKS = {
    "50,000 nested quotes": NESTING_MARK.format(depth=MAX_NESTING),
    "a 100,000-row table": ROWS_MARK.format(shown=REPLY_TABLE_ROWS),
    "50,000 emphasis runs": INLINE_MARK.strip(),
}
"""What each reply says where its drawing is cut short (the 20,000 columns' first row
is longer than a reply draws: it is text)."""


@pytest.fixture
def scripted() -> Iterator[ScriptedModel]:
    with scripted_model() as server:
        yield server


def _use_model(app: AppUnderTest, server: ScriptedModel) -> None:
    dialog = app.window.driver.open_assistant_settings()
    dialog.model_choice.setChecked(True)
    dialog.endpoint.setText(server.url)
    dialog.model.setEditText(MODEL_ID)
    server.then(text("ready"))
    with app.qtbot.waitSignal(dialog.verified, timeout=WAIT_MS):
        QTest.mouseClick(dialog.verify_button, Qt.MouseButton.LeftButton)
    with app.qtbot.waitSignal(dialog.applied, timeout=WAIT_MS):
        QTest.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)


def _plain(view: TurnView) -> str:
    return QTextDocumentFragment.fromHtml(view.reply.text()).toPlainText()


@pytest.mark.parametrize("label", list(HOSTILE_NOTES))
def test_r91_a_hostile_reply_is_drawn_without_freezing_the_window(
    make_app: AppFactory, scripted: ScriptedModel, label: str
) -> None:
    reply = HOSTILE_NOTES[label]()
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    _use_model(app, scripted)
    scripted.then(text("Hello."))
    app.send("hello")  # the first send's one-time costs (modules loaded on first use)
    pieces = [reply[at : at + REPLY_PIECE_CHARS] for at in range(0, len(reply), REPLY_PIECE_CHARS)]
    scripted.then(text(reply, pieces=pieces))
    with _Heartbeat() as heartbeat:
        record = app.send("hello")
        view = app.window.assistant.transcript_view.turns()[-1]
        assert isinstance(view, TurnView)
        app.qtbot.waitUntil(lambda: "<p" in view.reply.text(), timeout=WAIT_MS)  # Markdown
        ticks = len(heartbeat.ticks)
        app.qtbot.waitUntil(lambda: len(heartbeat.ticks) > ticks + 1)  # a tick after it
    stall = heartbeat.longest_gap()
    assert stall < MAX_STALL_SECONDS, f"the reply stopped the GUI thread for {stall * 1000:.0f} ms"
    assert record.reply is not None and record.reply.reply == reply  # the record keeps it all
    shown = _plain(view)
    assert len(shown) < 2 * REPLY_DRAWN_CHARS
    drawn, rest = drawn_part(reply)
    assert rest and shown.endswith(REPLY_CUT_MARK.format(rest=rest))  # how much is not drawn
    assert drawn.count("\n") <= REPLY_DRAWN_LINES
    if label in MARKS:
        assert MARKS[label] in shown
