"""A streamed turn over a scripted stream of the bridge's events, without a window (R35, R36).

The stream stands in for :class:`bridge.agent.TurnStream` after it parsed the
server's events: it yields the same typed events in the same order, ends with
``done`` or ``error`` as the backend does, and stops when cancelled.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import pytest
from pytestqt.qtbot import QtBot

from bridge.agent import DeltaEvent, DoneEvent, ErrorEvent, ToolEvent, TurnEvent
from bridge.errors import BackendError
from bridge.wire import TurnAnswer
from renderer.qt.tasks import TaskRunner
from renderer.qt.turn_stream import StreamedTurn
from tests.support.answers import tool_call, turn_answer

WAIT_MS = 5_000
CALL = tool_call("read_active_note", {}, {"status": "ok", "path": "notes/a.md"})


def _reply(text: str) -> TurnAnswer:
    return turn_answer(text, [CALL], "stored")


class ScriptedStream:
    """The events of one turn; with ``hold``, it waits after the first until cancelled."""

    def __init__(self, events: Sequence[TurnEvent], *, hold: bool = False) -> None:
        self._events = events
        self._hold = hold
        self._cancelled = threading.Event()
        self.cancel_calls = 0

    def __iter__(self) -> Iterator[TurnEvent]:
        for index, event in enumerate(self._events):
            if self._cancelled.is_set():
                return
            yield event
            if self._hold and index == 0:
                self._cancelled.wait(WAIT_MS / 1000)

    def cancel(self) -> None:
        self.cancel_calls += 1
        self._cancelled.set()


@pytest.fixture
def runner() -> Iterator[TaskRunner]:
    tasks = TaskRunner(max_workers=1)
    yield tasks
    tasks.shutdown()


def _turn(runner: TaskRunner, stream: ScriptedStream) -> StreamedTurn:
    # The scripted stream is iterated and cancelled as a TurnStream is.
    return StreamedTurn(runner, lambda: stream)


def test_the_pieces_a_tool_and_the_answer_arrive_on_the_gui_thread_in_order_R35(
    runner: TaskRunner, qtbot: QtBot
) -> None:
    text = "The note lists two tasks."
    stream = ScriptedStream(
        [
            DeltaEvent("The note "),
            ToolEvent(CALL),
            DeltaEvent("lists two tasks."),
            DoneEvent(_reply(text)),
        ]
    )
    turn = _turn(runner, stream)
    shown: list[str] = []
    tools: list[object] = []
    turn.text_changed.connect(shown.append)
    turn.tool_called.connect(tools.append)
    with qtbot.waitSignal(turn.finished, timeout=WAIT_MS) as blocker:
        assert turn.start() is not None
    outcome = blocker.args[0]
    assert isinstance(outcome, TurnAnswer) and outcome.reply == text
    assert shown[-1] == text == turn.text
    assert tools == [CALL]
    assert stream.cancel_calls == 0


def test_an_error_event_ends_the_turn_with_the_backends_own_words_R36(
    runner: TaskRunner, qtbot: QtBot
) -> None:
    message = "The model at http://127.0.0.1:9/v1 could not be reached."
    turn = _turn(
        runner, ScriptedStream([DeltaEvent("Let me "), ErrorEvent("model_unavailable", message)])
    )
    with qtbot.waitSignal(turn.finished, timeout=WAIT_MS) as blocker:
        turn.start()
    outcome = blocker.args[0]
    assert isinstance(outcome, BackendError)
    assert outcome.message == message and outcome.code == "model_unavailable"


def test_stop_cancels_the_stream_and_the_turn_ends_with_nothing_R35(
    runner: TaskRunner, qtbot: QtBot
) -> None:
    stream = ScriptedStream(
        [DeltaEvent("Part"), DeltaEvent(" never shown"), DoneEvent(_reply("x"))], hold=True
    )
    turn = _turn(runner, stream)
    with qtbot.waitSignal(turn.text_changed, timeout=WAIT_MS):
        turn.start()
    with qtbot.waitSignal(turn.finished, timeout=WAIT_MS) as blocker:
        turn.stop()
    assert blocker.args[0] is None
    assert stream.cancel_calls == 1
    assert turn.text == "Part"
