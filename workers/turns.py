"""The turn runner: one agent turn, worker-thread side, for both routes (R18, R34, R35, R40).

Both the JSON route and the stream route iterate :func:`run_turn` on a worker
thread, never on the event loop (R40), and only translate its events to HTTP:
``DeltaEvent`` pieces, one ``ToolEvent`` per tool call (and a ``ProposalEvent`` after a
call that proposed an edit, R50), then a ``DoneEvent`` (the JSON answer, also the
stream's ``done``) or ``Failed`` (the error envelope's parts).
The delivery row is written before any model is called (R36); a finished turn is
added to the conversation before its answer leaves, so a client that reloads
right after sees it.
"""

from __future__ import annotations

import logging
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from bridge.agent import DeltaEvent, DoneEvent, ProposalEvent, ToolEvent
from bridge.pointer import AmbientPointer
from bridge.wire import KeptProposalAnswer
from workers import jsontext, messages
from workers.ambient import PRIVATE_NOTE, AmbientDecision, AmbientStatus
from workers.assistants import Assistant, AssistantEvent, Cancellation, TurnInput
from workers.conversations import StoredMessage, StoredToolCall
from workers.dependencies import BackendState, access_error
from workers.errors import AccessDenied, ApiError
from workers.identity import KeySession
from workers.model.failures import ModelUnavailable
from workers.offline.naming import asks_about
from workers.outcomes import ToolCall, TurnOutcome, proposal_of
from workers.proposals import kept_arguments
from workers.tools import PROPOSE_TOOL, ToolContext

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class IncomingTurn:
    """A turn as the route read it: who asks, with which key, what, and the ambient decision."""

    account: str
    key: str | None
    conversation: str
    message: str
    ambient: AmbientDecision
    note_left_out: bool = False
    """R48: the body said ``"ambient": "excluded"``."""
    note_private: bool = False
    """R86: the body said ``"ambient": "private"``: "this note" is private, no pointer sent."""


@dataclass(frozen=True)
class Failed:
    """A turn that could not be answered: the HTTP status and the error envelope's parts."""

    status: int
    code: str
    message: str


RunnerEvent = (
    DeltaEvent | ToolEvent[ToolCall] | ProposalEvent[dict[str, Any]] | DoneEvent[bytes] | Failed
)
"""What a route reads off :func:`run_turn`: the bridge's event kinds with the backend's
payloads (``done`` carries the rendered JSON body, which is also the stream's ``done``),
and ``Failed``, which has an HTTP status besides the error envelope's parts."""


def run_turn(
    state: BackendState, turn: IncomingTurn, *, streaming: bool, cancellation: Cancellation
) -> Generator[RunnerEvent, None, None]:
    """Run one turn on the calling worker thread and yield its events; the last is the outcome.

    A provider failure is ``Failed`` 502 (R36), a refused key 403, anything else a
    logged 500. The assistant is released when the turn ends or the consumer closes
    the iterator (a client that went away).
    """
    assistant = state.assistants.acquire()
    try:
        prepared = prepare_turn(state, assistant, turn)
        label = assistant_label(assistant)
        events = turn_events(
            state, assistant, prepared, streaming=streaming, cancellation=cancellation
        )
        for event in events:
            if isinstance(event, DoneEvent):
                yield DoneEvent(render_turn(event.answer, prepared.ambient, label))
                continue
            yield event
            if isinstance(event, ToolEvent) and (proposal := proposal_of(event.call)):
                yield ProposalEvent(proposal)
    except ModelUnavailable as failure:
        yield Failed(502, failure.code, failure.message)
    except ApiError as failure:
        yield Failed(failure.status, failure.code, failure.message)
    except Exception as error:
        logger.error("A turn failed", exc_info=error)
        yield Failed(500, "internal_error", messages.INTERNAL_ERROR)
    finally:
        state.assistants.release(assistant)


@dataclass(frozen=True)
class PreparedTurn:
    """A turn whose delivery row is written and whose history is loaded."""

    account: str
    conversation: str
    message: str
    session: KeySession | None
    pointer: AmbientPointer | None
    history: list[StoredMessage]
    ambient: AmbientStatus
    """The turn's ``ambient`` answer: the route's decision, or a private pointer's rejection."""
    note_left_out: bool = False
    note_private: bool = False


