"""The AI Assistant frame: transcript, context chip, input, and the non-blocking send path.

A send is prepared by the Qt-free core, :func:`renderer.ambient.preparation.prepare_send`:
it resolves the note (R9), bounds the flush and the note's load by 1.5 s (R10,
R12), reads the live editor (R11) and encodes the pointer (R15). This frame only
hands it adapters (Qt timers, and the autosave flush, which saves on workers and
reports back as a signal) and then asks for the turn as a stream, read on a
worker (:class:`renderer.qt.turn_stream.StreamedTurn`): the reply shows as it is
generated, and Stop or Esc ends it (R35). The GUI thread never waits on the
network; results come back as signals.

The frame also says which assistant answers (R30, from ``GET /v1/assistant`` and
each turn's ``assistant``) and shows the workspace's kept conversation (R34).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QPushButton, QWidget

from bridge.contract import FLUSH_LIMIT_SECONDS
from bridge.errors import BackendError
from bridge.frames import ASSISTANT_FRAME_ID
from bridge.wire import AssistantDescription, TurnAnswer
from renderer.ambient import assistant_calls as calls
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.elsewhere import NOWHERE_ELSE, Elsewhere, ElsewhereSource
from renderer.ambient.kept_records import KeptConversation, KeptRecords, load_kept_conversation
from renderer.ambient.preparation import FlushDone, PreparedSend, SendPreparation, prepare_send
from renderer.ambient.store import AmbientStore
from renderer.ambient.turn_text import assistant_name
from renderer.ambient.turns import TurnRecord
from renderer.frames.assistant.chip import ContextChip
from renderer.frames.assistant.conversation_find import ConversationTarget
from renderer.frames.assistant.message_input import INPUT_KEYS, MessageInput
from renderer.frames.assistant.outcome_reports import OutcomeReports
from renderer.frames.assistant.proposal_view import ProposalView
from renderer.frames.assistant.transcript import Transcript
from renderer.frames.assistant.turn_view import TurnView
from renderer.frames.base import FrameBase, busy_bar, tool_button
from renderer.frames.find_bar import FindBar
from renderer.qt.announce import ANSWERING, Announcer, first_sentence
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.tasks import TaskRunner
from renderer.qt.timers import QtTimers
from renderer.qt.turn_stream import Outcome, StreamedTurn

__all__ = ["UNEXPECTED_PROBLEM", "AssistantFrame"]

CLOSING = "The app is closing."
UNEXPECTED_PROBLEM = "The assistant could not answer because of an unexpected problem. Try again."
NOT_LOADED = "The earlier conversation could not be loaded: {reason}"
NOT_CLEARED = "The conversation could not be cleared: {reason}"


ASSISTANT_NAME_WIDTH = 150
"""Pixels for the assistant's name in the title bar; a longer model id is clipped."""


class _Send:
    """One send in progress: its message, its turn view, its preparation, then its stream."""

    def __init__(self, message: str, view: TurnView, conversation: str, workspace: str) -> None:
        self.message = message
        self.view = view
        self.conversation = conversation
        self.workspace = workspace
        """Where the turn was sent: its proposals never apply in another workspace (R52)."""
        self.preparation: SendPreparation | None = None
        self.turn: StreamedTurn | None = None
        self.stop_requested = False
        self.fell_back_from: str | None = None


STARTING_NAME: Final = "Starting…"
"""The assistant's name while the embedded backend starts (issue 33)."""


