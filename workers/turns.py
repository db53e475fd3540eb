"""One agent turn, worker-thread side: delivery row, history, the assistant, the record (R18, R34).

The route calls :func:`prepare_turn` and then iterates :func:`turn_events` on a
worker thread, never on the event loop (R40). The delivery row is written before
any model is called (R36); a finished turn is added to the conversation before
its ``Done`` event leaves, so a client that reloads right after sees it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bridge.pointer import AmbientPointer
from workers import jsontext
from workers.assistants import Assistant, Cancellation, Done, TurnEvent, TurnInput
from workers.conversations import StoredMessage, StoredToolCall
from workers.dependencies import BackendState, access_error
from workers.errors import AccessDenied
from workers.identity import KeySession
from workers.outcomes import ToolCall, TurnOutcome
from workers.tools import ToolContext


@dataclass(frozen=True)
class PreparedTurn:
    """A turn whose delivery row is written and whose history is loaded."""

    account: str
    conversation: str
    message: str
    session: KeySession | None
    pointer: AmbientPointer | None
    ambient: dict[str, Any]
    history: list[StoredMessage]
    note_left_out: bool = False


def prepare_turn(
    state: BackendState,
    account: str,
    key: str | None,
    conversation: str,
    message: str,
    pointer: AmbientPointer | None,
    ambient: dict[str, Any],
    *,
    note_left_out: bool = False,
    with_history: bool = True,
) -> PreparedTurn:
    """Key check and delivery row (R18), then the conversation so far (R34).

    Without a key session there is no workspace to keep a conversation in: such a
    turn is answered with no history and is not recorded. ``with_history=False``
    (an assistant that does not read it) spares the query.
    """
    session: KeySession | None = None
    history: list[StoredMessage] = []
    if key is None:
        state.deliveries.forget_conversation(account, conversation)
    else:
        try:
            session = state.key_sessions.check(account, key)
            # In the try: a sweep between the check and the write refuses it as expired (R41).
            state.deliveries.record_send(session, conversation, pointer)
        except AccessDenied as denied:
            raise access_error(denied) from denied
        if with_history:
            history = state.conversations.recent(account, session.workspace, conversation)
    return PreparedTurn(
        account, conversation, message, session, pointer, ambient, history, note_left_out
    )


def turn_events(
    state: BackendState,
    assistant: Assistant,
    turn: PreparedTurn,
    *,
    streaming: bool,
    cancellation: Cancellation,
) -> Iterator[TurnEvent]:
    """The assistant's events; the finished turn is recorded before ``Done`` is passed on."""
    context = ToolContext(
        session=turn.session,
        conversation=turn.conversation,
        deliveries=state.deliveries,
        workspaces=state.workspaces,
        clock=state.settings.clock,
        note_left_out=turn.note_left_out,
    )
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
        if isinstance(event, Done) and turn.session is not None and event.outcome.kept:
            state.conversations.record_turn(
                turn.account,
                turn.session.workspace,
                turn.conversation,
                turn.message,
                event.outcome.reply,
                [StoredToolCall(call.name, call.arguments) for call in event.outcome.tool_calls],
            )
        yield event


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
    outcome: TurnOutcome, ambient: dict[str, Any], assistant: dict[str, Any] | None = None
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
    parts += (b'],"ambient":', jsontext.dumps(ambient))
    if assistant is not None:
        parts += (b',"assistant":', jsontext.dumps(assistant))
    parts.append(b"}")
    return b"".join(parts)


def assistant_label(assistant: Assistant) -> dict[str, Any]:
    """The turn response's ``assistant`` field (contract 7)."""
    return {"kind": assistant.kind, "model": assistant.model}
