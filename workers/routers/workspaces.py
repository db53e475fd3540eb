"""Listing the workspaces (an extension to contract 2, for the app's workspace picker).

- ``GET /v1/workspaces`` with the device token → 200 ``{"workspaces": ["<id>", ...]}``:
  every workspace folder whose name is a workspace id, sorted.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from bridge.wire import WorkspaceNames
from workers.dependencies import Account, State

router = APIRouter(prefix="/v1", tags=["workspaces"])


@router.get("/workspaces", response_model=WorkspaceNames)
async def list_workspaces(state: State, _account: Account) -> dict[str, Any]:
    names = await run_in_threadpool(state.workspaces.names)
    return {"workspaces": names}
