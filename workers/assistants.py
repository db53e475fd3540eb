"""The two assistants behind one interface: offline (the default) and a model (R30).

An assistant turns one :class:`TurnInput` into a stream of events: ``DeltaEvent`` pieces
of the reply in order, one ``ToolEvent`` per tool call with its result, and a final
``DoneEvent`` with the whole outcome. Both kinds stream (R35); the route relays the
events as they come or collects them into the JSON answer. A provider failure is
raised as :class:`workers.model.failures.ModelUnavailable` (R36).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from bridge.agent import DeltaEvent, DoneEvent, ToolEvent
from bridge.pointer import AmbientPointer
from bridge.wire import AssistantKind
from workers.conversations import StoredMessage
from workers.offline import turn as offline_turn
from workers.outcomes import ToolCall, TurnOutcome
from workers.tools import ToolContext

OFFLINE: Final = "offline"
MODEL: Final = "model"

OFFLINE_PIECE_CHARS: Final = 48
"""The offline reply streams in pieces of about this many characters, cut after a space."""


class Cancellation:
    """Set when the client went away: the turn stops calling the model (R35).

    Callbacks (closing a provider stream) run once, on the thread that cancels.
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` on cancellation (now, if already cancelled); returns a remover."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return lambda: self._remove(callback)
        callback()
        return lambda: None

    def _remove(self, callback: Callable[[], None]) -> None:
        with self._lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)


@dataclass(frozen=True)
class TurnInput:
    """Everything an assistant may use for one turn."""

    context: ToolContext
    message: str
    pointer: AmbientPointer | None
    history: Sequence[StoredMessage] = ()
    streaming: bool = False
    cancellation: Cancellation = field(default_factory=Cancellation)


AssistantEvent = DeltaEvent | ToolEvent[ToolCall] | DoneEvent[TurnOutcome]
"""What an assistant yields for one turn: the bridge's event kinds (one declaration for
both realms), carrying the backend's full objects (a call with its result, the outcome);
the runner turns the outcome into the wire's JSON answer."""


class Assistant(Protocol):
    kind: AssistantKind
    model: str | None
    base_url: str | None
    uses_history: bool
    """Whether :attr:`TurnInput.history` is read; if not, a turn does not load it."""

    def run(self, turn: TurnInput) -> Iterator[AssistantEvent]:
        """The turn's events; the last one is ``DoneEvent`` unless the turn was cancelled."""
        ...

    def close(self) -> None:
        """Release connections once no turn uses the assistant any more."""
        ...


def describe(assistant: Assistant) -> dict[str, Any]:
    """``GET /v1/assistant`` (contract 7): never the API key."""
    return {"kind": assistant.kind, "model": assistant.model, "baseUrl": assistant.base_url}


class OfflineAssistant:
    """The built-in assistant (no network, no model), streamed in pieces."""

    kind: AssistantKind = OFFLINE
    model: str | None = None
    base_url: str | None = None
    uses_history = True  # only to list what it can do once per conversation (R56)

    def run(self, turn: TurnInput) -> Iterator[AssistantEvent]:
        # It answers the question asked (R38) from what its tools read, in the request's
        # language; read_active_note first for the open note (R23); /tool is the QA hook.
        outcome = offline_turn.answer(turn.context, turn.message, turn.history)
        for call in outcome.tool_calls:
            yield ToolEvent(call)
        # Pieces only for a stream: a JSON answer takes the reply from DoneEvent, and the QA
        # hook's reply can be 256 KiB of tool result, thousands of pieces nobody reads.
        for piece in pieces(outcome.reply) if turn.streaming else ():
            if turn.cancellation.cancelled:
                return
            yield DeltaEvent(piece)
        yield DoneEvent(outcome)

    def close(self) -> None:
        return None


def pieces(text: str, size: int = OFFLINE_PIECE_CHARS) -> Iterator[str]:
    """``text`` in consecutive pieces of about ``size`` characters, cut after a space."""
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            space = text.find(" ", end, end + size)  # else a hard cut: CJK has no spaces
            if space >= 0:
                end = space + 1
        yield text[start:end]
        start = end


class AssistantHolder:
    """The assistant that answers now; the embedded app can replace it at run time (R37).

    A turn takes the current one when it starts and keeps it to the end, so a change
    of settings never mixes two assistants in one turn. The replaced one is closed
    once its last turn has finished.
    """

    def __init__(self, assistant: Assistant) -> None:
        self._lock = threading.Lock()
        self._current = assistant
        self._users: dict[int, int] = {}
        self._retired: dict[int, Assistant] = {}

    @property
    def current(self) -> Assistant:
        with self._lock:
            return self._current

    def replace(self, assistant: Assistant) -> None:
        with self._lock:
            old, self._current = self._current, assistant
            close_now = self._users.get(id(old), 0) == 0
            if not close_now:
                self._retired[id(old)] = old
        if close_now:
            old.close()

    def acquire(self) -> Assistant:
        with self._lock:
            assistant = self._current
            self._users[id(assistant)] = self._users.get(id(assistant), 0) + 1
            return assistant

    def release(self, assistant: Assistant) -> None:
        with self._lock:
            left = self._users.get(id(assistant), 1) - 1
            if left:
                self._users[id(assistant)] = left
                return
            self._users.pop(id(assistant), None)
            retired = self._retired.pop(id(assistant), None)
        if retired is not None:
            retired.close()

    def close(self) -> None:
        with self._lock:
            assistants = [self._current, *self._retired.values()]
            self._retired.clear()
        for assistant in assistants:
            assistant.close()
