"""Shared request dependencies: backend state, the account token, key sessions, bodies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final, TypeVar

from fastapi import Depends, Request
from pydantic import BaseModel, ValidationError

from bridge.headers import KEY_SESSION_HEADER
from bridge.paths import WORKSPACE_ID_INVALID, is_workspace_id
from bridge.private_files import make_folders, make_private_folder
from workers import jsontext, messages
from workers.assistants import AssistantHolder
from workers.conversations import Conversations
from workers.database import Database
from workers.deliveries import DeliveryCredentials
from workers.documents import Workspaces
from workers.errors import AccessDenied, ApiError
from workers.identity import KeySession, KeySessions, account_id, token_matches
from workers.inline.records import InlineRecords
from workers.retention import Sweeper
from workers.settings import Settings

ModelT = TypeVar("ModelT", bound=BaseModel)

MAX_JSON_BODY_BYTES = 1024 * 1024
"""Turn and other JSON bodies; larger ones are refused with 413."""

MAX_NUMBER_DIGITS: Final = 18
"""The most digits of any number a route reads by hand (a query's, a header's): a longer one
is refused before ``int()``, which raises past Python's 4,300-digit limit and is not linear
(R93). 18 digits hold every 63-bit count. JSON bodies are read by orjson, which refuses any
integer beyond 64 bits; pydantic refuses a long one in a declared parameter itself."""


def whole_number(text: str, lowest: int, highest: int) -> int | None:
    """``text`` as a whole number from ``lowest`` to ``highest``, or None when it is not one.

    Only ASCII digits count (``int()`` also takes signs, spaces, ``_`` and other scripts'
    digits), and no more than :data:`MAX_NUMBER_DIGITS` of them.
    """
    if not 1 <= len(text) <= MAX_NUMBER_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if lowest <= number <= highest else None


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """A route's ``openapi_extra`` when it reads ``model`` with :func:`read_json_model`.

    The body is read by hand (its size is capped first), so FastAPI cannot see it; the
    schema still names every field, and tests walk it to reach every number a route reads.
    """
    schema = {"schema": model.model_json_schema()}
    return {"requestBody": {"required": True, "content": {"application/json": schema}}}


@dataclass
class BackendState:
    """Everything the routers share, built once per app."""

    settings: Settings
    database: Database
    device_token: str
    account: str
    key_sessions: KeySessions
    deliveries: DeliveryCredentials
    workspaces: Workspaces
    assistants: AssistantHolder
    conversations: Conversations
    sweeper: Sweeper
    inline: InlineRecords

    @classmethod
    def open(cls, settings: Settings) -> BackendState:
        """Raises AssistantChoiceError (plain language) for incomplete model settings."""
        from workers.model.choose import assistant_from_settings

        assistant = assistant_from_settings(settings)
        make_private_folder(settings.data_dir)  # R64: 0700, and every file in it 0600
        token = settings.resolve_device_token()
        database = Database(settings.resolve_database_url())
        database.migrate()
        sweeper = Sweeper(database, settings.clock, settings.resolve_sweep_interval())
        sweeper.sweep()  # R41: what expired while no instance ran goes before the first request
        make_folders(settings.workspaces_dir)  # R77: every folder the app makes is 0700
        workspaces = Workspaces(settings)
        workspaces.remove_interrupted_saves()  # R43: an interrupted save leaves nothing behind
        return cls(
            settings=settings,
            database=database,
            device_token=token,
            account=account_id(token),
            key_sessions=KeySessions(database, settings),
            deliveries=DeliveryCredentials(database, settings),
            workspaces=workspaces,
            assistants=AssistantHolder(assistant),
            conversations=Conversations(database, settings),
            sweeper=sweeper,
            inline=InlineRecords(database, settings),
        )


# The two below are async only so that FastAPI runs them on the event loop: a plain
# def would cost a worker-thread round trip each on every request, for no I/O at all.
async def get_state(request: Request) -> BackendState:
    state: BackendState = request.app.state.backend
    return state


State = Annotated[BackendState, Depends(get_state)]


async def require_account(request: Request, state: State) -> str:
    """The account behind the bearer token; 401 when it is missing or wrong."""
    scheme, _, presented = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token_matches(presented.strip(), state.device_token):
        raise ApiError(
            401,
            "unauthorized",
            messages.DEVICE_TOKEN_INVALID,
            headers={"WWW-Authenticate": "Bearer"},
        )
    return state.account


Account = Annotated[str, Depends(require_account)]


async def optional_key_session(request: Request) -> str | None:
    """The ``X-Key-Session`` value as sent, or None; checked where the request's work runs."""
    return request.headers.get(KEY_SESSION_HEADER)


OptionalKeySession = Annotated[str | None, Depends(optional_key_session)]


def access_error(denied: AccessDenied) -> ApiError:
    return ApiError(403, denied.code, denied.message)


def check_workspace_id(workspace: str) -> None:
    if not is_workspace_id(workspace):
        raise ApiError(400, "invalid_workspace", WORKSPACE_ID_INVALID)


def require_workspace_key(
    workspace: str, request: Request, state: State, account: Account
) -> KeySession:
    """The key session for ``workspace`` (contract 3): another's, expired or unknown is 403."""
    check_workspace_id(workspace)
    try:
        session = state.key_sessions.check_for_workspace(
            account, request.headers.get(KEY_SESSION_HEADER), workspace
        )
    except AccessDenied as denied:
        raise access_error(denied) from denied
    if not state.workspaces.exists(workspace):
        raise ApiError(
            404, "workspace_not_found", messages.WORKSPACE_NOT_FOUND.format(workspace=workspace)
        )
    return session


WorkspaceKey = Annotated[KeySession, Depends(require_workspace_key)]


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it passes ``limit`` bytes."""
    too_large = ApiError(
        413, "payload_too_large", messages.BODY_TOO_LARGE.format(limit=f"{limit:,}")
    )
    declared = request.headers.get("content-length")
    if declared is not None:
        declared_size = whole_number(declared, 0, 2**63 - 1)
        if declared_size is None:
            raise ApiError(400, "invalid_request", messages.CONTENT_LENGTH_INVALID)
        if declared_size > limit:
            raise too_large
    chunks: list[bytes] = []
    received = 0
    async for chunk in request.stream():
        received += len(chunk)
        if received > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json_model(
    request: Request, model: type[ModelT], limit: int = MAX_JSON_BODY_BYTES
) -> ModelT:
    """Parse a JSON object body into ``model``; every failure is a 400 with a plain message."""
    body = await read_body(request, limit)
    try:
        data: Any = jsontext.loads(body)
    except ValueError as error:
        raise ApiError(400, "invalid_json", messages.BODY_NOT_JSON) from error
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_json", messages.BODY_NOT_JSON)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ApiError(400, "invalid_request", describe_validation(error.errors())) from error


def describe_validation(errors: Any) -> str:
    """One plain sentence for the first validation problem."""
    if not errors:
        return messages.BODY_INVALID.format(detail="unknown problem.")
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    detail = str(first.get("msg", "invalid value")).rstrip(".")
    return messages.BODY_INVALID.format(detail=f"'{where}': {detail}.")
