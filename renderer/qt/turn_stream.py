"""A streamed turn read off the GUI thread; its events come back as signals (R35).

A worker thread iterates the bridge's :class:`~bridge.agent.TurnStream` and puts
each event in an inbox. It wakes the GUI thread with at most one queued signal at
a time, however fast the pieces come, and the GUI thread shows the reply's text
at most every :data:`RENDER_INTERVAL_MS` (the first piece at once): a fast model
never floods the event loop, and nothing on the GUI thread waits for the network.

:meth:`StreamedTurn.stop` returns at once: it closes the stream, the worker
leaves, and the backend, seeing its client go, stops calling the model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import ClassVar

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from bridge.agent import DeltaEvent, DoneEvent, ErrorEvent, ToolEvent, TurnStream
from bridge.errors import BackendError
from bridge.wire import TurnAnswer
from renderer.qt.tasks import TaskRunner

RENDER_INTERVAL_MS = 50
"""The reply's text is redrawn at most this often while it streams."""

Outcome = TurnAnswer | BackendError | BaseException | None
"""How a streamed turn ended: its reply, a failure, or None when it was stopped."""


class StreamedRequest(QObject):
    """A request whose answer streams; ``finished`` fires once, on the GUI thread.

    The worker side and the GUI side of every streamed answer the app asks for: a
    turn (:class:`StreamedTurn`) and an inline request
    (:class:`renderer.qt.inline_stream.StreamedInline`) differ only in the event that
    closes their stream and in what else may arrive on it.
    """

    text_changed = Signal(str)
    """The answer's text so far."""
    finished = Signal(object)
    """How it ended: the answer, a :class:`BackendError`, another exception, or None."""
    _wake = Signal()

    answer_type: ClassVar[type]
    """What a stream that ends well returns."""

    def __init__(
        self,
        runner: TaskRunner,
        open_stream: Callable[[], TurnStream],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._open_stream = open_stream
        self._lock = threading.Lock()
        self._inbox: list[object] = []
        self._woken = False
        self._stream: TurnStream | None = None
        self._stopped = False
        self._ended = False
        self.text = ""
        self._shown = ""
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._render)
        self._wake.connect(self._drain, Qt.ConnectionType.QueuedConnection)

    @property
    def stopped(self) -> bool:
        return self._stopped

    @property
    def running(self) -> bool:
        return not self._ended

    def start(self) -> Future[object] | None:
        """Open the stream on a worker; None when the runner no longer takes work."""
        return self._runner.submit(self._work, on_done=self._on_done, on_error=self._end)

    def stop(self) -> None:
        """Stop it (Stop, Esc, closing); ``finished(None)`` follows from the worker."""
        with self._lock:
            if self._stopped or self._ended:
                return
            self._stopped = True
            stream = self._stream
        if stream is not None:
            stream.cancel()

    def _answer_of(self, event: object) -> object | None:
        """The answer the stream's closing event carries; None for every other event."""
        return event.answer if isinstance(event, DoneEvent) else None

    def _other_event(self, event: object) -> None:
        """GUI thread: an event that is neither a piece of text nor the end."""

    # -- worker thread ---------------------------------------------------------

    def _work(self) -> object:
        """Worker thread: open the stream, hand its events over, return how it ended."""
        stream = self._open_stream()
        with self._lock:
            self._stream = stream
            stopped = self._stopped
        if stopped:
            stream.cancel()
        for event in stream:
            answer = self._answer_of(event)
            if answer is not None:
                return answer
            if isinstance(event, ErrorEvent):
                return BackendError(event.message, None, event.code)
            with self._lock:
                self._inbox.append(event)
                wake = not self._woken
                self._woken = True
            if wake:
                self._wake.emit()
        return None  # the stream ended because it was stopped

    # -- GUI thread --------------------------------------------------------------

    @Slot()
    def _drain(self) -> None:
        with self._lock:
            events, self._inbox = self._inbox, []
            self._woken = False
        for event in events:
            if isinstance(event, DeltaEvent):
                self.text += event.text
            else:
                self._other_event(event)
        if self.text != self._shown and not self._render_timer.isActive():
            self._render()

    def _render(self) -> None:
        if self.text != self._shown:
            self._shown = self.text
            self.text_changed.emit(self.text)
            self._render_timer.start()  # the next redraw waits at least the interval

    def _on_done(self, value: object) -> None:
        self._end(value if isinstance(value, (self.answer_type, BackendError)) else None)

    def _end(self, outcome: object) -> None:
        self._drain()  # events queued before the worker returned
        self._render_timer.stop()
        if self.text != self._shown:
            self._shown = self.text
            self.text_changed.emit(self.text)
        with self._lock:
            self._ended = True
            self._stream = None
        stopped = self._stopped and not isinstance(outcome, self.answer_type)
        self.finished.emit(None if stopped else outcome)


class StreamedTurn(StreamedRequest):
    """One turn asked for as a stream; its tool calls are signalled as they come."""

    tool_called = Signal(object)
    """A :class:`bridge.agent.TurnToolCall`, as the assistant called it."""
    answer_type = TurnAnswer

    def _other_event(self, event: object) -> None:
        if isinstance(event, ToolEvent):
            self.tool_called.emit(event.call)
