"""The AI Assistant frame: transcript, context chip, input, and the non-blocking send path.

A send runs on the GUI thread only where it must: :func:`begin_capture` resolves
the note (R9), the flush is queued to workers and raced against a single-shot
timer of :data:`FLUSH_LIMIT_SECONDS` (R10, R12), the capture completes by reading
the live editor (R11), and the turn is posted on a worker. The GUI thread never
waits on the network; results come back as signals.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from bridge.client import TurnReply
from bridge.errors import BackendError
from renderer.ambient.capture import FLUSH_LIMIT_SECONDS, CaptureResult, begin_capture
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.store import AmbientStore
from renderer.frames.base import FrameBase
from renderer.frames.chip import ContextChip
from renderer.frames.message_input import MessageInput
from renderer.frames.turn_view import TurnView
from renderer.frames.turns import TurnRecord
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.backend import WorkspaceLink
from renderer.qt.tasks import TaskRunner

ASSISTANT_FRAME_ID = "assistant"
UNEXPECTED_PROBLEM = "The assistant could not answer because of an unexpected problem. Try again."


class _Send:
    """One send in progress: its capture race and its timing."""

    def __init__(self, message: str, started: float) -> None:
        self.message = message
        self.started = started
        self.settled = False
        self.flushed: bool | None = None
        self.preparation_seconds = 0.0
        self.view: TurnView | None = None


class AssistantFrame(FrameBase):
    """The AI Assistant: sends turns with the ambient pointer and shows what was sent."""

    flush_started = Signal()
    turn_finished = Signal(object)
    busy_changed = Signal(bool)

    def __init__(
        self,
        *,
        store: AmbientStore,
        runner: TaskRunner,
        autosave: AutosaveCoordinator,
        link: Callable[[], WorkspaceLink],
        conversation: str,
        clock: Clock | None = None,
        flush_limit_seconds: float = FLUSH_LIMIT_SECONDS,
        title: str = "AI Assistant",
        frame_id: str = ASSISTANT_FRAME_ID,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(frame_id, title, closable=False, parent=parent)
        self._store = store
        self._runner = runner
        self._autosave = autosave
        self._link = link
        self._clock = clock or SystemClock()
        self._flush_limit_ms = round(flush_limit_seconds * 1000)
        self.conversation = conversation
        self.records: list[TurnRecord] = []
        self._queue: deque[tuple[str, bool]] = deque()
        self._current: _Send | None = None
        self._flush_timer: QTimer | None = None
        self._busy = False

        self.transcript = QWidget()
        self.transcript.setObjectName("transcript")
        self._transcript_layout = QVBoxLayout(self.transcript)
        self._transcript_layout.setContentsMargins(8, 8, 8, 8)
        self._transcript_layout.setSpacing(8)
        self.welcome = QLabel(
            "Ask about the note you are looking at: “summarise this”, “what are my open tasks "
            "here?”, このノートを要約して. The chip below shows which note that means.",
            self.transcript,
        )
        self.welcome.setObjectName("welcome")
        self.welcome.setWordWrap(True)
        self._transcript_layout.addWidget(self.welcome)
        self._transcript_layout.addStretch(1)
        self.transcript_scroll = QScrollArea(self.body)
        self.transcript_scroll.setWidgetResizable(True)
        self.transcript_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.transcript_scroll.setWidget(self.transcript)
        self.transcript_scroll.setAccessibleName("Conversation")

        self.busy = QProgressBar(self.body)
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.setFixedHeight(3)
        self.busy.setAccessibleName("The assistant is working")
        self.busy.setVisible(False)

        self.context_chip = ContextChip(self.body)
        self.chip = self.context_chip.label
        self.exclude_toggle = self.context_chip.exclude_toggle

        self.input = MessageInput(self.body)
        self.input.setObjectName("messageInput")
        self.input.setPlaceholderText("Message the assistant (Enter sends, Shift+Enter new line)")
        self.input.setAccessibleName("Message to the assistant")
        self.input.setFixedHeight(72)
        self.input.submitted.connect(self.send_from_input)
        self.send_button = QPushButton("Send", self.body)
        self.send_button.setObjectName("sendButton")
        self.send_button.setAccessibleName("Send message")
        self.send_button.clicked.connect(self.send_from_input)
        send_shortcut = QShortcut(QKeySequence("Ctrl+Return"), self)
        send_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        send_shortcut.activated.connect(self.send_from_input)
        input_row = QHBoxLayout()
        input_row.setContentsMargins(8, 2, 8, 8)
        input_row.addWidget(self.input, 1)
        input_row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)

        self.body_layout.addWidget(self.transcript_scroll, 1)
        self.body_layout.addWidget(self.busy)
        self.body_layout.addWidget(self.context_chip)
        self.body_layout.addLayout(input_row)

        self._unsubscribe = store.subscribe(self.context_chip.show_resolution)
        self.context_chip.show_resolution(store.resolve())

    # -- frame -----------------------------------------------------------------

    def activation_target(self) -> QWidget:
        return self.input.viewport()

    def focus_target(self) -> QWidget:
        return self.input

    def teardown(self) -> None:
        super().teardown()
        self._unsubscribe()
        if self._flush_timer is not None:
            self._flush_timer.stop()
        self._queue.clear()

    @property
    def is_busy(self) -> bool:
        return self._current is not None

    # -- sending -------------------------------------------------------------------

    def send_from_input(self) -> None:
        """What Enter and the Send button do."""
        message = self.input.toPlainText().strip()
        if not message:
            return
        self.input.clear()
        self.send(message)

    def send(self, message: str, *, include_ambient: bool = True) -> None:
        """Send a turn without blocking; ``turn_finished`` carries its :class:`TurnRecord`.

        The "leave out" toggle applies to this send and then resets. A send made
        while another turn runs waits its turn.
        """
        include = not self.context_chip.take_exclusion() and include_ambient
        self._queue.append((message, include))
        if self._current is None:
            self._next()

    def _next(self) -> None:
        if not self._queue:
            self._set_busy(False)
            return
        message, include = self._queue.popleft()
        send = _Send(message, self._clock.monotonic())
        self._current = send
        self._set_busy(True)
        send.view = self._add_turn_view(message)
        pending = begin_capture(self._store, self._clock, include=include)
        if not pending.needs_preparation:
            self._post(send, pending.complete(False))
            return

        def settle(flushed: bool) -> None:
            if send.settled:
                return
            send.settled = True
            timer.stop()
            timer.deleteLater()
            send.flushed = flushed
            send.preparation_seconds = self._clock.monotonic() - send.started
            self._post(send, pending.complete(flushed))

        operation = self._autosave.flush()
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setTimerType(Qt.TimerType.PreciseTimer)  # coarse timers may fire 5% early
        timer.timeout.connect(lambda: settle(False))  # R12: send anyway, flushed false
        operation.finished.connect(settle)
        self._flush_timer = timer
        timer.start(self._flush_limit_ms)
        self.flush_started.emit()

    def _post(self, send: _Send, capture: CaptureResult) -> None:
        link = self._link()
        conversation = self.conversation

        def post() -> TurnReply:
            return link.call(
                lambda client, session: client.post_turn(
                    conversation, send.message, session=session, ambient_header=capture.header
                )
            )

        submitted = self._runner.submit(
            post,
            on_done=lambda reply: self._finish(send, capture, reply, None),
            on_error=lambda error: self._finish(send, capture, None, error),
        )
        if submitted is None:
            self._finish(send, capture, None, RuntimeError("The app is closing."))

    def _finish(
        self,
        send: _Send,
        capture: CaptureResult,
        reply: object,
        error: BaseException | None,
    ) -> None:
        message: str | None = None
        if error is not None:
            # A backend failure says what went wrong in its own words; anything else is a
            # defect whose details mean nothing to the user.
            message = error.message if isinstance(error, BackendError) else UNEXPECTED_PROBLEM
            self._keep_in_input(send.message)
        record = TurnRecord(
            message=send.message,
            capture=capture,
            reply=reply if isinstance(reply, TurnReply) else None,
            error=message,
            flushed=send.flushed,
            conversation=self.conversation,
            preparation_seconds=send.preparation_seconds,
        )
        self.records.append(record)
        if send.view is not None:
            send.view.show_record(record)
            QTimer.singleShot(0, self, self._scroll_to_end)
        self._current = None
        self._flush_timer = None
        self.turn_finished.emit(record)
        self._next()

    def _keep_in_input(self, message: str) -> None:
        """Put a message that did not go through back in the input, after anything typed since."""
        typed = self.input.toPlainText()
        if message in typed:
            return
        if not typed.strip():
            self.input.setPlainText(message)
            return
        cursor = QTextCursor(self.input.document())  # not the user's cursor: typing goes on
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText("\n" + message)

    # -- transcript ----------------------------------------------------------------

    def _add_turn_view(self, message: str) -> TurnView:
        self.welcome.setVisible(False)
        view = TurnView(message, self.transcript)
        self._transcript_layout.insertWidget(self._transcript_layout.count() - 1, view)
        QTimer.singleShot(0, self, self._scroll_to_end)
        return view

    def _scroll_to_end(self) -> None:
        bar = self.transcript_scroll.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _set_busy(self, busy: bool) -> None:
        if self._busy == busy:
            return
        self._busy = busy
        self.busy.setVisible(busy)
        self.busy_changed.emit(busy)
