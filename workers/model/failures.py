"""Provider failures in plain language, each naming the endpoint as ``host:port`` (R36).

Every way a provider can fail (unreachable, refused key, rate limit, 5xx, time
out, a malformed answer, a model without tool calling) becomes one
:class:`ModelUnavailable`, answered as 502 ``model_unavailable`` or as a streamed
``error`` event. The API key never appears in a message.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from bridge.endpoints import key_refusal

CODE: Final = "model_unavailable"

UNREACHABLE: Final = (
    "The model endpoint {endpoint} can't be reached. Check the endpoint URL in the "
    "assistant settings and that the model server is running."
)
TIMED_OUT: Final = (
    "The model endpoint {endpoint} did not answer in time. Check that the server is "
    "running and not overloaded, then try again."
)
KEY_REFUSED: Final = (
    "The model endpoint {endpoint} refused the API key (HTTP {status}). Check the API key "
    "in the assistant settings."
)
RATE_LIMITED: Final = (
    "The model endpoint {endpoint} is rate limiting requests (HTTP 429). Wait a moment and "
    "try again, or check your plan's limits."
)
SERVER_FAILED: Final = (
    "The model endpoint {endpoint} had a server error (HTTP {status}). Try again; if it "
    "keeps happening, check the model server's log."
)
NOT_FOUND: Final = (
    "The model endpoint {endpoint} has no model '{model}' or no chat-completions route "
    "(HTTP 404). Check the model name and that the URL ends in /v1."
)
REFUSED: Final = (
    "The model endpoint {endpoint} refused the request (HTTP {status}). Check that the model "
    "'{model}' supports tool calling (function calling) and that the settings are right."
)
MALFORMED: Final = (
    "The model endpoint {endpoint} sent an answer that is not an OpenAI-compatible chat "
    "completion. Check that the URL points at an OpenAI-compatible /v1 endpoint."
)
NO_TOOLS: Final = (
    "The model '{model}' at {endpoint} does not seem to support tool calling: it answered "
    "with a tool call written as text. Choose a model that supports tools."
)
BAD_ADDRESS: Final = (
    "The model endpoint '{url}' is not a usable web address. Enter an address such as "
    "http://127.0.0.1:8080/v1."
)


class ModelUnavailable(Exception):
    """The turn could not be answered by the model; ``message`` is shown as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = CODE
        self.message = message


def endpoint_name(base_url: str) -> str:
    """``host:port`` of the endpoint (the scheme's default port when none is written)."""
    try:
        parts = urlsplit(base_url)
        port = parts.port
    except ValueError:
        return base_url
    host = parts.hostname or base_url
    if ":" in host:
        host = f"[{host}]"
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    return f"{host}:{port}"


def check_base_url(base_url: str, api_key: str | None = None) -> str:
    """The base URL without a trailing slash; ModelUnavailable when it is not http(s).

    R61: also when it carries credentials, or when ``api_key`` would go over plain
    http to a host that is not loopback.
    """
    refusal = key_refusal(base_url, api_key)
    if refusal is not None:
        raise ModelUnavailable(refusal)
    try:
        parts = urlsplit(base_url.strip())
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        raise ModelUnavailable(BAD_ADDRESS.format(url=base_url)) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelUnavailable(BAD_ADDRESS.format(url=base_url))
    return base_url.strip().rstrip("/")


def from_sdk(error: Exception, base_url: str, model: str) -> ModelUnavailable:
    """The plain-language failure for an exception of the openai SDK (or of parsing)."""
    import openai  # only a configured model raises these: the SDK loads when one is used

    endpoint = endpoint_name(base_url)
    if isinstance(error, openai.APITimeoutError):
        return ModelUnavailable(TIMED_OUT.format(endpoint=endpoint))
    if isinstance(error, openai.APIConnectionError):
        return ModelUnavailable(UNREACHABLE.format(endpoint=endpoint))
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        if status in (401, 403):
            message = KEY_REFUSED
        elif status == 429:
            message = RATE_LIMITED
        elif status == 404:
            message = NOT_FOUND
        elif status >= 500:
            message = SERVER_FAILED
        else:
            message = REFUSED
        return ModelUnavailable(message.format(endpoint=endpoint, status=status, model=model))
    return ModelUnavailable(MALFORMED.format(endpoint=endpoint))


_NOT_A_REFUSAL: Final = frozenset({401, 403, 404, 429})
"""Statuses that a request without streaming would get as well: asking again is no use."""


def refused_stream(error: BaseException) -> bool:
    """True when a streamed request failed in a way that asking without streaming may cure.

    llama-cpp-python's server answers a streamed request with automatic tool choice
    200 and then drops the connection (a reset, or a close mid-body) when the model
    picks a tool; other servers refuse the combination with a 4xx or 5xx status. An
    endpoint that cannot be reached, or that is slow, is not refusing anything.
    """
    import httpx2  # loaded with the SDK, only once a model is used (R67)
    import openai

    if isinstance(error, openai.APIStatusError):
        return error.status_code not in _NOT_A_REFUSAL
    if isinstance(error, openai.APITimeoutError | httpx2.TimeoutException):
        return False
    if isinstance(error, openai.APIConnectionError):
        return not isinstance(error.__cause__, httpx2.ConnectError | httpx2.TimeoutException)
    return isinstance(error, httpx2.TransportError)
