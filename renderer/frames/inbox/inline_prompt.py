"""The Inline AI command in an Inbox frame's edit view: prompt, review, Accept (R68–R73).

Ctrl+I (or the editor's context menu, or Edit ▸ Ask AI about the selection…) opens a
one-line prompt over the editor, anchored under the selection or the cursor. Enter
sends the instruction with the bounded slice :func:`renderer.ambient.inline.build_context`
reads from the live editor; the answer streams into a review (removed text struck,
added text marked) with Accept (Enter or Ctrl+Enter), Reject (Esc) and Try again.

Edit safety (R72): the selection is tracked by two cursors on the document, which
move with edits made elsewhere; typing at either edge stays outside it (the start
moves on an insertion there, the end keeps its place). Accept replaces the tracked
range in one undo step only when its text is still what was sent; otherwise it says
so and changes nothing. The request runs off the GUI thread, so typing goes on.
"""

from __future__ import annotations

import logging
from typing import Final, Literal, Protocol

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from bridge.contract import MAX_INSTRUCTION_CHARS
from bridge.errors import BackendError
from bridge.inline import HISTORY_LIMIT, OUTCOME_ACCEPTED, OUTCOME_REJECTED, InlineRequest
from bridge.views import EDIT
from bridge.wire import InlineAnswer, InlineRecord
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.inline import SelectionTooLarge, build_context
from renderer.frames.inbox.inline_review import review_html
from renderer.frames.inbox.runtime import NoteFrame
from renderer.qt.announce import Announcer
from renderer.qt.inline_selection import TrackedSelection
from renderer.qt.inline_slices import DocumentSlices
from renderer.qt.inline_stream import StreamedInline
from renderer.qt.scheme import Scheme, scheme_of
from renderer.qt.tasks import TaskRunner

logger = logging.getLogger(__name__)

ACTION_TEXT: Final = "Ask AI about the selection…"
SHORTCUT: Final = "Ctrl+I"
PLACEHOLDER: Final = "Ask AI about the selection… (Enter sends, Esc closes)"
ASKING: Final = "Asking…"
ACCEPT_REFUSED: Final = (
    "The selected text changed after it was sent, so nothing was replaced and nothing you "
    "typed is lost. Try again to ask about the text as it is now."
)
FAILED: Final = "The inline request could not be answered: {reason}"
PRIVATE_REFUSED: Final = (
    "This note is private: you keep it from the assistant, so the inline command sends "
    "nothing about it. Share it from the lock in the title bar to ask about it."
)
HISTORY_EMPTY: Final = "No inline requests yet"
HISTORY_CLEAR: Final = "Clear the inline history of this workspace"
HISTORY_LOADING: Final = "Loading the latest requests…"
MARGIN: Final = 8
GAP: Final = 4
"""Pixels between the last line shown and the prompt, and under the prompt."""
REVIEW_MAX_HEIGHT: Final = 220

State = Literal["closed", "asking", "running", "review", "said"]
REVIEW_SPOKEN: Final = "{summary} Review the change: Accept (Enter), Reject (Esc) or Try again."
Outcome = Literal["accepted", "rejected", "refused"]


class InlineHost(NoteFrame, Protocol):
    """The Inbox frame the command works in: a named frame with its editor."""

    editor: QPlainTextEdit

    @property
    def link(self) -> WorkspaceLink: ...

    @property
    def is_loaded(self) -> bool: ...

    @property
    def is_private(self) -> bool: ...

    def set_view(self, name: str) -> None: ...


