"""The AI Assistant frame: transcript, context chip, input, and the non-blocking send path.

A send runs on the GUI thread only where it must: :func:`begin_capture` resolves
the note (R9), the flush is queued to workers and raced against a single-shot
timer of :data:`FLUSH_LIMIT_SECONDS` (R10, R12), the capture completes by reading
the live editor (R11), and the turn is posted on a worker. The GUI thread never
waits on the network; results come back as signals.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from bridge.client import TurnReply
from bridge.errors import BackendError
from bridge.pointer import decode_header
from renderer.ambient.capture import (
    FLUSH_LIMIT_SECONDS,
    CaptureResult,
    DropReason,
    begin_capture,
    describe_drop,
)
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.store import AmbientStore, Resolution
from renderer.frames.base import FrameBase
from renderer.frames.turns import TurnRecord
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.backend import WorkspaceLink
from renderer.qt.tasks import TaskRunner

ASSISTANT_FRAME_ID = "assistant"
UNEXPECTED_PROBLEM = "The assistant could not answer because of an unexpected problem. Try again."
_TOOL_TEXT_PREVIEW = 240
_CAVEAT_SHOWN_ABOVE = "(the warning above)"
# Drops the user did not ask for, shown on the turn itself rather than only in its details.
_SURPRISING_DROPS: tuple[DropReason, ...] = ("discarded", "oversize", "invalid")


def chip_text(resolution: Resolution | None) -> str:
    """What the context chip says "this note" is."""
    if resolution is None:
        return "No note open"
    return f"This note: {resolution.path} · {resolution.view} · {resolution.frame_id}"


class MessageInput(QPlainTextEdit):
    """The message box: Enter sends, Shift+Enter starts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class TurnView(QFrame):
    """One turn in the transcript: the message, the reply, and expandable details."""

    def __init__(self, message: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turn")
        self.message = QLabel(escape(message).replace("\n", "<br>"), self)
        self.message.setObjectName("turnMessage")
        self.message.setTextFormat(Qt.TextFormat.RichText)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reply = QLabel("…", self)
        self.reply.setObjectName("turnReply")
        self.reply.setTextFormat(Qt.TextFormat.RichText)
        self.reply.setWordWrap(True)
        self.reply.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice = QLabel("", self)
        self.notice.setObjectName("turnNotice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        self.caveat = QLabel("", self)
        self.caveat.setObjectName("turnCaveat")
        self.caveat.setTextFormat(Qt.TextFormat.RichText)
        self.caveat.setWordWrap(True)
        self.caveat.setVisible(False)
        self.details_button = QToolButton(self)
        self.details_button.setObjectName("detailsButton")
        self.details_button.setText("Details ▸")
        self.details_button.setCheckable(True)
        self.details_button.setAutoRaise(True)
        self.details_button.setAccessibleName("Show what was sent with this message")
        self.details_button.setVisible(False)
        self.details = QLabel("", self)
        self.details.setObjectName("turnDetails")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setVisible(False)
        self.details_button.toggled.connect(self._on_details_toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addWidget(self.message)
        layout.addWidget(self.reply)
        layout.addWidget(self.notice)
        layout.addWidget(self.caveat)
        layout.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.details)

    def _on_details_toggled(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.details_button.setText("Details ▾" if shown else "Details ▸")

    def show_record(self, record: TurnRecord) -> None:
        caveats = record.caveats
        if record.error is not None:
            self.reply.setText(escape(record.error))
            self.reply.setProperty("error", True)
        elif record.reply is not None:
            text = reply_without_caveats(record.reply.reply, caveats)
            self.reply.setText(escape(text).replace("\n", "<br>"))
        self.reply.style().unpolish(self.reply)
        self.reply.style().polish(self.reply)
        if record.dropped in _SURPRISING_DROPS:
            self.notice.setText(describe_drop(record.dropped))  # R13: say the context was dropped
            self.notice.setVisible(True)
        self.caveat.setText("⚠ " + escape(caveats[-1]) if caveats else "")
        self.caveat.setVisible(bool(caveats))
        self.details.setText(describe_turn(record))
        self.details_button.setVisible(True)


def reply_without_caveats(reply: str, caveats: list[str]) -> str:
    """The reply minus the paragraphs that only repeat a tool's caveat (R25).

    The backend repeats the caveat verbatim in its reply; the turn shows it once,
    as its highlighted warning, taken from the tool result so it is never lost.
    A caveat inside other text (a tool result quoted as JSON) stays where it is.
    """
    if not caveats:
        return reply
    paragraphs = reply.split("\n\n")
    kept = [part for part in paragraphs if part.strip() not in caveats]
    return "\n\n".join(kept).strip("\n") if len(kept) != len(paragraphs) else reply


def describe_turn(record: TurnRecord) -> str:
    """The details block of a turn: pointer sent (or why none), size, flush, tools, caveat."""
    rows: list[tuple[str, str]] = []
    capture = record.capture
    if capture.header is not None:
        decoded = decode_header(capture.header)
        rows.append(("Note context", _code(decoded.model_dump_json(indent=1, exclude_none=True))))
    else:
        dropped = capture.dropped or "no-inbox"
        rows.append(("Note context", escape(f"none ({dropped}): {describe_drop(dropped)}")))
        if capture.oversize_pointer is not None:
            unsent = capture.oversize_pointer.model_dump_json(indent=1, exclude_none=True)
            rows.append(("Not sent", _code(unsent)))
    rows.append(("Header size", f"{record.header_bytes:,} bytes"))
    flushed = "—" if record.flushed is None else ("yes" if record.flushed else "no (timed out)")
    rows.append(("Saves flushed", f"{flushed} in {record.preparation_seconds:.2f} s"))
    if record.reply is not None:
        reason = record.reply.ambient_reason
        status = record.reply.ambient_status + (f" — {reason}" if reason else "")
        rows.append(("Backend kept", escape(status)))
        for call in record.reply.tool_calls:
            called = f"<b>{escape(call.name)}</b>"
            if call.arguments:
                called += _code(json.dumps(call.arguments, ensure_ascii=False))
            else:
                called += " with no arguments"
            rows.append(("Tool used", called + _code(_brief(call.result))))
    cells = "".join(
        f"<tr><td style='color:#667;padding-right:8px;vertical-align:top'>{name}</td>"
        f"<td>{value}</td></tr>"
        for name, value in rows
    )
    return f"<table cellspacing='2'>{cells}</table>"


def _brief(result: object) -> str:
    if isinstance(result, dict):
        shown = dict(result)
        if shown.get("caveat"):
            shown["caveat"] = _CAVEAT_SHOWN_ABOVE  # the sentence itself is the turn's warning
        text = shown.get("text")
        if isinstance(text, str) and len(text) > _TOOL_TEXT_PREVIEW:
            shown["text"] = text[:_TOOL_TEXT_PREVIEW] + f"… ({len(text):,} characters)"
        return json.dumps(shown, ensure_ascii=False, indent=1)
    return json.dumps(result, ensure_ascii=False)


def _code(text: str) -> str:
    return f"<pre style='margin:0;white-space:pre-wrap;font-family:monospace'>{escape(text)}</pre>"


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
        self._resolution: Resolution | None = None

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

        self.chip = QLabel(chip_text(None), self.body)
        self.chip.setObjectName("contextChip")
        self.chip.setAccessibleName("Note the assistant will see")
        self.chip.setToolTip(
            "The note “this note” means in your next message: its path, view and frame."
        )
        self.exclude_toggle = QToolButton(self.body)
        self.exclude_toggle.setObjectName("excludeToggle")
        self.exclude_toggle.setText("Leave out")
        self.exclude_toggle.setCheckable(True)
        self.exclude_toggle.setToolTip("Send the next message without any note context")
        self.exclude_toggle.setAccessibleName("Leave the note out of the next message")
        self.exclude_toggle.toggled.connect(lambda _on: self._update_chip())
        chip_row = QHBoxLayout()
        chip_row.setContentsMargins(8, 6, 8, 2)
        chip_row.addWidget(self.chip, 1)
        chip_row.addWidget(self.exclude_toggle)

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
        self.body_layout.addLayout(chip_row)
        self.body_layout.addLayout(input_row)

        self._unsubscribe = store.subscribe(self._on_resolution)
        self._on_resolution(store.resolve())

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

    # -- the chip ----------------------------------------------------------------

    def _on_resolution(self, resolution: Resolution | None) -> None:
        self._resolution = resolution
        self._update_chip()

    def _update_chip(self) -> None:
        text = chip_text(self._resolution)
        excluded = self.exclude_toggle.isChecked()
        self.chip.setProperty("excluded", excluded)
        self.chip.setProperty("empty", self._resolution is None)
        self.chip.setText(text + (" — left out of the next message" if excluded else ""))
        self.chip.setAccessibleDescription(self.chip.text())
        self.chip.style().unpolish(self.chip)
        self.chip.style().polish(self.chip)

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
        include = include_ambient and not self.exclude_toggle.isChecked()
        if self.exclude_toggle.isChecked():
            self.exclude_toggle.setChecked(False)
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
