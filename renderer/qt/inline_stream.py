"""An inline request streamed off the GUI thread; its text comes back as signals (R71, R72).

As :class:`renderer.qt.turn_stream.StreamedTurn` does for turns: a worker thread reads
the bridge's :class:`~bridge.inline.InlineStream`, wakes the GUI thread with at most
one queued signal at a time, and the replacement so far is shown at most every
:data:`~renderer.qt.turn_stream.RENDER_INTERVAL_MS`. Nothing on the GUI thread waits
for the network, so typing goes on while a request runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from bridge.agent import DeltaEvent, ErrorEvent
from bridge.errors import BackendError
from bridge.inline import InlineAnswer, InlineDoneEvent, InlineStream
from renderer.qt.tasks import TaskRunner
from renderer.qt.turn_stream import RENDER_INTERVAL_MS

InlineOutcome = InlineAnswer | BackendError | BaseException | None
"""How a request ended: its answer, a failure, or None when it was stopped."""


class StreamedInline(QObject):
    """One inline request; ``finished`` fires once, on the GUI thread."""

    text_changed = Signal(str)
    """The replacement so far."""
    finished = Signal(object)
    """The :data:`InlineOutcome`."""
    _wake = Signal()

    def __init__(
        self,
        runner: TaskRunner,
        open_stream: Callable[[], InlineStream],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._open_stream = open_stream
        self._lock = threading.Lock()
        self._pieces: list[str] = []
        self._woken = False
        self._stream: InlineStream | None = None
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
    def running(self) -> bool:
        return not self._ended

    def start(self) -> Future[object] | None:
        return self._runner.submit(self._work, on_done=self._on_done, on_error=self._end)

    def stop(self) -> None:
        """Stop the request (Esc, closing); ``finished(None)`` follows from the worker."""
        with self._lock:
            if self._stopped or self._ended:
                return
            self._stopped = True
            stream = self._stream
        if stream is not None:
            stream.cancel()

    def _work(self) -> InlineOutcome:
        """Worker thread: open the stream, hand its pieces over, return how it ended."""
        stream = self._open_stream()
        with self._lock:
            self._stream = stream
            stopped = self._stopped
        if stopped:
            stream.cancel()
        for event in stream.events():
            if isinstance(event, InlineDoneEvent):
                return event.answer
            if isinstance(event, ErrorEvent):
                return BackendError(event.message, None, event.code)
            if isinstance(event, DeltaEvent):
                with self._lock:
                    self._pieces.append(event.text)
                    wake = not self._woken
                    self._woken = True
                if wake:
                    self._wake.emit()
        return None

    @Slot()
    def _drain(self) -> None:
        with self._lock:
            pieces, self._pieces = self._pieces, []
            self._woken = False
        self.text += "".join(pieces)
        if self.text != self._shown and not self._render_timer.isActive():
            self._render()

    def _render(self) -> None:
        if self.text != self._shown:
            self._shown = self.text
            self.text_changed.emit(self.text)
            self._render_timer.start()

    def _on_done(self, value: object) -> None:
        self._end(value if isinstance(value, InlineAnswer | BackendError) else None)

    def _end(self, outcome: InlineOutcome) -> None:
        self._drain()
        self._render_timer.stop()
        with self._lock:
            self._ended = True
            self._stream = None
        stopped = self._stopped and not isinstance(outcome, InlineAnswer)
        self.finished.emit(None if stopped else outcome)
