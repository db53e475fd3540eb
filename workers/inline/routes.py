"""The inline command's routes (contract 13, R70, R73).

With ``X-Key-Session`` for the workspace (the same refusals as the document API):
- ``POST /v1/workspaces/{ws}/inline`` with ``{"instruction", "path", "before",
  "selection", "after", "lines"}`` → 200 ``{"id", "replacement", "summary", "kind",
  "assistant": {"kind", "name"}}``; with ``Accept: text/event-stream`` the events
  ``delta`` (pieces of the replacement), then ``done`` (that answer) or ``error``.
  An instruction outside 1–2,000 code points or ``lines`` that are not two 1-based
  line numbers in order: 400 ``invalid_argument``; a selection over 16 KiB or
  ``before``/``after`` over 2 KiB (UTF-8): 400 ``context_too_large``; a path that
  breaks the document rules: 400 ``invalid_path`` (the note is not read); a private
  note (``.aiexclude``, R86): 403 ``private_note``, nothing recorded. Provider
  failure: 502 ``model_unavailable`` (or the stream's ``error``).
- ``POST /v1/workspaces/{ws}/inline/{id}`` with ``{"outcome": "accepted"|"rejected"}``
  → 200 ``{"id", "outcome"}``; unknown id 404 ``inline_not_found``; any other
  outcome 400 ``invalid_argument``.
- ``GET /v1/workspaces/{ws}/inline[?limit=N]`` → ``{"requests": [...]}`` newest first
  (N from 1 to 100, default 10), never note text.
- ``DELETE /v1/workspaces/{ws}/inline`` → 204 (extension: the person clears them).

No ``X-Ambient-Note`` is read, and no delivery row is touched.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import closing
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from bridge.agent import EVENT_DELTA, EVENT_DONE, EVENT_ERROR, DeltaEvent, DoneEvent
from bridge.contract import MAX_AROUND_BYTES, MAX_INSTRUCTION_CHARS, MAX_SELECTION_BYTES
from bridge.inline import (
    HISTORY_LIMIT,
    MAX_HISTORY_LIMIT,
    SELECTION_TOO_LARGE,
    InlineRequest,
    utf8_size,
)
from bridge.paths import WorkspacePathError, check_workspace_path
from bridge.privacy import NOTE_PRIVATE
from bridge.wire import REPORTED_OUTCOMES, InlineAnswer, InlineHistory, InlineOutcome, envelope
from workers import jsontext
from workers.assistants import Cancellation
from workers.dependencies import (
    Account,
    BackendState,
    State,
    WorkspaceKey,
    json_body,
    read_body,
    read_json_model,
    whole_number,
)
from workers.errors import ApiError
from workers.inline.runner import InlineAsk, run_inline
from workers.responses import event_stream
from workers.streaming import answer_or_stream, sse, sse_json

router = APIRouter(prefix="/v1/workspaces/{workspace}/inline", tags=["inline"])

INSTRUCTION_LENGTH: Final = (
    f"The instruction must be 1 to {MAX_INSTRUCTION_CHARS:,} characters long; "
    "this one has {count:,}."
)
MAX_LINE: Final = 2**31 - 1
"""Line numbers are kept in an SQL integer column: a larger one is refused, never a 5xx."""
LINES_INVALID: Final = (
    "'lines' must be the first and last line sent, two whole numbers from 1 (at most "
    "2,147,483,647) with the first not after the last."
)
AROUND_TOO_LARGE: Final = (
    "The text {side} the selection is larger than "
    f"{MAX_AROUND_BYTES // 1024} KiB ({MAX_AROUND_BYTES:,} bytes), the most an inline "
    "request sends on each side."
)
PATH_INVALID: Final = "That note path is not allowed: {reason}"
OUTCOME_INVALID: Final = '\'outcome\' must be "accepted" or "rejected".'
NOT_FOUND: Final = "This workspace has no inline request with that id."
LIMIT_INVALID: Final = "'limit' must be a whole number from 1 to 100."


class InlineBody(BaseModel):
    model_config = ConfigDict(strict=True)

    instruction: str
    path: str
    before: str = ""
    selection: str = ""
    after: str = ""
    lines: list[int]


def checked_request(body: InlineBody) -> InlineRequest:
    """The request, or the contract's 400 for the first thing wrong with it."""
    count = len(body.instruction)
    if not 1 <= count <= MAX_INSTRUCTION_CHARS or not body.instruction.strip():
        raise ApiError(400, "invalid_argument", INSTRUCTION_LENGTH.format(count=count))
    if _over(body.selection, MAX_SELECTION_BYTES):
        raise ApiError(400, "context_too_large", SELECTION_TOO_LARGE)
    for side, text in (("before", body.before), ("after", body.after)):
        if _over(text, MAX_AROUND_BYTES):
            raise ApiError(400, "context_too_large", AROUND_TOO_LARGE.format(side=side))
    try:
        check_workspace_path(body.path)
    except WorkspacePathError as error:
        raise ApiError(400, "invalid_path", PATH_INVALID.format(reason=error)) from error
    if len(body.lines) != 2 or not 1 <= body.lines[0] <= body.lines[1] <= MAX_LINE:
        raise ApiError(400, "invalid_argument", LINES_INVALID)
    first, last = body.lines
    return InlineRequest(
        body.instruction, body.path, body.before, body.selection, body.after, (first, last)
    )


