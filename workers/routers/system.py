"""Health and workspace creation (extensions to contract 2).

- ``GET /v1/health`` → 200 ``{"status": "ok"}``; no token needed, for readiness checks.
- ``POST /v1/workspaces`` with ``{"workspace": "<id>"}`` and the device token →
  201 ``{"workspace": id}`` for a new empty workspace folder, 200 when it already
  exists, 400 for an id outside ``[A-Za-z0-9][A-Za-z0-9._-]{0,63}``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from workers.dependencies import Account, State, check_workspace_id, read_json_model

router = APIRouter(prefix="/v1", tags=["system"])


class WorkspaceRequest(BaseModel):
    model_config = ConfigDict(strict=True)

    workspace: str


@router.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@router.post("/workspaces")
async def create_workspace(request: Request, state: State, _account: Account) -> JSONResponse:
    body = await read_json_model(request, WorkspaceRequest)
    check_workspace_id(body.workspace)
    created = await run_in_threadpool(state.workspaces.create, body.workspace)
    return JSONResponse({"workspace": body.workspace}, status_code=201 if created else 200)
