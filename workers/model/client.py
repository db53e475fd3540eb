"""The openai SDK's client for one endpoint, and the headers each request carries (R36)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridge.contract import MODEL_CONNECT_TIMEOUT_SECONDS
from workers.model import connection

if TYPE_CHECKING:
    import openai


def open_client(base_url: str, api_key: str | None, read_timeout: float) -> openai.OpenAI:
    """An SDK client for the endpoint: no retries, connecting gives up within 10 s.

    The SDK is imported here, when a model is configured: it takes longer to load than
    the rest of the backend, and the offline assistant never needs it (R67).
    """
    import openai

    return openai.OpenAI(
        base_url=base_url,
        # The SDK insists on a key; without one, key_headers() leaves Authorization out.
        api_key=api_key or "unused",
        timeout=openai.Timeout(read_timeout, connect=MODEL_CONNECT_TIMEOUT_SECONDS),
        max_retries=0,  # a failure is reported at once (R36); the user retries
        http_client=connection.http_client(),
    )


def key_headers(api_key: str | None) -> dict[str, Any]:
    """Per-request headers: without a key no Authorization header is sent at all."""
    import openai

    return {} if api_key else {"Authorization": openai.Omit()}
