"""The conversation shows its latest turn: on reopening (R45) and when Details open (R48)."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QScrollBar, QWidget

from renderer.frames.assistant.transcript import Transcript
from tests.app.conftest import AppFactory

WAIT_MS = 10_000
TURNS = 6


def _shown_whole(widget: QWidget, transcript: Transcript) -> bool:
    top = widget.mapTo(transcript.viewport(), QPoint(0, 0)).y()
    return top >= 0 and top + widget.height() <= transcript.viewport().height()


def _at_end(bar: QScrollBar) -> bool:
    return bar.maximum() > 0 and bar.value() == bar.maximum()


def test_a_reopened_conversation_is_shown_at_its_latest_turn_R45(make_app: AppFactory) -> None:
    app = make_app()
    app.window.resize(900, 500)
    app.mount("inbox-1", "notes/a.md")
    for _ in range(TURNS):
        app.send("what's still open here?")
    app.quit()
    window = make_app(restart=app, demo_layout=False).window
    window.resize(900, 500)
    transcript = window.assistant.transcript_view
    kept = transcript.turns  # kept by the backend, restored as shown (R45)
    app.qtbot.waitUntil(lambda: len(kept()) == TURNS, timeout=WAIT_MS)
    bar = transcript.verticalScrollBar()
    app.qtbot.waitUntil(lambda: _at_end(bar), timeout=WAIT_MS)
    app.qtbot.waitUntil(lambda: _shown_whole(kept()[-1], transcript), timeout=WAIT_MS)


def test_opening_the_last_turns_details_scrolls_them_into_view_R48(make_app: AppFactory) -> None:
    app = make_app()
    app.window.resize(900, 500)
    app.mount("inbox-1", "notes/a.md")
    for _ in range(TURNS):
        app.send("what's still open here?")
    transcript = app.window.assistant.transcript_view
    bar = transcript.verticalScrollBar()
    app.qtbot.waitUntil(lambda: _at_end(bar), timeout=WAIT_MS)
    last = transcript.turns()[-1]
    details = last.details  # type: ignore[attr-defined]
    closed = bar.maximum()
    last.details_button.click()  # type: ignore[attr-defined]
    app.qtbot.waitUntil(lambda: bar.maximum() > closed, timeout=WAIT_MS)  # laid out
    assert _shown_whole(details, transcript)
    # Scrolled up by hand, the view stays where the person put it.
    bar.triggerAction(QScrollBar.SliderAction.SliderToMinimum)
    first = transcript.turns()[0]
    opened = bar.maximum()
    first.details_button.click()  # type: ignore[attr-defined]
    app.qtbot.waitUntil(lambda: bar.maximum() > opened, timeout=WAIT_MS)
    assert _shown_whole(first.details, transcript)  # type: ignore[attr-defined]
    assert bar.value() < bar.maximum()  # not pulled to the end
