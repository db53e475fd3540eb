"""Health and workspace creation (extensions to contract 2).

- ``GET /v1/health`` → 200 ``{"status": "ok"}``; no token needed, for readiness checks.
- ``POST /v1/workspaces`` with ``{"workspace": "<id>"}`` and the device token →
  201 ``{"workspace": id}`` for a new empty workspace folder, 200 when it already
  exists, 400 for an id outside ``[A-Za-z0-9][A-Za-z0-9._-]{0,63}``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict

from bridge.wire import Health, WorkspaceCreated
from workers.dependencies import Account, State, check_workspace_id, json_body, read_json_model

router = APIRouter(prefix="/v1", tags=["system"])


class WorkspaceRequest(BaseModel):
    model_config = ConfigDict(strict=True)

    workspace: str


@router.get("/health", response_model=Health)
def health() -> dict[str, Any]:
    return {"status": "ok"}


# No status_code here: the route sets 201 or 200 on the response FastAPI hands it.
@router.post(
    "/workspaces",
    response_model=WorkspaceCreated,
    responses={201: {"model": WorkspaceCreated, "description": "A new empty workspace."}},
    openapi_extra=json_body(WorkspaceRequest),
)
async def create_workspace(
    request: Request, response: Response, state: State, _account: Account
) -> dict[str, Any]:
    body = await read_json_model(request, WorkspaceRequest)
    check_workspace_id(body.workspace)
    created = await run_in_threadpool(state.workspaces.create, body.workspace)
    response.status_code = 201 if created else 200
    return {"workspace": body.workspace}
