"""The app factory: opens the backend state and wires the routers and error envelopes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from bridge.connections import RequestLimits
from bridge.wire import envelope
from workers import messages
from workers.dependencies import BackendState, describe_validation
from workers.errors import ApiError
from workers.hosts import LoopbackHostsOnly
from workers.inline import routes as inline
from workers.responses import REFUSALS
from workers.routers import (
    agent,
    assistant,
    conversations,
    documents,
    key_sessions,
    system,
    workspaces,
)
from workers.settings import Settings

logger = logging.getLogger(__name__)


def create_app(settings: Settings) -> FastAPI:
    """A ready app: the database is migrated before this returns."""
    state = BackendState.open(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        sweeping = asyncio.create_task(state.sweeper.run(), name="workers-sweeper")
        try:
            yield
        finally:
            sweeping.cancel()
            with suppress(asyncio.CancelledError):
                await sweeping
            state.assistants.close()
            state.database.close()

    app = FastAPI(
        title="Ambient Notes workers",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.backend = state
    routers = (
        system.router,
        workspaces.router,
        key_sessions.router,
        documents.router,
        agent.router,
        conversations.router,
        assistant.router,
        inline.router,
    )
    for router in routers:
        app.include_router(router, responses=REFUSALS)
    app.add_middleware(RequestLimits, body_timeout=settings.body_timeout_seconds)
    if not settings.any_host:
        app.add_middleware(LoopbackHostsOnly)  # added last, so it runs first
    _install_error_envelopes(app)
    return app


def _install_error_envelopes(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _on_api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(
            envelope(error.code, error.message), status_code=error.status, headers=error.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _on_validation_error(
        _request: Request, error: RequestValidationError
    ) -> JSONResponse:
        return JSONResponse(
            envelope("invalid_request", describe_validation(error.errors())), status_code=400
        )

    @app.exception_handler(StarletteHTTPException)
    async def _on_http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 404:
            body = envelope("not_found", messages.ROUTE_NOT_FOUND)
        elif error.status_code == 405:
            body = envelope("method_not_allowed", messages.METHOD_NOT_ALLOWED)
        else:
            body = envelope("http_error", str(error.detail))
        return JSONResponse(body, status_code=error.status_code, headers=error.headers)

    @app.exception_handler(ClientDisconnect)
    async def _on_client_gone(_request: Request, _error: ClientDisconnect) -> Response:
        # R44: the client left mid-body (or its body timed out); nobody reads this answer,
        # and a client going away is not a server fault worth a traceback.
        return Response(status_code=400)

    @app.exception_handler(Exception)
    async def _on_bug(_request: Request, error: Exception) -> JSONResponse:
        logger.error("Unhandled error", exc_info=error)
        return JSONResponse(envelope("internal_error", messages.INTERNAL_ERROR), status_code=500)