class InlinePrompt(QFrame):
    """The prompt and its review, floating over the editor's text."""

    key_pressed = Signal(object)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("inlinePrompt")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)  # its colours and border are the app's stylesheet's
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        row = QHBoxLayout()
        self.instruction = QLineEdit(self)
        self.instruction.setPlaceholderText(PLACEHOLDER)
        self.instruction.setAccessibleName("Inline instruction")
        self.instruction.setMaxLength(MAX_INSTRUCTION_CHARS)  # contract 13
        self.ask_button = QPushButton("Ask", self)
        self.history_button = QToolButton(self)
        self.history_button.setText("History")
        self.history_button.setToolTip("The latest inline requests of this workspace")
        self.history_menu = QMenu(self.history_button)
        self.history_button.setMenu(self.history_menu)
        self.history_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        row.addWidget(self.instruction, 1)
        row.addWidget(self.ask_button)
        row.addWidget(self.history_button)
        layout.addLayout(row)
        self.sent = QLabel(self)
        self.sent.setObjectName("inlineSent")
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.setObjectName("inlineStatus")
        self.review = QTextBrowser(self)
        self.review.setObjectName("inlineReview")
        self.review.setOpenLinks(False)
        self.review.setMaximumHeight(REVIEW_MAX_HEIGHT)
        buttons = QHBoxLayout()
        self.accept_button = QPushButton("Accept", self)
        self.accept_button.setToolTip("Replace the selection (Enter or Ctrl+Enter)")
        self.reject_button = QPushButton("Reject", self)
        self.reject_button.setToolTip("Keep the note as it is (Esc)")
        self.retry_button = QPushButton("Try again", self)
        self.retry_button.setToolTip("Edit the instruction and ask again")
        self.accept_button.setAccessibleName("Accept the change")
        self.reject_button.setAccessibleName("Reject the change")
        self.retry_button.setAccessibleName("Try again with another instruction")
        self.ask_button.setAccessibleName("Ask the assistant")
        self.history_button.setAccessibleName("Inline request history")
        self.review.setAccessibleName("Proposed change to the selection")
        self.status.setAccessibleName("Inline command status")
        for button in (self.accept_button, self.reject_button, self.retry_button):
            button.setAutoDefault(False)
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.ask_button.setAutoDefault(False)
        layout.addWidget(self.sent)
        layout.addWidget(self.review)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.hide()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self.key_pressed.emit(event)


