"""What a turn shows: the R25 caveat once, and every failure in its own plain words."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import QLabel

from bridge.caveat import CAVEAT
from bridge.client import BackendClient, WireKeySession
from bridge.errors import AccessRefused, RequestRejected
from renderer.ambient.backend import BackendLink, WorkspaceLink
from renderer.ambient.capture import CaptureResult
from renderer.ambient.turns import TurnRecord
from renderer.frames.assistant.frame import UNEXPECTED_PROBLEM
from renderer.frames.assistant.turn_view import TurnView
from tests.app.conftest import AppFactory, AppUnderTest
from tests.support.answers import tool_call, turn_answer

T = TypeVar("T")


def _plain(label: QLabel) -> str:
    return QTextDocumentFragment.fromHtml(label.text()).toPlainText()


def _shown_text(view: TurnView) -> str:
    """Everything a reader of the turn sees, details included."""
    return "\n".join(_plain(label) for label in view.findChildren(QLabel) if label.isVisible())


CAVEAT_FOR_PEOPLE = (
    "The saved copy is behind your screen: your last keystrokes may not be in what the "
    "assistant read."
)


def test_the_caveat_shows_once_as_the_highlighted_warning_in_words_for_people_R25(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    record = app.send_typing_during_flush(frame)
    assert record.caveats == [CAVEAT]  # the tool result keeps the exact sentence
    # The backend's reply says it in words for the person, never the sentence for the model.
    assert record.reply is not None and CAVEAT not in record.reply.reply
    assert "The saved copy is behind your screen" in record.reply.reply
    view = assistant.transcript.findChildren(TurnView)[-1]
    view.details_button.setChecked(True)
    app.qtbot.waitUntil(lambda: view.details.isVisible())
    shown = _shown_text(view)
    assert CAVEAT not in shown  # the sentence addressed to the assistant is not shown
    assert shown.count(CAVEAT_FOR_PEOPLE) == 1  # once, as the warning, details included
    assert CAVEAT_FOR_PEOPLE in _plain(view.caveat) and view.caveat.isVisible()
    assert "(notes/a.md, edit view)" in _plain(view.reply)  # the rest of the reply is still there
    rows = dict(view.details.rows())
    assert rows["Tools called"].startswith("read_active_note: read notes/a.md")
    assert rows["Warnings"].startswith("the saved copy was behind your screen")


def test_the_caveat_is_shown_even_when_the_reply_leaves_it_out_R25(
    make_app: AppFactory,
) -> None:
    app = make_app()
    reply = turn_answer(
        "“A” (notes/a.md, edit view). alpha line",
        [tool_call("read_active_note", {}, {"status": "ok", "caveat": CAVEAT})],
        "stored",
    )
    record = TurnRecord(
        message="summarise this",
        capture=CaptureResult(pointer=None, header=None, dropped="no-inbox"),
        reply=reply,
        error=None,
        flushed=None,
        conversation="c",
    )
    view = TurnView("summarise this", app.window.assistant.transcript)
    view.show_record(record)
    view.show()
    assert CAVEAT_FOR_PEOPLE in _plain(view.caveat) and view.caveat.isVisible()
    assert _plain(view.reply) == reply.reply
    view.hide()
    view.deleteLater()


def _failed_send(app: AppUnderTest, message: str) -> TurnRecord:
    record = app.send(message)
    assert record.reply is None and record.error is not None
    assert "Traceback" not in record.error
    assert app.window.assistant.input.toPlainText() == message  # the turn did not go through
    assert not app.window.assistant.is_busy
    return record


def test_a_rejected_turn_shows_the_backends_own_message(make_app: AppFactory) -> None:
    app = make_app()
    assistant = app.window.assistant
    assistant.conversation = "c" * 200  # longer than the backend accepts
    assert app.session.server is not None
    client = BackendClient(app.session.backend_url, app.session.server.device_token)
    try:
        with pytest.raises(RequestRejected) as expected:
            client.stream_turn(assistant.conversation, "hello", session=None, ambient_header=None)
    finally:
        client.close()
    record = _failed_send(app, "hello")
    assert record.error == expected.value.message
    assert record.error != UNEXPECTED_PROBLEM
    shown = assistant.transcript.findChildren(TurnView)[-1].reply
    assert _plain(shown) == expected.value.message


def test_refused_access_shows_the_backends_own_message(make_app: AppFactory) -> None:
    app = make_app()
    good = app.session.link
    refused = BackendLink(app.session.backend_url, "not-the-device-token")
    app.session.link = WorkspaceLink(refused, good.session)
    try:
        record = _failed_send(app, "summarise this")
    finally:
        app.session.link = good
        refused.close()
    with (
        BackendClient(app.session.backend_url, "not-the-device-token") as client,
        pytest.raises(AccessRefused) as expected,
    ):
        client.stream_turn("c", "x", session=None, ambient_header=None)
    assert record.error == expected.value.message


class _BrokenLink(WorkspaceLink):
    """A link whose call fails the way a defect would, not the way the backend does."""

    def call(self, action: Callable[[BackendClient, WireKeySession], T]) -> T:
        raise RuntimeError("internal detail: list index out of range")


def test_an_unexpected_failure_is_one_plain_sentence(make_app: AppFactory) -> None:
    app = make_app()
    good = app.session.link
    app.session.link = _BrokenLink(good.backend, good.session)
    try:
        record = _failed_send(app, "summarise this")
    finally:
        app.session.link = good
    assert record.error == UNEXPECTED_PROBLEM
    shown = app.window.assistant.transcript.findChildren(TurnView)[-1].reply
    assert "internal detail" not in shown.text()


def test_two_failed_turns_both_stay_in_the_input(make_app: AppFactory) -> None:
    app = make_app()
    app.stop_backend()
    assistant = app.window.assistant
    with app.qtbot.waitSignals([assistant.turn_finished] * 2, timeout=15_000):
        assistant.send("first question")
        assistant.send("second question")
    assert assistant.input.toPlainText() == "first question\nsecond question"