def prepare_turn(state: BackendState, assistant: Assistant, turn: IncomingTurn) -> PreparedTurn:
    """Key check and delivery row (R18), then the conversation so far (R34).

    Without a key session there is no workspace to keep a conversation in: such a
    turn is answered with no history and is not recorded. An assistant that does
    not read the history spares the query.
    """
    account, key, conversation = turn.account, turn.key, turn.conversation
    pointer = turn.ambient.pointer
    ambient = turn.ambient.status
    note_private = turn.note_private
    session: KeySession | None = None
    history: list[StoredMessage] = []
    if key is None:
        state.deliveries.forget_conversation(account, conversation)
    else:
        try:
            session = state.key_sessions.check(account, key)
            if pointer is not None and state.workspaces.is_private(session.workspace, pointer.path):
                # R86: a pointer naming a private note is refused; no ambient column is kept.
                pointer, note_private = None, True
                ambient = AmbientStatus("rejected", PRIVATE_NOTE)
            # In the try: a sweep between the check and the write refuses it as expired (R41).
            state.deliveries.record_send(session, conversation, pointer)
        except AccessDenied as denied:
            raise access_error(denied) from denied
        if assistant.uses_history:
            history = state.conversations.recent(account, session.workspace, conversation)
    return PreparedTurn(
        account,
        conversation,
        turn.message,
        session,
        pointer,
        history,
        ambient,
        turn.note_left_out,
        note_private,
    )


def turn_events(
    state: BackendState,
    assistant: Assistant,
    turn: PreparedTurn,
    *,
    streaming: bool,
    cancellation: Cancellation,
) -> Iterator[AssistantEvent]:
    """The assistant's events; the finished turn is recorded before ``DoneEvent`` is passed on."""
    context = ToolContext(
        session=turn.session,
        conversation=turn.conversation,
        deliveries=state.deliveries,
        workspaces=state.workspaces,
        clock=state.settings.clock,
        note_left_out=turn.note_left_out,
        note_private=turn.note_private,
    )
    # R93: the tools may ask whether the person's message names a note (not the model's text).
    context = replace(context, asks_about=partial(asks_about, context, turn.message))
    request = TurnInput(
        context=context,
        message=turn.message,
        pointer=turn.pointer,
        history=turn.history,
        streaming=streaming,
        cancellation=cancellation,
    )
    for event in assistant.run(request):
        if cancellation.cancelled:
            return  # a stopped turn is not kept: the app keeps the message for a retry
        if isinstance(event, DoneEvent) and turn.session is not None and event.answer.kept:
            state.conversations.record_turn(
                turn.account,
                turn.session.workspace,
                turn.conversation,
                turn.message,
                event.answer.reply,
                [_stored_call(call) for call in event.answer.tool_calls],
                [_kept_proposal(proposal) for proposal in event.answer.proposals],
            )
        yield event


def _stored_call(call: ToolCall) -> StoredToolCall:
    """A call as the conversation keeps it; a proposal keeps its path and summary (R50)."""
    if call.name == PROPOSE_TOOL:
        arguments = kept_arguments({**call.arguments, **_proposal_fields(call)})
        return StoredToolCall(call.name, arguments)
    return StoredToolCall(call.name, call.arguments)


def _kept_proposal(proposal: dict[str, Any]) -> KeptProposalAnswer:
    """A proposal as the conversation keeps it: pending until the app reports it (R50)."""
    return KeptProposalAnswer(
        id=str(proposal["id"]),
        path=str(proposal["path"]),
        summary=str(proposal["summary"]),
        outcome="pending",
    )


def _proposal_fields(call: ToolCall) -> dict[str, Any]:
    proposal = proposal_of(call)
    return {"path": proposal["path"], "summary": proposal["summary"]} if proposal else {}


def _tool_call_parts(call: ToolCall) -> list[bytes]:
    return [
        b'{"name":',
        jsontext.dumps(call.name),
        b',"arguments":',
        jsontext.dumps_exact(call.arguments),
        b',"result":',
        call.result_json(),
        b"}",
    ]


def render_tool_call(call: ToolCall) -> bytes:
    """``{"name", "arguments", "result"}`` with the result's JSON made once."""
    return b"".join(_tool_call_parts(call))


def render_turn(
    outcome: TurnOutcome, ambient: AmbientStatus, assistant: dict[str, Any] | None = None
) -> bytes:
    """The turn response body (contract 4; a stream's ``done`` event), each result encoded once.

    A result can hold 256 KiB of note text and the QA hook's reply is that same
    result as JSON text: the result's JSON is made once, for both places.
    """
    parts = [b'{"reply":', jsontext.dumps(outcome.reply), b',"toolCalls":[']
    for index, call in enumerate(outcome.tool_calls):
        if index:
            parts.append(b",")
        parts += _tool_call_parts(call)
    parts += (b'],"proposals":', jsontext.dumps(outcome.proposals))
    parts += (b',"ambient":', jsontext.dumps(ambient.to_json()))
    if assistant is not None:
        parts += (b',"assistant":', jsontext.dumps(assistant))
    parts.append(b"}")
    return b"".join(parts)


def assistant_label(assistant: Assistant) -> dict[str, Any]:
    """The turn response's ``assistant`` field (contract 7)."""
    return {"kind": assistant.kind, "model": assistant.model}
