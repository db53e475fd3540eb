"""A turn's streamed events, parsed into :mod:`bridge.wire`'s answers (contract 7).

Qt-free: the desktop app calls these through :class:`bridge.client.BackendClient`
on worker threads and hands the results to the GUI thread. A :class:`TurnStream`
yields a streamed turn's events as they arrive; :meth:`TurnStream.cancel`, called
from any thread, closes the connection, which ends the turn on the backend (R35).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from bridge import errors
from bridge.errors import BackendError, BackendUnreachable
from bridge.wire import Proposal, TurnAnswer, TurnToolCall

if TYPE_CHECKING:
    # requests is imported where a call is made, on a worker thread: at start it would cost
    # the GUI thread about 0.1 s before the first note shows (issue 33).
    import requests


def not_understood(status: int | None = None) -> BackendError:
    return BackendError(errors.NOT_UNDERSTOOD_MESSAGE, status)


# -- streamed turns ------------------------------------------------------------

STREAM_MEDIA_TYPE: Final = "text/event-stream"
"""R35: the ``Accept`` value that asks for a streamed turn, and the stream's media type."""
EVENT_DELTA: Final = "delta"
EVENT_TOOL: Final = "tool"
EVENT_PROPOSAL: Final = "proposal"
EVENT_DONE: Final = "done"
EVENT_ERROR: Final = "error"


CallT = TypeVar("CallT")
ProposalT = TypeVar("ProposalT")
AnswerT = TypeVar("AnswerT")


# The five kinds of a streamed answer, declared once for both realms. Each realm fills
# them with its own payload: the backend's assistants and runner carry its full objects
# (a ToolCall with its result, the outcome, the rendered JSON body), the app reads the
# wire's (TurnToolCall, Proposal, TurnAnswer or InlineAnswer, of bridge.wire).


@dataclass(frozen=True)
class DeltaEvent:
    """``delta``: the next piece of the reply's text (or of an inline replacement)."""

    text: str


@dataclass(frozen=True)
class ToolEvent(Generic[CallT]):
    """``tool``: one tool call, with its result."""

    call: CallT


@dataclass(frozen=True)
class ProposalEvent(Generic[ProposalT]):
    """``proposal``: a proposed edit, before ``done`` (contract 10)."""

    proposal: ProposalT


@dataclass(frozen=True)
class DoneEvent(Generic[AnswerT]):
    """``done``: the whole answer, exactly as the non-streaming call returns it."""

    answer: AnswerT


@dataclass(frozen=True)
class ErrorEvent:
    """``error``: the turn failed; ``message`` is plain language (e.g. model_unavailable)."""

    code: str
    message: str


TurnEvent = (
    DeltaEvent
    | ToolEvent[TurnToolCall]
    | ProposalEvent[Proposal]
    | DoneEvent[TurnAnswer]
    | ErrorEvent
)
"""A streamed turn's events as the app reads them (contract 7)."""


def parse_sse(lines: Iterable[bytes]) -> Iterator[tuple[str, str]]:
    """(event, data) pairs of a server-sent event stream, one line at a time."""
    event, data = "message", list[str]()
    for raw in lines:
        line = raw.decode("utf-8", errors="replace").rstrip("\r")
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            event = value
        elif name == "data":
            data.append(value)


def turn_event(event: str, data: str) -> TurnEvent | None:
    """One parsed event, or None for an event this client does not know (ignored)."""
    try:
        body = json.loads(data)
        if event == EVENT_DELTA:
            return DeltaEvent(str(body["text"]))
        if event == EVENT_TOOL:
            return ToolEvent(TurnToolCall.model_validate(body))
        if event == EVENT_PROPOSAL:
            return ProposalEvent(Proposal.model_validate(body))
        if event == EVENT_DONE:
            return DoneEvent(TurnAnswer.model_validate(body))
        if event == EVENT_ERROR:
            return ErrorEvent(str(body["error"]["code"]), str(body["error"]["message"]))
    except (ValueError, KeyError, TypeError) as error:  # pydantic's ValidationError too
        raise not_understood() from error
    return None


class TurnStream:
    """A streamed turn: iterate for its events; ``cancel()`` from any thread stops it."""

    def __init__(self, response: requests.Response) -> None:
        self._response = response
        self._lock = threading.Lock()
        self._cancelled = False

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """End the stream without waiting: the backend notices and stops calling the model.

        Closing the response from here would wait for the reading thread's lock (until
        the next piece, or the read time-out). Shutting the socket down both ways wakes
        that reader at once and tells the backend now, even when no thread is reading
        (urllib3's own ``shutdown()`` closes only the reading side, which the backend
        never sees); the reader closes the connection as it leaves.
        """
        with self._lock:
            self._cancelled = True
        connection = getattr(self._response.raw, "_connection", None)
        sock = getattr(connection, "sock", None)
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):  # already closed: nothing left to tell
                sock.shutdown(socket.SHUT_RDWR)

    def _parse(self, event: str, data: str) -> Any:
        """One event of this stream (a subclass reads another route's events)."""
        return turn_event(event, data)

    def _ends(self, event: object) -> bool:
        return isinstance(event, DoneEvent | ErrorEvent)

    def __iter__(self) -> Iterator[TurnEvent]:
        import requests  # loaded already: the response came from it

        try:
            lines = self._response.iter_lines(chunk_size=None)  # each piece as it arrives
            for name, data in parse_sse(lines):
                event = self._parse(name, data)
                if event is not None:
                    yield event
                if self._ends(event):
                    return
        except (requests.RequestException, OSError, AttributeError) as error:
            # AttributeError: urllib3 after the connection was closed under the reader.
            if self._cancelled:
                return
            raise BackendUnreachable(errors.UNREACHABLE_MESSAGE) from error
        finally:
            self._response.close()
        if not self._cancelled:  # the stream ended without done or error
            raise BackendUnreachable(errors.UNREACHABLE_MESSAGE)
