"""Agent turns and their delivery credentials (contract 4, R17–R23).

- ``POST /v1/agent/turns`` with ``{"conversation": "<1-128 chars>", "message": "<text>"}``
  (body at most 1 MiB, else 413), optional ``X-Key-Session`` and ``X-Ambient-Note`` →
  200 ``{"reply", "toolCalls", "ambient": {"status", "reason"}}``. ``ambient.status``
  is ``stored`` (valid header with a key session), ``absent`` (no header, or no key
  session: nothing stored, the conversation's rows deleted) or ``rejected`` (the
  header was refused; ``reason`` says why; the turn still runs). An unknown or
  expired ``X-Key-Session`` is 403, like the document API: the client opens a new
  key session and sends again. The answer also names the assistant: ``"assistant":
  {"kind": "offline"|"model", "model"}``. A provider failure is 502
  ``model_unavailable`` (R36), after the delivery row was written.
- The same with ``Accept: text/event-stream`` (R35) → 200 ``text/event-stream``:
  ``delta`` ``{"text"}`` pieces in order, a ``tool`` event per tool call (and a
  ``proposal`` event after one that proposed an edit, contract 10), then ``done``
  with exactly the JSON above, or ``error`` with the error envelope (any failure,
  403 and 502 included). A client that disconnects stops the turn: no further model
  call is made and the turn is not kept in the conversation.
- Extension (R48): the body's optional ``"ambient": "excluded"`` says the user left the
  open note out of this message. The turn runs as with no header (``absent``, with a
  reason), and ``read_active_note`` says the note was left out, never that none is open.
- ``GET /v1/agent/deliveries/{conversation}`` with ``X-Key-Session`` (extension, for QA)
  → 200 ``{"conversation", "workspace", "ambient_path", "ambient_view", "ambient_meta",
  "expiresAt"}`` for the live delivery row; 404 ``no_delivery`` when there is none or it
  expired.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import closing
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from bridge.agent import (
    EVENT_DELTA,
    EVENT_DONE,
    EVENT_ERROR,
    EVENT_PROPOSAL,
    EVENT_TOOL,
    DeltaEvent,
    DoneEvent,
    ProposalEvent,
    ToolEvent,
)
from bridge.contract import MAX_CONVERSATION_CHARS
from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from bridge.pointer import format_captured_at
from bridge.wire import Delivery, TurnAnswer, envelope
from workers import messages
from workers.ambient import decide_ambient
from workers.assistants import Cancellation
from workers.dependencies import (
    Account,
    BackendState,
    OptionalKeySession,
    State,
    access_error,
    json_body,
    read_json_model,
)
from workers.errors import AccessDenied, ApiError
from workers.responses import event_stream
from workers.streaming import answer_or_stream, sse, sse_json
from workers.turns import IncomingTurn, render_tool_call, run_turn

router = APIRouter(prefix="/v1/agent", tags=["agent"])


class TurnRequest(BaseModel):
    model_config = ConfigDict(strict=True)

    conversation: Annotated[str, Field(min_length=1, max_length=MAX_CONVERSATION_CHARS)]
    message: str
    ambient: Literal["excluded", "private"] | None = None
    """R48: "excluded" when the user left the open note out of this message; R86: "private"
    when the open note is private, so the app sent no pointer."""

    @field_validator("conversation")
    @classmethod
    def _storable(cls, conversation: str) -> str:
        # Stored in the delivery row; PostgreSQL text cannot hold NUL.
        if "\x00" in conversation:
            raise PydanticCustomError("conversation_nul", messages.CONVERSATION_HAS_NUL)
        return conversation


def _answer(state: BackendState, turn: IncomingTurn, cancellation: Cancellation) -> bytes | None:
    """The whole non-streaming turn in one worker thread (R40): the JSON body, or the error;
    None when the client left first."""
    with closing(run_turn(state, turn, streaming=False, cancellation=cancellation)) as events:
        for event in events:
            if isinstance(event, DoneEvent):
                return event.answer
            if not isinstance(event, DeltaEvent | ToolEvent | ProposalEvent):
                raise ApiError(event.status, event.code, event.message)
    if cancellation.cancelled:
        return None
    raise RuntimeError("the assistant ended a turn without an answer")


def _stream(
    state: BackendState, turn: IncomingTurn, cancellation: Cancellation
) -> Generator[bytes, None, None]:
    """Contract 7: delta, tool and done events; any failure is an error event."""
    with closing(run_turn(state, turn, streaming=True, cancellation=cancellation)) as events:
        for event in events:
            if isinstance(event, DeltaEvent):
                yield sse_json(EVENT_DELTA, {"text": event.text})
            elif isinstance(event, ToolEvent):
                yield sse(EVENT_TOOL, render_tool_call(event.call))
            elif isinstance(event, ProposalEvent):
                yield sse_json(EVENT_PROPOSAL, event.proposal)
            elif isinstance(event, DoneEvent):
                yield sse(EVENT_DONE, event.answer)
            else:
                yield sse_json(EVENT_ERROR, envelope(event.code, event.message))


TURN_EVENTS = (
    "Events `delta` {text}, `tool` {name, arguments, result} per tool call, `proposal` "
    "(a proposal) after a call that proposed one, then `done` (the JSON answer) or "
    "`error` (the error envelope)."
)


# Hot: the body is joined from orjson pieces on the worker thread (render_turn) so a
# 256 KiB tool result is encoded once; the model documents it, unvalidated here.
@router.post(
    "/turns",
    response_model=TurnAnswer,
    responses=event_stream(TURN_EVENTS),
    openapi_extra=json_body(TurnRequest),
)
async def post_turn(
    request: Request, state: State, account: Account, key: OptionalKeySession
) -> Response:
    body = await read_json_model(request, TurnRequest)
    left_out = body.ambient == "excluded"
    private = body.ambient == "private"
    ambient = decide_ambient(
        request.headers.getlist(HEADER_NAME),
        has_key_session=key is not None,
        note_left_out=left_out,
        note_private=private,
    )
    turn = IncomingTurn(account, key, body.conversation, body.message, ambient, left_out, private)
    return await answer_or_stream(
        request,
        lambda cancellation: _stream(state, turn, cancellation),
        lambda cancellation: _answer(state, turn, cancellation),
    )


# ":path" so a conversation name with "/" (allowed by the turn body) can be read back.
@router.get("/deliveries/{conversation:path}", response_model=Delivery)
async def get_delivery(
    conversation: str, request: Request, state: State, account: Account
) -> dict[str, Any]:
    try:
        session = await run_in_threadpool(
            state.key_sessions.check, account, request.headers.get(KEY_SESSION_HEADER)
        )
    except AccessDenied as denied:
        raise access_error(denied) from denied
    row = await run_in_threadpool(state.deliveries.current, session, conversation)
    if row is None:
        raise ApiError(404, "no_delivery", messages.NO_DELIVERY)
    return {
        "conversation": row.conversation,
        "workspace": row.workspace,
        "ambient_path": row.ambient_path,
        "ambient_view": row.ambient_view,
        "ambient_meta": row.ambient_meta,
        "expiresAt": format_captured_at(row.expires_at),
    }
