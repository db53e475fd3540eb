"""Key sessions: workspace access for 15 minutes (contract 2).

``POST /v1/key-sessions`` with ``{"workspace": "<id>"}`` → 201
``{"key", "workspace", "expiresAt"}``; an unknown workspace is 404, an invalid id 400.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict

from bridge.pointer import format_captured_at
from bridge.wire import KeySessionIssued
from workers import messages
from workers.dependencies import Account, State, check_workspace_id, json_body, read_json_model
from workers.errors import ApiError

router = APIRouter(prefix="/v1/key-sessions", tags=["key sessions"])


class KeySessionRequest(BaseModel):
    model_config = ConfigDict(strict=True)

    workspace: str


@router.post(
    "", response_model=KeySessionIssued, status_code=201, openapi_extra=json_body(KeySessionRequest)
)
async def create_key_session(request: Request, state: State, account: Account) -> dict[str, Any]:
    body = await read_json_model(request, KeySessionRequest)
    check_workspace_id(body.workspace)
    if not state.workspaces.exists(body.workspace):
        raise ApiError(
            404,
            "workspace_not_found",
            messages.WORKSPACE_NOT_FOUND.format(workspace=body.workspace),
        )
    issued = await run_in_threadpool(state.key_sessions.issue, account, body.workspace)
    return {
        "key": issued.key,
        "workspace": issued.session.workspace,
        "expiresAt": format_captured_at(issued.session.expires_at),
    }
