"""The AI Assistant frame: transcript, context chip, input, and the non-blocking send path.

A send is prepared by the Qt-free core, :func:`renderer.ambient.preparation.prepare_send`:
it resolves the note (R9), bounds the flush and the note's load by 1.5 s (R10,
R12), reads the live editor (R11) and encodes the pointer (R15). This frame only
hands it adapters (Qt timers, and the autosave flush, which saves on workers and
reports back as a signal) and then posts the turn on a worker. The GUI thread
never waits on the network; results come back as signals.
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
from renderer.ambient.capture import FLUSH_LIMIT_SECONDS
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.preparation import FlushDone, PreparedSend, SendPreparation, prepare_send
from renderer.ambient.store import AmbientStore
from renderer.frames.base import FrameBase
from renderer.frames.chip import ContextChip
from renderer.frames.message_input import MessageInput
from renderer.frames.turn_view import TurnView
from renderer.frames.turns import TurnRecord
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.backend import WorkspaceLink
from renderer.qt.tasks import TaskRunner
from renderer.qt.timers import QtTimers

ASSISTANT_FRAME_ID = "assistant"
UNEXPECTED_PROBLEM = "The assistant could not answer because of an unexpected problem. Try again."


class _Send:
    """One send in progress: its message, its turn view and, once known, its preparation."""

    def __init__(self, message: str, view: TurnView) -> None:
        self.message = message
        self.view = view
        self.preparation: SendPreparation | None = None


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
        self._timers = QtTimers(self)
        self._flush_limit = flush_limit_seconds
        self.conversation = conversation
        self.records: list[TurnRecord] = []
        self._queue: deque[tuple[str, bool]] = deque()
        self._current: _Send | None = None
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

        self._unsubscribe = self.context_chip.follow(store)

    # -- frame -----------------------------------------------------------------

    def activation_target(self) -> QWidget:
        return self.input.viewport()

    def focus_target(self) -> QWidget:
        return self.input

    def teardown(self) -> None:
        super().teardown()
        self._unsubscribe()
        if self._current is not None and self._current.preparation is not None:
            self._current.preparation.cancel()
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
        self._set_busy(True)
        send = _Send(message, self._add_turn_view(message))
        self._current = send
        send.preparation = prepare_send(
            self._store,
            clock=self._clock,
            timers=self._timers,
            start_flush=self._start_flush,
            on_prepared=lambda prepared: self._post(send, prepared),
            include=include,
            limit=self._flush_limit,
        )

    def _start_flush(self, done: FlushDone) -> None:
        """The core's flush adapter: autosave saves on workers and reports on the GUI thread."""
        self._autosave.flush().finished.connect(done)
        self.flush_started.emit()

    def _post(self, send: _Send, prepared: PreparedSend) -> None:
        capture = prepared.capture
        link = self._link()
        conversation = self.conversation
        left_out = capture.dropped == "excluded"  # R48: the reply says so, not "no note open"

        def post() -> TurnReply:
            return link.call(
                lambda client, session: client.post_turn(
                    conversation,
                    send.message,
                    session=session,
                    ambient_header=capture.header,
                    note_left_out=left_out,
                )
            )

        submitted = self._runner.submit(
            post,
            on_done=lambda reply: self._finish(send, prepared, reply, None),
            on_error=lambda error: self._finish(send, prepared, None, error),
        )
        if submitted is None:
            self._finish(send, prepared, None, RuntimeError("The app is closing."))

    def _finish(
        self,
        send: _Send,
        prepared: PreparedSend,
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
            capture=prepared.capture,
            reply=reply if isinstance(reply, TurnReply) else None,
            error=message,
            flushed=prepared.flushed,
            conversation=self.conversation,
            preparation_seconds=prepared.seconds,
            flush_timed_out=prepared.timed_out,
        )
        self.records.append(record)
        send.view.show_record(record)
        QTimer.singleShot(0, self, self._scroll_to_end)
        self._current = None
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
