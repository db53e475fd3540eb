"""Conversations kept per (account, workspace, conversation) (contract 7, R34).

With ``X-Key-Session`` for the workspace:
- ``GET /v1/agent/conversations`` → ``{"conversations": [{"conversation", "updatedAt",
  "turns"}]}``, the most recently used first;
- ``GET /v1/agent/conversations/{conversation}`` → ``{"messages": [{"role", "text", "at",
  "toolCalls": [{"name", "arguments"}]}]}``, oldest first, never a tool result;
- ``DELETE /v1/agent/conversations/{conversation}`` → 204, also when it was empty;
- ``POST /v1/agent/conversations/{conversation}/proposals/{id}`` with ``{"outcome":
  "applied"|"undone"|"discarded"}`` → 200 ``{"id", "path", "summary", "outcome"}``: what the person
  did with a proposal of that conversation's replies (R50); the same report again
  changes nothing; an id the conversation does not hold → 404 ``proposal_not_found``.

Each message read back carries ``"proposals": [{"id", "path", "summary", "outcome"}]``
(``"pending"`` until reported; empty for the user's messages).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from bridge.headers import KEY_SESSION_HEADER
from bridge.wire import ConversationList, ConversationMessages, KeptProposalAnswer
from workers import messages
from workers.dependencies import Account, State, access_error, json_body, read_json_model
from workers.errors import AccessDenied, ApiError
from workers.identity import KeySession

router = APIRouter(prefix="/v1/agent/conversations", tags=["conversations"])


async def _session(request: Request, state: State, account: str) -> KeySession:
    try:
        return await run_in_threadpool(
            state.key_sessions.check, account, request.headers.get(KEY_SESSION_HEADER)
        )
    except AccessDenied as denied:
        raise access_error(denied) from denied


@router.get("", response_model=ConversationList)
async def list_conversations(request: Request, state: State, account: Account) -> dict[str, Any]:
    session = await _session(request, state, account)
    found = await run_in_threadpool(state.conversations.summaries, account, session.workspace)
    return {"conversations": [item.model_dump() for item in found]}


class OutcomeReport(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    outcome: Literal["applied", "undone", "discarded"]


# Declared before the ":path" routes, which would otherwise take ".../proposals/<id>" too.
@router.post(
    "/{conversation:path}/proposals/{proposal}",
    response_model=KeptProposalAnswer,
    openapi_extra=json_body(OutcomeReport),
)
async def report_proposal(
    conversation: str, proposal: str, request: Request, state: State, account: Account
) -> dict[str, Any]:
    session = await _session(request, state, account)
    body = await read_json_model(request, OutcomeReport)
    kept = await run_in_threadpool(
        state.conversations.report_outcome,
        account,
        session.workspace,
        conversation,
        proposal,
        body.outcome,
    )
    if kept is None:
        raise ApiError(404, "proposal_not_found", messages.PROPOSAL_NOT_FOUND)
    return kept.model_dump()


# ":path" so a conversation name with "/" (allowed by the turn body) can be read back.
@router.get("/{conversation:path}", response_model=ConversationMessages)
async def get_conversation(
    conversation: str, request: Request, state: State, account: Account
) -> dict[str, Any]:
    session = await _session(request, state, account)
    found = await run_in_threadpool(
        state.conversations.messages, account, session.workspace, conversation
    )
    return {"messages": [item.to_json() for item in found]}


@router.delete("/{conversation:path}", status_code=204, response_class=Response)
async def delete_conversation(
    conversation: str, request: Request, state: State, account: Account
) -> Response:
    session = await _session(request, state, account)
    await run_in_threadpool(state.conversations.clear, account, session.workspace, conversation)
    return Response(status_code=204)
