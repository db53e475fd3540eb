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

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from bridge.agent import (
    DeltaEvent,
    DoneEvent,
    ErrorEvent,
    TurnEvent,
    TurnReply,
    TurnStream,
    WireToolEvent,
)
from bridge.errors import BackendError
from renderer.qt.tasks import TaskRunner

RENDER_INTERVAL_MS = 50
"""The reply's text is redrawn at most this often while it streams."""

Outcome = TurnReply | BackendError | BaseException | None
"""How a streamed turn ended: its reply, a failure, or None when it was stopped."""


class StreamedTurn(QObject):
    """One turn asked for as a stream; ``finished`` fires once, on the GUI thread."""

    text_changed = Signal(str)
    """The reply's text so far."""
    tool_called = Signal(object)
    """A :class:`bridge.agent.WireToolCall`, as the assistant called it."""
    finished = Signal(object)
    """The :data:`Outcome`."""
    _wake = Signal()

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
        self._inbox: list[TurnEvent] = []
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

    def start(self) -> Future[object] | None:
        """Open the stream on a worker; None when the runner no longer takes work."""
        return self._runner.submit(self._work, on_done=self._on_done, on_error=self._end)

    def stop(self) -> None:
        """Stop the turn (Stop, Esc, closing); ``finished(None)`` follows from the worker."""
        with self._lock:
            if self._stopped or self._ended:
                return
            self._stopped = True
            stream = self._stream
        if stream is not None:
            stream.cancel()

    # -- worker thread ---------------------------------------------------------

    def _work(self) -> Outcome:
        """Worker thread: open the stream, hand its events over, return how it ended."""
        stream = self._open_stream()
        with self._lock:
            self._stream = stream
            stopped = self._stopped
        if stopped:
            stream.cancel()
        for event in stream:
            if isinstance(event, DoneEvent):
                return event.reply
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
            elif isinstance(event, WireToolEvent):
                self.tool_called.emit(event.call)
        if self.text != self._shown and not self._render_timer.isActive():
            self._render()

    def _render(self) -> None:
        if self.text != self._shown:
            self._shown = self.text
            self.text_changed.emit(self.text)
            self._render_timer.start()  # the next redraw waits at least the interval

    def _on_done(self, value: object) -> None:
        self._end(value if isinstance(value, TurnReply | BackendError) else None)

    def _end(self, outcome: Outcome) -> None:
        self._drain()  # events queued before the worker returned
        self._render_timer.stop()
        if self.text != self._shown:
            self._shown = self.text
            self.text_changed.emit(self.text)
        with self._lock:
            self._ended = True
            self._stream = None
        stopped = self._stopped and not isinstance(outcome, TurnReply)
        self.finished.emit(None if stopped else outcome)