class AssistantFrame(FrameBase):
    """The AI Assistant: sends turns with the ambient pointer and shows what was sent."""

    flush_started = Signal()
    turn_finished = Signal(object)
    busy_changed = Signal(bool)
    conversation_loaded = Signal(str)
    """The conversation id, once its kept messages are shown."""
    conversation_cleared = Signal(str)
    proposals_shown = Signal(list)
    """The :class:`ProposalView` list of a finished turn (R51); the window reviews them."""

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
        kept: KeptRecords | None = None,
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
        self.latest_proposals: list[ProposalView] = []
        """The proposals of the latest finished send, in order (contract 10's ``proposal: N``)."""
        self.assistant_info: AssistantDescription | None = None
        self._queue: deque[tuple[str, bool]] = deque()
        self._current: _Send | None = None
        self._busy = False
        self._loads = 0
        self._reports = OutcomeReports(runner)
        self._kept = kept
        """Where the records of this frame's turns are kept across restarts (R45), if anywhere."""
        self.elsewhere: ElsewhereSource = lambda: NOWHERE_ELSE
        """Notes of this workspace open in other windows (R29); the window sets it."""
        self._build_title_controls()
        self.transcript_view = Transcript(self.body, runner)
        self.transcript = self.transcript_view.content
        self.welcome = self.transcript_view.welcome
        self.busy = busy_bar("The assistant is working", self.body)
        self.context_chip = ContextChip(self.body)
        self.chip = self.context_chip.label
        self.exclude_toggle = self.context_chip.exclude_toggle
        input_row = self._build_input_row()
        found_in = ConversationTarget(self.transcript_view, self.transcript)
        self.find_bar = FindBar(lambda: found_in, self.body)  # R84: find in the conversation
        self.body_layout.addWidget(self.find_bar)
        self.body_layout.addWidget(self.transcript_view, 1)
        self.body_layout.addWidget(self.busy)
        self.body_layout.addWidget(self.context_chip)
        self.body_layout.addLayout(input_row)

        # R85: a screen reader says which note a send would point at, on the input itself.
        self.context_chip.text_changed.connect(self.input.setAccessibleDescription)
        self._unsubscribe = self.context_chip.follow(store)
        self.input.setAccessibleDescription(self.chip.text())
        self.refresh_assistant()
        self.announcer = Announcer(self, source=self.transcript_view)

    def _build_title_controls(self) -> None:
        """The assistant's name and the Clear button, in the title bar."""
        self.assistant_label = QLabel("", self.title_bar)
        self.assistant_label.setObjectName("assistantName")
        self.assistant_label.setToolTip("The assistant that answers (Assistant ▸ Settings…)")
        # R46: a fixed width, so the name arriving (or a long model id) never widens the column.
        self.assistant_label.setFixedWidth(ASSISTANT_NAME_WIDTH)
        self.clear_button = tool_button(
            "Clear", "Clear the conversation", "Forget this workspace's conversation", self
        )
        self.clear_button.setObjectName("clearButton")
        self.clear_button.clicked.connect(self.ask_to_clear)
        self.clear_question: QMessageBox | None = None
        """Clear's question while it is open (it asks before anything is forgotten)."""
        self.title_bar.add_control(self.assistant_label)
        self.title_bar.add_control(self.clear_button)

    def _build_input_row(self) -> QHBoxLayout:
        """The message input with Stop and Send beside it; Ctrl+Return sends, Esc stops."""
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
        self.stop_button = QPushButton("Stop", self.body)
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setAccessibleName("Stop the reply")
        self.stop_button.setToolTip(f"Stop the reply ({INPUT_KEYS.stop})")
        self.stop_button.setVisible(False)
        self.stop_button.clicked.connect(self.stop)
        for keys, slot in (
            (INPUT_KEYS.send_also, self.send_from_input),
            (INPUT_KEYS.stop, self.stop),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        input_row = QHBoxLayout()
        input_row.setContentsMargins(8, 2, 8, 8)
        input_row.addWidget(self.input, 1)
        input_row.addWidget(self.stop_button, 0, Qt.AlignmentFlag.AlignBottom)
        input_row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        return input_row

    # -- frame -----------------------------------------------------------------

    def open_find(self, *, replace: bool = False) -> None:
        """Ctrl+F here finds in the conversation (read only: Replace is not offered)."""
        self.find_bar.open(replace=replace)

    def activation_target(self) -> QWidget:
        return self.input.viewport()

    def focus_target(self) -> QWidget:
        return self.input

    def teardown(self) -> None:
        super().teardown()
        self._unsubscribe()
        self._queue.clear()
        current = self._current
        if current is not None:
            if current.preparation is not None:
                current.preparation.cancel()
            if current.turn is not None:
                current.turn.stop()  # the worker leaves at once: closing never waits on a reply

    @property
    def is_busy(self) -> bool:
        return self._current is not None

    # -- which assistant answers (R30) ---------------------------------------------

    def refresh_assistant(self) -> None:
        """Ask the backend which assistant answers (off the GUI thread), then show it."""
        # On failure the label keeps what it knew (turns still say it): the default path logs.
        if not self._link().backend.answering:
            self._show_assistant_name(STARTING_NAME)  # issue 33: until the backend answers
        self._runner.submit(
            partial(calls.fetch_assistant, self._link().backend), self.show_assistant
        )

    def show_assistant(self, info: AssistantDescription) -> None:
        self.assistant_info = info
        self._show_assistant_name(assistant_name(info.kind, info.model))

    def _show_assistant_name(self, name: str) -> None:
        self.assistant_label.setText(name)
        self.assistant_label.setToolTip(
            f"{name}: the assistant that answers (Assistant ▸ Settings…)"
        )
        self.assistant_label.setAccessibleName(f"Answered by: {name}")

    def _running_view(self) -> TurnView | None:
        return None if self._current is None else self._current.view

    # -- the kept conversation (R34) ------------------------------------------------

    def load_conversation(self, conversation: str) -> None:
        """Show ``conversation`` of the open workspace: its kept turns, loaded off the GUI thread.

        The turns shown now make way for it; a turn running, or sent meanwhile, stays below.
        """
        self.conversation = conversation
        self._loads += 1
        generation = self._loads
        link = self._link()
        running = self._running_view()
        replaced = [view for view in self.transcript_view.turns() if view is not running]
        kept = self._kept

        def shown(loaded: KeptConversation) -> None:
            if generation == self._loads:
                messages, records = loaded
                problem = None if kept is None else kept.take_problem()
                self.transcript_view.show_status(problem or "")  # R64: said, never a crash
                self.transcript_view.show_kept(messages, replaced, records)
                self.conversation_loaded.emit(conversation)

        def failed(error: BaseException) -> None:
            if generation == self._loads:
                self.transcript_view.remove(replaced)
                self.transcript_view.show_status(NOT_LOADED.format(reason=plain_failure(error)))

        self._runner.submit(
            partial(load_kept_conversation, link, kept, conversation),
            on_done=shown,
            on_error=failed,
        )

    def ask_to_clear(self) -> QMessageBox | None:
        """Clear (the button and the menu): ask first, in the frame's window, unless it is empty.

        Clearing forgets the conversation on the backend and its kept records for good,
        so the person confirms it; Cancel, Esc and closing the question keep everything.
        """
        turns = len(self.transcript_view.turns())
        if not turns and not self._queue and self._current is None:
            self.clear_conversation()  # nothing shown: nothing a question would protect
            return None
        if self.clear_question is not None:
            self.clear_question.raise_()
            return self.clear_question
        question = QMessageBox(
            QMessageBox.Icon.Question,
            "Clear the conversation?",
            f"Clear this conversation ({turns} message{'s' if turns != 1 else ''})?",
            QMessageBox.StandardButton.Cancel,
            self,
        )
        question.setInformativeText(
            "The assistant forgets it, and it is not shown again after a restart. "
            "Your notes are not changed. This cannot be undone."
        )
        clear = question.addButton("Clear", QMessageBox.ButtonRole.DestructiveRole)
        question.setDefaultButton(QMessageBox.StandardButton.Cancel)
        question.setEscapeButton(QMessageBox.StandardButton.Cancel)
        question.setWindowModality(Qt.WindowModality.WindowModal)
        question.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: object) -> None:
            self.clear_question = None
            if button is clear:
                self.clear_conversation()

        question.buttonClicked.connect(answered)
        question.rejected.connect(lambda: setattr(self, "clear_question", None))
        self.clear_question = question
        question.open()
        return question

    def clear_conversation(self) -> None:
        """Clear, once confirmed: stop the reply, forget the conversation, empty the transcript."""
        for message, _include in self._queue:  # not sent yet: back in the input, in order
            self.input.keep(message)
        self._queue.clear()
        self.stop()
        self._loads += 1  # a load still on its way must not bring the turns back
        link = self._link()
        conversation = self.conversation
        self.clear_button.setEnabled(False)

        def cleared(_value: object) -> None:
            if self._kept is not None:
                self._kept.forget_later(link.workspace, conversation, self._runner.submit)
            self.clear_button.setEnabled(True)
            self.transcript_view.show_status("")
            self.transcript_view.clear(self._running_view())
            self.conversation_cleared.emit(conversation)

        def failed(error: BaseException) -> None:
            self.clear_button.setEnabled(True)
            self.transcript_view.show_status(NOT_CLEARED.format(reason=plain_failure(error)))

        submitted = self._runner.submit(
            partial(calls.clear_conversation, link, conversation),
            on_done=cleared,
            on_error=failed,
        )
        if submitted is None:
            self.clear_button.setEnabled(True)

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

    def stop(self) -> None:
        """Stop and Esc: end the running turn; what streamed so far stays (R35)."""
        current = self._current
        if current is None or current.stop_requested:
            return
        current.stop_requested = True
        self.stop_button.setEnabled(False)
        if current.turn is not None:
            current.turn.stop()
        # Still preparing: the turn ends, unsent, once the bounded preparation settles.

    def _next(self) -> None:
        if not self._queue:
            self._set_busy(False)
            return
        message, include = self._queue.popleft()
        self._set_busy(True)
        self.announcer.announce(ANSWERING)  # R85: once when it starts, never per token
        send = _Send(
            message,
            self.transcript_view.add_turn(message),
            self.conversation,
            self._link().workspace,
        )
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
        """GUI thread: start the prepared send's stream; it opens and is read on a worker."""
        if send.stop_requested:
            self._finish(send, prepared, None)
            return
        capture = prepared.capture
        send.view.note_left_out = capture.dropped == "excluded"  # its tool line says so (R81)
        send.fell_back_from = self.elsewhere().fell_back_from
        open_stream = partial(
            calls.open_turn_stream,
            self._link(),
            send.conversation,
            send.message,
            capture.header,
            note_left_out=capture.dropped == "excluded",  # R48: the reply says so
            note_private=capture.dropped == "private",  # R86: the reply says it is private
        )
        turn = StreamedTurn(self._runner, open_stream, self)
        send.turn = turn
        turn.text_changed.connect(send.view.show_streamed)
        turn.tool_called.connect(send.view.show_tool)
        turn.finished.connect(lambda outcome: self._finish(send, prepared, outcome))
        if turn.start() is None:
            self._finish(send, prepared, BackendError(CLOSING))

    def _finish(self, send: _Send, prepared: PreparedSend, outcome: Outcome) -> None:
        message: str | None = None
        if isinstance(outcome, BaseException):
            # A backend failure (model_unavailable included, R36) says what went wrong in its
            # own words; anything else is a defect whose details mean nothing to the user.
            message = plain_failure(outcome)
            self.input.keep(send.message)
        reply = outcome if isinstance(outcome, TurnAnswer) else None
        turn = send.turn
        record = TurnRecord(
            message=send.message,
            capture=prepared.capture,
            reply=reply,
            error=message,
            flushed=prepared.flushed,
            conversation=send.conversation,
            preparation_seconds=prepared.seconds,
            stopped=outcome is None,
            streamed="" if turn is None else turn.text,
            flush_timed_out=prepared.timed_out,
            elsewhere=Elsewhere(self.elsewhere().open_elsewhere, send.fell_back_from),
        )
        if turn is not None:
            turn.deleteLater()
        self.records.append(record)
        if self._kept is not None:  # R45: shown as it was after a restart
            self._kept.remember(self._link().workspace, record, self._runner.submit)
        send.view.show_record(record)
        self.announcer.announce(_spoken_end(reply, message, stopped=outcome is None))
        if reply is not None:
            self._show_assistant_name(assistant_name(reply.assistant.kind, reply.assistant.model))
            pointer = prepared.capture.pointer
            self._show_proposals(send, reply, None if pointer is None else pointer.path)
        self.transcript_view.scroll_to_end()
        self._current = None
        self.turn_finished.emit(record)
        self._next()

    def _show_proposals(self, send: _Send, reply: TurnAnswer, asked_about: str | None) -> None:
        """Each proposal under the reply; ``asked_about`` is the note the message was sent from."""
        views = [
            ProposalView(
                proposal, send.workspace, conversation=send.conversation, asked_about=asked_about
            )
            for proposal in reply.proposals
        ]
        for view in views:
            view.settled.connect(self._report_outcome)
            send.view.add_proposal(view)
        self.latest_proposals = views
        if views:  # R85: the buttons under the reply are said once, with what they change
            self.announcer.announce(proposals_spoken(views))
        if views:
            self.proposals_shown.emit(views)

    def _report_outcome(self, view: ProposalView) -> None:
        """Tell the proposal's conversation what became of it, off the GUI thread (R50).

        Only in the workspace it was made in: another workspace's key cannot reach it.
        """
        link = self._link()
        if view.workspace != link.workspace or not view.conversation:
            return
        self._reports.report(link, view.conversation, view.proposal.id, view.state)

    def _set_busy(self, busy: bool) -> None:
        self.stop_button.setVisible(busy)
        self.stop_button.setEnabled(True)
        if self._busy == busy:
            return
        self._busy = busy
        self.busy.setVisible(busy)
        self.busy_changed.emit(busy)


STOPPED_SPOKEN: Final = "The reply was stopped."
NO_REPLY_SPOKEN: Final = "The assistant did not answer."


def _spoken_end(reply: TurnAnswer | None, failure: str | None, *, stopped: bool) -> str:
    """What a screen reader says when an answer ends: its first sentence, or why there is none."""
    if reply is not None:
        return first_sentence(reply.reply) or NO_REPLY_SPOKEN
    if failure:
        return failure
    return STOPPED_SPOKEN if stopped else NO_REPLY_SPOKEN


def proposals_spoken(views: list[ProposalView]) -> str:
    """What a screen reader says of a reply's proposals: how many, what, and the buttons."""
    # The app's words for the change, never the model's, and whether it is another note (R93).
    what = " ".join(filter(None, (views[0].title.text(), views[0].other_note.text())))
    count = "One change is proposed" if len(views) == 1 else f"{len(views)} changes are proposed"
    return f"{count}: {what}. Apply or Discard, under the reply."


def plain_failure(error: BaseException) -> str:
    """What the user reads about a failure: the backend's own words, never a traceback."""
    return error.message if isinstance(error, BackendError) else UNEXPECTED_PROBLEM
