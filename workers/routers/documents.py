"""The document API: the only way note text moves (contract 3, R16).

- ``GET /v1/workspaces/{ws}/documents[?prefix=P]`` → the sorted listing.
- ``GET /v1/workspaces/{ws}/documents/{path}`` → the saved UTF-8 text. Each read waits
  ``Settings.load_delay_seconds`` first, so QA can send while a note is still loading.
- ``GET`` of a note over 10 MiB (the PUT's limit) is 413 ``too_large`` (R63).
- ``PUT /v1/workspaces/{ws}/documents/{path}`` → atomic save; body over 10 MiB is 413,
  invalid UTF-8 400. ``If-Match`` / ``If-None-Match: *`` make it conditional: 412
  ``note_changed`` / ``note_exists`` and nothing written (R53). GET and a successful
  PUT answer the strong ``ETag`` (the quoted full SHA-256 of the bytes). Each save
  waits ``Settings.save_delay_seconds`` first, so QA can stall a flush.

Every request needs ``X-Key-Session`` for ``ws`` (403 otherwise). Path rules live in
:mod:`workers.documents`; a refused path is 400 and nothing outside the workspace is
touched.
"""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from bridge.contract import MAX_DOCUMENT_BYTES
from bridge.documents import etag_of
from bridge.wire import DocumentEntry, DocumentListing, DocumentSaved
from workers import messages
from workers.dependencies import State, WorkspaceKey, read_body
from workers.document_files import DocumentRead, WritePrecondition
from workers.errors import ApiError, DocumentRefused
from workers.responses import PLAIN_TEXT_DOCUMENT, SAVED_DOCUMENT

router = APIRouter(prefix="/v1/workspaces/{workspace}/documents", tags=["documents"])


def refusal_error(refusal: DocumentRefused) -> ApiError:
    status = {"not_found": 404, "changed": 409, "too_large": 413, "precondition": 412}.get(
        refusal.kind, 400
    )
    return ApiError(status, refusal.code, refusal.message)


# The document routes are hot (every open, autosave and refresh): each builds its
# answer itself and returns a Response, which FastAPI passes on unvalidated. The
# models document the answers; tests/workers/test_openapi.py validates real ones.
@router.get("", response_model=DocumentListing)
async def list_documents(
    state: State,
    session: WorkspaceKey,
    prefix: Annotated[str, Query(max_length=4096)] = "",
) -> JSONResponse:
    listing = await run_in_threadpool(state.workspaces.list, session.workspace, prefix)
    return JSONResponse({"documents": [info.model_dump() for info in listing]})


@router.get("/{path:path}", response_class=Response, responses=PLAIN_TEXT_DOCUMENT)
async def get_document(path: str, state: State, session: WorkspaceKey) -> Response:
    def read() -> DocumentRead:
        if state.settings.load_delay_seconds > 0:
            time.sleep(state.settings.load_delay_seconds)  # QA: a note that is slow to open
        return state.workspaces.read(session.workspace, path)

    try:
        document = await run_in_threadpool(read)
    except DocumentRefused as refusal:
        raise refusal_error(refusal) from refusal
    return Response(
        document.data,
        media_type="text/plain; charset=utf-8",
        headers={"ETag": etag_of(document.data)},
    )


def precondition_of(request: Request) -> WritePrecondition | None:
    """The PUT's ``If-Match`` / ``If-None-Match`` as a precondition (RFC 9110 strong compare).

    A weak tag (``W/"..."``) never matches strongly, so it matches nothing here.
    """
    if_match = request.headers.get("if-match")
    if_none_match = request.headers.get("if-none-match")
    if if_match is None and if_none_match is None:
        return None
    matches: frozenset[str] | None = None
    if if_match is not None:
        matches = frozenset(
            "*" if tag == "*" else tag.strip('"').lower()
            for tag in (part.strip() for part in if_match.split(","))
            if tag == "*" or (tag.startswith('"') and tag.endswith('"') and len(tag) >= 2)
        )
    absent = if_none_match is not None and if_none_match.strip() == "*"
    return WritePrecondition(matches=matches, absent=absent)


@router.put("/{path:path}", response_model=DocumentSaved, responses=SAVED_DOCUMENT)
async def put_document(
    path: str, request: Request, state: State, session: WorkspaceKey
) -> JSONResponse:
    body = await read_body(request, MAX_DOCUMENT_BYTES)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ApiError(400, "invalid_utf8", messages.DOCUMENT_NOT_UTF8) from error

    def save() -> DocumentEntry:
        if state.settings.save_delay_seconds > 0:
            time.sleep(state.settings.save_delay_seconds)  # QA: stall the flush on purpose
        return state.workspaces.write(session.workspace, path, text, precondition_of(request))

    try:
        info = await run_in_threadpool(save)
    except DocumentRefused as refusal:
        raise refusal_error(refusal) from refusal
    return JSONResponse(
        {"path": info.path, "bytes": info.bytes, "sha256": info.sha256},
        headers={"ETag": etag_of(body)},
    )