class InlineCommand(QObject):
    """The command's state in one frame; QA and the menus call the same methods."""

    answered = Signal(object)
    """The request ended: an :class:`InlineAnswer`, or a plain message when it failed."""
    ended = Signal(str)
    """The prompt closed with this outcome: accepted, rejected, refused or closed."""
    history_loaded = Signal(list)

    def __init__(self, host: InlineHost, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._host = host
        self._runner = runner
        self._prompt: InlinePrompt | None = None
        self.state: State = "closed"
        self.request: InlineRequest | None = None
        self.answer: InlineAnswer | None = None
        self.last_outcome: Outcome | None = None
        self.failure: str | None = None
        self.history: list[InlineRecord] = []
        self._document: QTextDocument | None = None
        self._tracked: TrackedSelection | None = None
        self._stream: StreamedInline | None = None
        self.announcer = Announcer(self, source=host.editor)
        """R85: the review's buttons, a refusal or a failure, said once each."""

    @property
    def prompt(self) -> InlinePrompt:
        """The prompt, made the first time it is needed: a frame never asked costs nothing."""
        if self._prompt is None:
            # The editor's child, not its viewport's: it sits in a band the viewport gives
            # up below the text while it is open, so it never covers a line of the note.
            prompt = InlinePrompt(self._host.editor)
            prompt.key_pressed.connect(self._on_key)
            prompt.ask_button.clicked.connect(lambda: self.send())
            prompt.accept_button.clicked.connect(self.accept)
            prompt.reject_button.clicked.connect(self.reject)
            prompt.retry_button.clicked.connect(self.try_again)
            prompt.history_menu.aboutToShow.connect(self.load_history)
            self._prompt = prompt
            self.announcer.source = prompt
        return self._prompt

    # -- what a person does ----------------------------------------------------

    def open(self) -> bool:
        """Open the prompt at the selection or cursor (R68); False when the note is not ready."""
        host = self._host
        if not host.is_loaded:
            return False
        if host.view != EDIT:
            host.set_view(EDIT)
        if self.state != "closed":
            self.prompt.instruction.setFocus()
            return True
        editor = host.editor
        cursor = editor.textCursor()
        self._document = editor.document()
        # Typing right after the selection stays outside it; typing before it moves it.
        self._tracked = TrackedSelection(
            self._document, cursor.selectionStart(), cursor.selectionEnd()
        )
        self.request = None
        self.answer = None
        self.failure = None
        self.last_outcome = None
        prompt = self.prompt
        prompt.instruction.clear()
        self._follow(editor, True)
        self._show("asking")
        prompt.show()
        prompt.raise_()
        self._place()
        self._bring_selection_above_prompt()
        prompt.instruction.setFocus()
        if host.is_private:
            self._status(PRIVATE_REFUSED)  # R86: said at once; nothing will be sent
        return True

    def send(self, instruction: str | None = None) -> bool:
        """Send the instruction with the slice around the tracked selection (R69, R70)."""
        if self.state not in ("asking", "said"):
            return False
        text = (self.prompt.instruction.text() if instruction is None else instruction).strip()
        if instruction is not None:
            self.prompt.instruction.setText(instruction)
        if not text or self._document is None:
            return False
        if self._host.is_private:
            self._status(PRIVATE_REFUSED)  # R86: refused before anything is sent
            return False
        start, end = self._span()
        try:
            context = build_context(
                DocumentSlices(self._document), self._host.path, text, start, end
            )
        except SelectionTooLarge as refused:
            self._status(str(refused))  # R69: refused before sending
            self.prompt.sent.setText("")
            self.prompt.sent.hide()
            return False
        request = context.request
        self.request = request
        self.answer = None
        self.failure = None
        link = self._host.link
        # Not parented to the frame: a frame closed mid-request must not delete it under its
        # worker; the runner's callbacks keep it until it ends, then it deletes itself.
        stream = StreamedInline(
            self._runner,
            lambda: link.call(lambda client, session: client.stream_inline(session, request)),
        )
        stream.text_changed.connect(self._on_text)
        stream.finished.connect(self._on_finished)
        stream.finished.connect(lambda _outcome: stream.deleteLater())  # one per request
        self._stream = stream
        self.prompt.sent.setText(request.sent_text())
        self._status(ASKING)
        self.prompt.review.clear()
        self._show("running")
        self._strike()
        if stream.start() is None:
            self._stream = None
            self._say(FAILED.format(reason="the app is closing."))
        return True

    def accept(self) -> bool:
        """Replace the tracked selection in one undo step, if it still reads as sent (R72)."""
        if self.state != "review" or self.answer is None or self.request is None:
            return False
        tracked = self._tracked
        same_note = (
            tracked is not None
            and self._host.editor.document() is tracked.document
            and self._host.path == self.request.path
        )
        if not same_note or tracked is None:
            return self._refuse()
        if not tracked.replace(self.request.selection, self.answer.replacement):
            return self._refuse()
        self._report(self.answer.id, OUTCOME_ACCEPTED)
        self.last_outcome = "accepted"
        self._close("accepted")
        return True

    def _refuse(self) -> bool:
        self.last_outcome = "refused"
        self._status(ACCEPT_REFUSED)
        return False

    def reject(self) -> None:
        """Esc: close without changing the note; an answer under review is reported rejected."""
        if self.state == "review" and self.answer is not None:
            self._report(self.answer.id, OUTCOME_REJECTED)
            self.last_outcome = "rejected"
            self._close("rejected")
            return
        self._close("closed")

    def try_again(self) -> None:
        """Edit the instruction and ask again about the tracked selection (R71)."""
        if self.state not in ("review", "said"):
            return
        if self.state == "review" and self.answer is not None:
            self._report(self.answer.id, OUTCOME_REJECTED)
        self._show("said")
        self._unstrike()
        instruction = self.prompt.instruction
        instruction.setReadOnly(False)
        instruction.selectAll()
        instruction.setFocus()

    def close(self) -> None:
        self._close("closed")

    def load_history(self) -> None:
        """Fill the prompt's History menu with the latest requests, fetched off the GUI thread."""
        menu = self.prompt.history_menu
        menu.clear()
        menu.addAction(HISTORY_LOADING).setEnabled(False)
        link = self._host.link
        self._runner.submit(
            lambda: link.call(
                lambda client, session: client.inline_history(session, HISTORY_LIMIT)
            ),
            on_done=self._on_history,
            on_error=lambda error: logger.info("The inline history was not read: %s", error),
        )

    # -- inside ----------------------------------------------------------------

    def _span(self) -> tuple[int, int]:
        return self._tracked.span() if self._tracked is not None else (0, 0)

    def _on_text(self, text: str) -> None:
        if self.request is not None:
            self.prompt.review.setHtml(
                review_html(self.request.selection, text, partial=True, scheme=self._scheme())
            )
            self.prompt.review.show()
            self._fit_review()
            self._place()

    def _on_finished(self, outcome: object) -> None:
        self._stream = None
        if self.state != "running":
            return
        if isinstance(outcome, InlineAnswer):
            self.answer = outcome
            if outcome.is_refusal:
                self._say(outcome.summary)
                self.prompt.review.hide()
            else:
                assert self.request is not None
                self.prompt.review.setHtml(
                    review_html(self.request.selection, outcome.replacement, scheme=self._scheme())
                )
                self.prompt.review.show()
                self._fit_review()
                self._status(outcome.summary)
                self._show("review")
                self.announcer.announce(REVIEW_SPOKEN.format(summary=outcome.summary))
                if self._prompt_has_focus():
                    self.prompt.accept_button.setFocus()  # Enter accepts (R71)
            self._place()
            self.answered.emit(outcome)
            return
        if outcome is None:
            return
        reason = outcome.message if isinstance(outcome, BackendError) else str(outcome)
        self.failure = reason
        self._say(reason)
        self.answered.emit(reason)

    def _status(self, text: str) -> None:
        """A line under the prompt: what was asked, the answer's summary, a refusal."""
        self.prompt.status.setText(text)
        self.prompt.status.setVisible(bool(text))
        self._place()

    def _fit_review(self) -> None:
        """As tall as the change, up to the review's limit (then it scrolls)."""
        review = self.prompt.review
        document = review.document()
        document.setTextWidth(max(100, self.prompt.width() - 24))
        height = int(document.size().height()) + 2 * review.frameWidth() + 4
        review.setFixedHeight(max(24, min(REVIEW_MAX_HEIGHT, height)))

    def _prompt_has_focus(self) -> bool:
        focused = QApplication.focusWidget()
        return focused is not None and self.prompt.isAncestorOf(focused)

    def _say(self, text: str) -> None:
        """A refusal or a failure: said in plain words; Try again or close."""
        self.announcer.announce(text)
        self._status(text)
        self._show("said")
        self._unstrike()
        self._place()

    def _show(self, state: State) -> None:
        self.state = state
        prompt = self.prompt
        if state == "asking":
            prompt.sent.setText("")
            prompt.status.setText("")
        reviewing = state == "review"
        prompt.instruction.setReadOnly(state in ("running", "review"))
        prompt.ask_button.setVisible(state in ("asking", "said"))
        prompt.accept_button.setVisible(reviewing)
        prompt.reject_button.setVisible(state in ("review", "running"))
        prompt.reject_button.setText("Reject" if reviewing else "Stop")
        prompt.retry_button.setVisible(state in ("review", "said"))
        prompt.review.setVisible(
            state in ("running", "review") and bool(prompt.review.toPlainText())
        )
        prompt.sent.setVisible(bool(prompt.sent.text()))
        prompt.status.setVisible(bool(prompt.status.text()))

    def _close(self, outcome: str) -> None:
        if self.state == "closed":
            return
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.stop()
        had_focus = self._prompt_has_focus()
        self.state = "closed"
        self._follow(self._host.editor, False)
        self._unstrike()
        self.prompt.hide()
        self._host.editor.setViewportMargins(0, 0, 0, 0)  # the band goes with the prompt
        if had_focus:
            self._host.editor.setFocus()
        self.ended.emit(outcome)

    def _follow(self, editor: QPlainTextEdit, on: bool) -> None:
        """Keep the prompt in its band as the editor is resized, while it is open.

        Only while open: typing in a big note must not run Python for every paint (R67).
        """
        if on:
            editor.viewport().installEventFilter(self)
            return
        editor.viewport().removeEventFilter(self)

    def _strike(self) -> None:
        """Show the sent selection struck in the editor while its answer is asked and reviewed."""
        start, end = self._span()
        if end <= start or self._document is None:
            return
        marked = QTextEdit.ExtraSelection()
        marked.cursor = QTextCursor(self._document)
        marked.cursor.setPosition(start)
        marked.cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        style = QTextCharFormat()
        style.setFontStrikeOut(True)
        removed = self._scheme().removed  # both sides of the pair, in the scheme shown (R82)
        style.setBackground(QColor(removed.background))
        style.setForeground(QColor(removed.text))
        marked.format = style
        self._host.editor.setExtraSelections([marked])

    def _scheme(self) -> Scheme:
        return scheme_of(self._host.editor.palette())

    def _unstrike(self) -> None:
        self._host.editor.setExtraSelections([])

    def _report(self, request_id: str, outcome: str) -> None:
        link = self._host.link
        self._runner.submit(
            lambda: link.call(
                lambda client, session: client.report_inline(session, request_id, outcome)
            ),
            on_error=lambda error: logger.info("An inline outcome was not kept: %s", error),
        )

    def _on_history(self, value: object) -> None:
        records = (
            [item for item in value if isinstance(item, InlineRecord)]
            if isinstance(value, list)
            else []
        )
        self.history = records
        menu = self.prompt.history_menu
        menu.clear()
        if not records:
            menu.addAction(HISTORY_EMPTY).setEnabled(False)
        for record in records:
            action = menu.addAction(record.describe())
            action.triggered.connect(
                lambda _checked=False, text=record.instruction: self._reuse(text)
            )
        if records:
            menu.addSeparator()
            menu.addAction(HISTORY_CLEAR).triggered.connect(self.clear_history)
        self.history_loaded.emit(records)

    def clear_history(self) -> None:
        """Forget this workspace's inline requests (R73: kept until the person clears them)."""
        link = self._host.link
        self._runner.submit(
            lambda: link.call(lambda client, key: client.clear_inline_history(key)),
            on_done=lambda _value: self._on_history([]),
            on_error=lambda error: self._status(FAILED.format(reason=error)),
        )

    def _reuse(self, instruction: str) -> None:
        if self.state in ("asking", "said"):
            self.prompt.instruction.setText(instruction)
            self.prompt.instruction.setFocus()

    def _on_key(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self.reject()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if self.state == "review":
                self.accept()
            elif self.state in ("asking", "said"):
                self.send()

    def _place(self) -> None:
        """Keep the prompt in a band under the editor's text, which it never covers.

        The editor's viewport gives up room for the prompt at its bottom while the prompt
        is open (its margins), and the prompt sits there, under the last line shown.
        """
        prompt = self.prompt
        if self.state == "closed" or self._document is None or self._tracked is None:
            return
        editor = self._host.editor
        width = max(200, editor.width() - 2 * MARGIN)
        prompt.setFixedWidth(width)
        prompt.adjustSize()
        height = prompt.sizeHint().height()
        band = height + 2 * GAP
        if editor.viewportMargins().bottom() != band:
            grew = editor.viewportMargins().bottom() < band
            editor.setViewportMargins(0, 0, 0, band)
            if grew:  # a taller band (the review came) must not push the selection away
                self._bring_selection_above_prompt()
        below_text = editor.viewport().geometry().bottom() + 1 + GAP
        prompt.setGeometry(MARGIN, below_text, width, height)

    def _bring_selection_above_prompt(self) -> None:
        """Scroll so the selection's last line is the last line shown, right above the prompt.

        A note too short to scroll that far keeps its place: the prompt is then under
        every line of it. A selection taller than the view shows its end, by the prompt.
        """
        if self._tracked is None:
            return
        editor = self._host.editor
        bar = editor.verticalScrollBar()
        room = editor.viewport().height()
        end = QTextCursor(self._tracked.end_cursor)
        start_position = self._tracked.start_cursor.position()
        if end.atBlockStart() and end.position() > start_position:
            end.setPosition(end.position() - 1)  # a selection of whole lines ends on the last
        # QPlainTextEdit scrolls by block: start with the last line at the top, then move
        # up a block at a time while the block above still fits.
        bar.setValue(min(bar.maximum(), end.blockNumber()))
        while bar.value() > 0:
            bar.setValue(bar.value() - 1)
            if editor.cursorRect(end).bottom() >= room:
                bar.setValue(bar.value() + 1)
                break

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.state != "closed":
            self._place()
        return False