def _over(text: str, limit: int) -> bool:
    """Whether ``text`` passes ``limit`` UTF-8 bytes, encoding at most ``limit`` + 1 code points."""
    return utf8_size(text[: limit + 1]) > limit


def _answer(state: BackendState, ask: InlineAsk, cancellation: Cancellation) -> bytes | None:
    """The JSON answer; None when the client left first (the record is then ``failed``)."""
    with closing(run_inline(state, ask, streaming=False, cancellation=cancellation)) as events:
        for event in events:
            if isinstance(event, DoneEvent):
                return event.answer
            if not isinstance(event, DeltaEvent):
                raise ApiError(event.status, event.code, event.message)
    if cancellation.cancelled:
        return None
    raise RuntimeError("an inline request ended without an answer")


def _stream(
    state: BackendState, ask: InlineAsk, cancellation: Cancellation
) -> Generator[bytes, None, None]:
    with closing(run_inline(state, ask, streaming=True, cancellation=cancellation)) as events:
        for event in events:
            if isinstance(event, DeltaEvent):
                yield sse_json(EVENT_DELTA, {"text": event.text})
            elif isinstance(event, DoneEvent):
                yield sse(EVENT_DONE, event.answer)
            else:
                yield sse_json(EVENT_ERROR, envelope(event.code, event.message))


INLINE_EVENTS = (
    "Events `delta` {text} (pieces of the replacement), then `done` (the JSON answer) "
    "or `error` (the error envelope)."
)


# Hot (a person waits on it): the answer is encoded once on the worker thread, for the
# JSON body and the stream's done alike; the model documents it, unvalidated here.
@router.post(
    "",
    response_model=InlineAnswer,
    responses=event_stream(INLINE_EVENTS),
    openapi_extra=json_body(InlineBody),
)
async def post_inline(
    workspace: str, request: Request, state: State, account: Account, key: WorkspaceKey
) -> Response:
    body = await read_json_model(request, InlineBody)
    checked = checked_request(body)
    if await run_in_threadpool(state.workspaces.is_private, key.workspace, checked.path):
        # R86: refused before anything is asked or recorded.
        raise ApiError(403, "private_note", NOTE_PRIVATE)
    ask = InlineAsk(account, key.workspace, checked)
    return await answer_or_stream(
        request,
        lambda cancellation: _stream(state, ask, cancellation),
        lambda cancellation: _answer(state, ask, cancellation),
    )


LIMIT_PARAMETER: Final = {
    "in": "query",
    "name": "limit",
    "required": False,
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_HISTORY_LIMIT},
}
"""``limit`` as OpenAPI names it: read by hand, for the contract's own 400 (not FastAPI's)."""


@router.get("", response_model=InlineHistory, openapi_extra={"parameters": [LIMIT_PARAMETER]})
async def list_inline(
    workspace: str, request: Request, state: State, account: Account, key: WorkspaceKey
) -> dict[str, Any]:
    raw = request.query_params.get("limit")
    limit = HISTORY_LIMIT
    if raw is not None:
        checked = whole_number(raw, 1, MAX_HISTORY_LIMIT)
        if checked is None:
            raise ApiError(400, "invalid_argument", LIMIT_INVALID)
        limit = checked
    found = await run_in_threadpool(state.inline.recent, account, key.workspace, limit)
    return {"requests": [record.to_json() for record in found]}


@router.delete("", status_code=204, response_class=Response)
async def clear_inline(
    workspace: str, state: State, account: Account, key: WorkspaceKey
) -> Response:
    await run_in_threadpool(state.inline.clear, account, key.workspace)
    return Response(status_code=204)


OUTCOME_BODY: Final = {
    "type": "object",
    "required": ["outcome"],
    "properties": {"outcome": {"type": "string", "enum": list(REPORTED_OUTCOMES)}},
}
"""The outcome report's body as OpenAPI names it (read by hand, at most 4 KiB)."""


@router.post(
    "/{request_id}",
    response_model=InlineOutcome,
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": OUTCOME_BODY}}}
    },
)
async def report_inline(
    workspace: str,
    request_id: str,
    request: Request,
    state: State,
    account: Account,
    key: WorkspaceKey,
) -> dict[str, Any]:
    try:
        data = jsontext.loads(await read_body(request, 4096))
    except ValueError as error:
        raise ApiError(400, "invalid_argument", OUTCOME_INVALID) from error
    outcome = data.get("outcome") if isinstance(data, dict) else None
    if not isinstance(outcome, str) or outcome not in REPORTED_OUTCOMES:
        raise ApiError(400, "invalid_argument", OUTCOME_INVALID)
    kept = await run_in_threadpool(state.inline.report, account, key.workspace, request_id, outcome)
    if not kept:
        raise ApiError(404, "inline_not_found", NOT_FOUND)
    return {"id": request_id, "outcome": outcome}
