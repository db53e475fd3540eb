"""The AI Assistant frame's kept conversation (R34): show it, and clear it.

Both go to the backend off the GUI thread (:mod:`renderer.frames.assistant_calls`)
and come back as callbacks on the GUI thread.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QAbstractButton

from bridge.errors import BackendError
from renderer.frames import assistant_calls as calls
from renderer.frames.kept_records import KeptConversation, KeptRecords, load_kept_conversation
from renderer.frames.message_input import MessageInput
from renderer.frames.transcript import Transcript
from renderer.frames.turn_view import TurnView
from renderer.qt.backend import WorkspaceLink
from renderer.qt.tasks import TaskRunner

UNEXPECTED_PROBLEM = "The assistant could not answer because of an unexpected problem. Try again."
NOT_LOADED = "The earlier conversation could not be loaded: {reason}"
NOT_CLEARED = "The conversation could not be cleared: {reason}"


class _HistoryFrame(Protocol):
    conversation: str
    transcript_view: Transcript
    input: MessageInput
    conversation_loaded: SignalInstance
    conversation_cleared: SignalInstance
    _loads: int
    _kept: KeptRecords | None
    _runner: TaskRunner
    _link: Callable[[], WorkspaceLink]
    _queue: deque[tuple[str, bool]]

    @property
    def clear_button(self) -> QAbstractButton: ...

    def stop(self) -> None: ...

    def _running_view(self) -> TurnView | None: ...


class KeptConversationActions:
    """Loading and clearing the workspace's kept conversation."""

    def load_conversation(self: _HistoryFrame, conversation: str) -> None:
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

    def clear_conversation(self: _HistoryFrame) -> None:
        """Clear: stop the reply, forget the conversation on the backend, empty the transcript."""
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


def plain_failure(error: BaseException) -> str:
    """What the user reads about a failure: the backend's own words, never a traceback."""
    return error.message if isinstance(error, BackendError) else UNEXPECTED_PROBLEM
