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
  ``delta`` ``{"text"}`` pieces in order, a ``tool`` event per tool call, then ``done``
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

import logging
from collections.abc import Generator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from bridge.agent import EVENT_DELTA, EVENT_DONE, EVENT_ERROR, EVENT_TOOL
from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from bridge.pointer import AmbientPointer, decode_header, format_captured_at
from workers import messages
from workers.assistants import Assistant, Cancellation, Delta, Done, ToolEvent
from workers.dependencies import (
    Account,
    BackendState,
    State,
    access_error,
    read_json_model,
)
from workers.errors import AccessDenied, ApiError, envelope
from workers.model.failures import ModelUnavailable
from workers.streaming import (
    HEADERS,
    MEDIA_TYPE,
    relay,
    sse,
    sse_json,
    until_disconnected,
    wants_stream,
)
from workers.turns import (
    PreparedTurn,
    assistant_label,
    prepare_turn,
    render_tool_call,
    render_turn,
    turn_events,
)

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/v1/agent", tags=["agent"])

MAX_CONVERSATION_CHARS = 128


class TurnRequest(BaseModel):
    model_config = ConfigDict(strict=True)

    conversation: Annotated[str, Field(min_length=1, max_length=MAX_CONVERSATION_CHARS)]
    message: str
    ambient: Literal["excluded"] | None = None
    """R48: "excluded" when the user left the open note out of this message."""

    @field_validator("conversation")
    @classmethod
    def _storable(cls, conversation: str) -> str:
        # Stored in the delivery row; PostgreSQL text cannot hold NUL.
        if "\x00" in conversation:
            raise PydanticCustomError("conversation_nul", messages.CONVERSATION_HAS_NUL)
        return conversation


def _ambient_from_headers(request: Request) -> tuple[AmbientPointer | None, dict[str, Any]]:
    """R18: decode the header; anything wrong is a rejection, never an error."""
    values = request.headers.getlist(HEADER_NAME)
    if not values:
        return None, {"status": "absent", "reason": None}
    if len(values) > 1:
        return None, {"status": "rejected", "reason": messages.AMBIENT_SEVERAL_HEADERS}
    decoded = decode_header(values[0])
    if isinstance(decoded, AmbientPointer):
        return decoded, {"status": "stored", "reason": None}
    return None, {"status": "rejected", "reason": decoded.reason}


def _prepare(
    state: BackendState,
    assistant: Assistant,
    account: str,
    key: str | None,
    turn: TurnRequest,
    pointer: AmbientPointer | None,
    ambient: dict[str, Any],
) -> PreparedTurn:
    """Both routes' start of a turn, on its worker thread: key check, delivery row, history."""
    return prepare_turn(
        state,
        account,
        key,
        turn.conversation,
        turn.message,
        pointer,
        ambient,
        note_left_out=turn.ambient == "excluded",
        with_history=assistant.uses_history,
    )


def _answer(
    state: BackendState,
    account: str,
    key: str | None,
    turn: TurnRequest,
    pointer: AmbientPointer | None,
    ambient: dict[str, Any],
) -> bytes:
    """The whole non-streaming turn in one worker thread (R40); the response body."""
    assistant = state.assistants.acquire()
    try:
        prepared = _prepare(state, assistant, account, key, turn, pointer, ambient)
        events = turn_events(
            state, assistant, prepared, streaming=False, cancellation=Cancellation()
        )
        for event in events:
            if isinstance(event, Done):
                return render_turn(event.outcome, ambient, assistant_label(assistant))
    except ModelUnavailable as failure:
        raise ApiError(502, failure.code, failure.message) from failure
    finally:
        state.assistants.release(assistant)
    raise RuntimeError("the assistant ended a turn without an answer")


def _stream(
    state: BackendState,
    account: str,
    key: str | None,
    turn: TurnRequest,
    pointer: AmbientPointer | None,
    ambient: dict[str, Any],
    cancellation: Cancellation,
) -> Generator[bytes, None, None]:
    """Contract 7: delta, tool and done events; any failure is an error event."""
    assistant = state.assistants.acquire()
    try:
        prepared = _prepare(state, assistant, account, key, turn, pointer, ambient)
        events = turn_events(state, assistant, prepared, streaming=True, cancellation=cancellation)
        for event in events:
            if isinstance(event, Delta):
                yield sse_json(EVENT_DELTA, {"text": event.text})
            elif isinstance(event, ToolEvent):
                yield sse(EVENT_TOOL, render_tool_call(event.call))
            else:
                yield sse(
                    EVENT_DONE, render_turn(event.outcome, ambient, assistant_label(assistant))
                )
    except (ModelUnavailable, ApiError) as failure:
        yield sse_json(EVENT_ERROR, envelope(failure.code, failure.message))
    except Exception as error:
        logger.error("A streamed turn failed", exc_info=error)
        yield sse_json(EVENT_ERROR, envelope("internal_error", messages.INTERNAL_ERROR))
    finally:
        state.assistants.release(assistant)


@router.post("/turns")
async def post_turn(request: Request, state: State, account: Account) -> Response:
    turn = await read_json_model(request, TurnRequest)
    key = request.headers.get(KEY_SESSION_HEADER)
    pointer, ambient = _ambient_from_headers(request)
    if turn.ambient == "excluded":
        # R48: the user's choice wins over any header: nothing is stored for this send.
        pointer = None
        ambient = {"status": "absent", "reason": messages.AMBIENT_LEFT_OUT}
    if key is None:
        # R18: without a key session nothing is stored, whatever the header said.
        pointer = None
        if ambient["status"] != "absent":
            ambient = {"status": "absent", "reason": messages.AMBIENT_NO_KEY_SESSION}
    if wants_stream(request.headers.get("accept", "")):
        cancellation = Cancellation()
        pieces = relay(
            lambda: _stream(state, account, key, turn, pointer, ambient, cancellation),
            cancellation,
            lambda: until_disconnected(request.receive),
        )
        return StreamingResponse(pieces, media_type=MEDIA_TYPE, headers=HEADERS)
    body = await run_in_threadpool(_answer, state, account, key, turn, pointer, ambient)
    return Response(body, media_type="application/json")


# ":path" so a conversation name with "/" (allowed by the turn body) can be read back.
@router.get("/deliveries/{conversation:path}")
async def get_delivery(
    conversation: str, request: Request, state: State, account: Account
) -> JSONResponse:
    try:
        session = await run_in_threadpool(
            state.key_sessions.check, account, request.headers.get(KEY_SESSION_HEADER)
        )
    except AccessDenied as denied:
        raise access_error(denied) from denied
    row = await run_in_threadpool(state.deliveries.current, session, conversation)
    if row is None:
        raise ApiError(404, "no_delivery", messages.NO_DELIVERY)
    return JSONResponse(
        {
            "conversation": row.conversation,
            "workspace": row.workspace,
            "ambient_path": row.ambient_path,
            "ambient_view": row.ambient_view,
            "ambient_meta": row.ambient_meta,
            "expiresAt": format_captured_at(row.expires_at),
        }
    )
