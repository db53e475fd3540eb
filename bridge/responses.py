"""Reading the backend's answers: a wire model, or the plain-language error a status means.

The backend's own message from its error envelope is used when it sent one, so
the user reads the backend's words; otherwise the status picks a message of
:mod:`bridge.errors`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from bridge import errors
from bridge.agent import not_understood
from bridge.errors import AccessRefused, BackendError, NotFound, RequestRejected

if TYPE_CHECKING:
    import requests

ShapeT = TypeVar("ShapeT", bound=BaseModel)


def read_answer(response: requests.Response, shape: type[ShapeT]) -> ShapeT:
    """The response's JSON read strictly as ``shape`` (a :mod:`bridge.wire` model).

    A body that is not exactly that shape (a field missing or extra, a string where a
    number belongs) is "not understood": nothing half-read reaches the app.
    """
    try:
        return shape.model_validate_json(response.content)
    except ValidationError as error:
        raise not_understood(response.status_code) from error


def read_json(response: requests.Response) -> dict[str, Any]:
    """The response's JSON object; anything else is "not understood"."""
    try:
        body = response.json()
    except ValueError as error:
        raise not_understood(response.status_code) from error
    if not isinstance(body, dict):
        raise not_understood(response.status_code)
    return body


def error_for(response: requests.Response) -> BackendError:
    """The typed failure a response with an unexpected status means."""
    status = response.status_code
    code, message = _envelope(response)
    if status in (401, 403):
        return AccessRefused(message or errors.ACCESS_REFUSED_MESSAGE, status, code)
    if status == 404:
        return NotFound(message or errors.NOT_FOUND_MESSAGE, status, code)
    if status in (400, 413, 422):
        return RequestRejected(message or errors.REJECTED_MESSAGE, status, code)
    if status == 412:
        return errors.PreconditionFailed(message or errors.NOTE_CHANGED_MESSAGE, status, code)
    if status >= 500:
        return BackendError(message or errors.SERVER_FAILED_MESSAGE, status, code)
    return BackendError(message or errors.NOT_UNDERSTOOD_MESSAGE, status, code)


def _envelope(response: requests.Response) -> tuple[str | None, str | None]:
    """The (code, message) of the backend's error envelope, when it sent one."""
    try:
        body = response.json()
    except ValueError:
        return None, None
    if not isinstance(body, dict) or not isinstance(body.get("error"), dict):
        return None, None
    code, message = body["error"].get("code"), body["error"].get("message")
    return (
        code if isinstance(code, str) else None,
        message if isinstance(message, str) and message.strip() else None,
    )
