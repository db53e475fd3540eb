"""The assistant frame streams turns from the embedded backend: deltas, tools, Stop, failures.

The model side is a real loopback OpenAI-compatible server that each test scripts
(R35, R36, R30); the backend is the app's own embedded one, chosen by the contract's
environment variables.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from renderer.frames.assistant.turn_view import TurnView
from tests.app.conftest import TURN_TIMEOUT_MS, AppFactory, AppUnderTest
from tests.support.scripted_model import MODEL_ID, ScriptedModel, error, scripted_model, text

WAIT_MS = 10_000


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedModel]:
    """A scripted model server, and the embedded backend pointed at it (contract 7)."""
    with scripted_model() as server:
        monkeypatch.setenv("AMBIENT_MODEL_BASE_URL", server.url)
        monkeypatch.setenv("AMBIENT_MODEL", MODEL_ID)
        yield server


def _turn_view(app: AppUnderTest) -> TurnView:
    return app.window.assistant.transcript.findChildren(TurnView)[-1]


def _start(app: AppUnderTest, message: str = "summarise this") -> None:
    assistant = app.window.assistant
    # A person clicks into the input first: the keys start in "this note" (R81).
    QTest.mouseClick(assistant.input.viewport(), Qt.MouseButton.LeftButton)
    QTest.keyClicks(assistant.input, message)
    QTest.keyClick(assistant.input, Qt.Key.Key_Return)


def test_deltas_show_before_the_turn_is_done_R35(
    make_app: AppFactory, scripted: ScriptedModel
) -> None:
    """The server holds the rest of its stream until the first piece is on screen."""
    held = threading.Event()
    scripted.then(text("Alpha is the first note.", hold_after_first_piece=held))
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    finished: list[object] = []
    assistant.turn_finished.connect(finished.append)
    _start(app)
    app.qtbot.waitUntil(lambda: "Alpha" in _turn_view(app).reply.text(), timeout=WAIT_MS)
    assert not finished  # the first delta is shown while the model still holds the rest
    assert assistant.is_busy and assistant.stop_button.isVisible()
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=TURN_TIMEOUT_MS) as blocker:
        held.set()
    record = blocker.args[0]
    assert record.reply is not None and record.reply.reply == "Alpha is the first note."
    assert record.reply.assistant.model == MODEL_ID
    view = _turn_view(app)
    assert "Alpha is the first note." in view.reply.text()  # rendered from Markdown (R48)
    assert view.answered_by.text() == MODEL_ID and not view.answered_by.isHidden()
    assert not assistant.stop_button.isVisible()
    assert record.capture.header is not None  # the capture path ran as for any send


def test_a_tool_call_shows_on_the_turn_while_the_reply_streams_R35(
    make_app: AppFactory, scripted: ScriptedModel
) -> None:
    held = threading.Event()
    # The backend reads the open note itself, then asks the model once (R75).
    scripted.then(text("It has one open task: first task.", hold_after_first_piece=held))
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    _start(app)
    app.qtbot.waitUntil(lambda: "read_active_note" in _turn_view(app).tools.text(), timeout=WAIT_MS)
    app.qtbot.waitUntil(lambda: "It" in _turn_view(app).reply.text(), timeout=WAIT_MS)
    assert assistant.is_busy
    assert "read_active_note" in _turn_view(app).details.text()  # in the details already
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=TURN_TIMEOUT_MS) as blocker:
        held.set()
    record = blocker.args[0]
    assert record.reply is not None
    assert [call.name for call in record.reply.tool_calls] == ["read_active_note"]
    assert record.reply.tool_calls[0].result["status"] == "ok"
    view = _turn_view(app)
    assert "read_active_note" in view.tools.text()
    assert "read_active_note: read notes/a.md" in view.details.text()  # the call and its result


@pytest.mark.parametrize("how", ["stop button", "escape"])
def test_stop_or_esc_ends_the_turn_and_the_backend_stops_calling_the_model_R35(
    make_app: AppFactory, scripted: ScriptedModel, how: str
) -> None:
    scripted.then(text("Partial answer that never ends", stall_after_first_piece=True))
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    _start(app)
    app.qtbot.waitUntil(lambda: "Partial" in _turn_view(app).reply.text(), timeout=WAIT_MS)
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=WAIT_MS) as blocker:
        if how == "escape":
            QTest.keyClick(assistant.input, Qt.Key.Key_Escape)
        else:
            QTest.mouseClick(assistant.stop_button, Qt.MouseButton.LeftButton)
    record = blocker.args[0]
    assert record.stopped and record.reply is None and record.error is None
    assert record.streamed.startswith("Partial")
    view = _turn_view(app)
    assert view.reply.text().startswith("Partial")  # what streamed stays on screen
    assert "Stopped" in view.notice.text() and not view.notice.isHidden()
    assert not assistant.is_busy and assistant.input.toPlainText() == ""
    # The backend closed its request to the model once the app went away.
    app.qtbot.waitUntil(scripted.client_went_away.is_set, timeout=WAIT_MS)
    # The next turn is the model's next request: the stopped one made no more calls.
    scripted.then(text("Fresh answer."))
    again = app.send("hello")
    assert again.reply is not None and again.reply.reply == "Fresh answer."
    assert len(scripted.chat_requests) == 2


def test_a_provider_failure_shows_its_message_and_keeps_the_message_R36(
    make_app: AppFactory, scripted: ScriptedModel
) -> None:
    scripted.then(error(401, "invalid api key"))
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=TURN_TIMEOUT_MS) as blocker:
        _start(app, "what are my open tasks here?")
    record = blocker.args[0]
    endpoint = scripted.url.removeprefix("http://").removesuffix("/v1")
    assert record.reply is None and record.error is not None
    assert endpoint in record.error and "key" in record.error  # names the endpoint, says what
    assert "Traceback" not in record.error
    assert _turn_view(app).reply.text().startswith("The model")
    assert assistant.input.toPlainText() == "what are my open tasks here?"  # kept for a retry
    scripted.then(text("Retried."))
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=TURN_TIMEOUT_MS) as blocker:
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)
    assert blocker.args[0].reply.reply == "Retried."


def test_the_frame_names_the_model_that_answers_R30(
    make_app: AppFactory, scripted: ScriptedModel
) -> None:
    app = make_app()
    assistant = app.window.assistant
    app.qtbot.waitUntil(lambda: assistant.assistant_label.text() == MODEL_ID, timeout=WAIT_MS)
    assert assistant.assistant_info is not None
    assert assistant.assistant_info.base_url == scripted.url


def test_the_frame_names_the_offline_assistant_and_it_streams_too_R30_R35(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    app.qtbot.waitUntil(lambda: assistant.assistant_label.text() == "Offline assistant")
    record = app.send("summarise this")
    assert record.reply is not None and record.reply.assistant.kind == "offline"
    assert record.streamed == record.reply.reply  # the offline reply arrived as deltas
    assert _turn_view(app).answered_by.text() == "Offline assistant"


def test_stop_while_the_save_is_still_flushing_sends_nothing_R35(make_app: AppFactory) -> None:
    """Stop before the turn went out: the bounded preparation ends and no turn is posted."""
    app = make_app(save_delay_seconds=2.0)
    frame = app.mount("inbox-1", "notes/a.md")
    frame.type_text(" more")
    assistant = app.window.assistant
    assistant.flush_started.connect(assistant.stop)
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=TURN_TIMEOUT_MS) as blocker:
        assistant.send("summarise this")
    record = blocker.args[0]
    assert record.stopped and record.reply is None and record.streamed == ""
    assert _turn_view(app).reply.text() == "Stopped before the assistant answered."
    link = app.session.link
    conversation = assistant.conversation
    # Nothing reached the backend: no delivery row, nothing kept in the conversation.
    assert link.call(lambda client, key: client.get_delivery(key, conversation)) is None
    assert link.call(lambda client, key: client.get_conversation(key, conversation)) == []
