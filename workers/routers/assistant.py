"""Which assistant answers, and changing it without a restart (contract 7, R30, R37).

- ``GET /v1/assistant`` → ``{"kind": "offline"|"model", "model", "baseUrl"}``; never the key.
- ``PUT /v1/assistant`` with ``{"baseUrl", "model", "apiKey"}`` (extension, for the app's
  settings) → the same answer as GET for the new assistant; ``baseUrl`` and ``model`` both
  null (or empty) choose the offline assistant; one without the other, or an address that
  is not http(s), is 400 ``invalid_assistant``; an address carrying a user name or
  password is 400 ``invalid_argument``, and a key for plain http to a host that is not
  loopback is refused (R61). Turns already running finish with the
  assistant they started with. It changes this process only: other instances take their
  settings from the environment.
- ``GET /v1/assistant/abilities?language=<two letters>`` (extension, for Help, R84) →
  ``{"language", "text"}``: the offline assistant's own list of what it can do, as
  Markdown, in that language when its catalogue has it, else in English.
- ``POST /v1/assistant/verify`` with ``{"baseUrl", "model"?, "apiKey"?}`` (extension) →
  200 ``{"ok", "message", "models"}``: the endpoint's model list and, with a model, one
  small request offering the tools. The key is used for these requests only.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from bridge.endpoints import CREDENTIALS_IN_URL, has_credentials
from bridge.wire import AssistantAbilities, AssistantDescription, Verification
from workers.assistants import describe
from workers.dependencies import Account, State, json_body, read_json_model
from workers.errors import ApiError
from workers.model.choose import AssistantChoiceError, make_assistant
from workers.model.verify import verify_endpoint
from workers.offline.replies import LANGUAGES
from workers.offline.table import capabilities

router = APIRouter(prefix="/v1/assistant", tags=["assistant"])

Text = Annotated[str, Field(max_length=4096)]


class AssistantRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    baseUrl: Text | None = None
    model: Text | None = None
    apiKey: Text | None = Field(default=None, repr=False)


@router.get("", response_model=AssistantDescription)
async def get_assistant(state: State, _account: Account) -> dict[str, Any]:
    return describe(state.assistants.current)


def _refuse_credentials(body: AssistantRequest) -> None:
    """R61, contract 12: a user name or password inside the address is never taken."""
    if body.baseUrl and has_credentials(body.baseUrl):
        raise ApiError(400, "invalid_argument", CREDENTIALS_IN_URL)


@router.put("", response_model=AssistantDescription, openapi_extra=json_body(AssistantRequest))
async def put_assistant(request: Request, state: State, _account: Account) -> dict[str, Any]:
    body = await read_json_model(request, AssistantRequest)
    _refuse_credentials(body)
    try:
        assistant = await run_in_threadpool(
            make_assistant, state.settings, body.baseUrl, body.model, body.apiKey
        )
    except AssistantChoiceError as error:
        raise ApiError(400, "invalid_assistant", str(error)) from error
    await run_in_threadpool(state.assistants.replace, assistant)
    return describe(assistant)


@router.get("/abilities", response_model=AssistantAbilities)
async def get_abilities(request: Request, _account: Account) -> dict[str, Any]:
    """R84: Help ▸ What the assistant understands, in ``?language=`` (else English)."""
    asked = request.query_params.get("language", "")
    language = asked if asked in LANGUAGES else "en"
    return {"language": language, "text": await run_in_threadpool(capabilities, language)}


@router.post("/verify", response_model=Verification, openapi_extra=json_body(AssistantRequest))
async def verify_assistant(request: Request, state: State, _account: Account) -> dict[str, Any]:
    body = await read_json_model(request, AssistantRequest)
    if not body.baseUrl:
        raise ApiError(400, "invalid_assistant", "Enter the endpoint URL to verify.")
    _refuse_credentials(body)
    result = await run_in_threadpool(
        verify_endpoint,
        body.baseUrl,
        body.model,
        body.apiKey,
        state.settings.model_read_timeout_seconds,
    )
    return result.model_dump()
