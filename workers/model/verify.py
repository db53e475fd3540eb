"""Verify an endpoint before saving it (R37): does it list models, does the model take tools?"""

from __future__ import annotations

from typing import Any, Final

from bridge.wire import Verification
from workers.model import failures
from workers.model.client import key_headers, open_client
from workers.model.prompt import TOOL_SCHEMAS

LISTED: Final = "{endpoint} answers and offers {count} model(s)."
NOT_LISTED: Final = "{endpoint} has no model '{model}'. It offers: {models}. Choose one of those."
WORKS: Final = "{endpoint} answered a request to '{model}' with the note tools: it is ready."
_PROBE: Final = [{"role": "user", "content": "Reply with the word ready."}]


def verify_endpoint(
    base_url: str, model: str | None, api_key: str | None, read_timeout: float
) -> Verification:
    """``GET {base}/models``, then, with a model, one small request that offers the tools."""
    try:
        base = failures.check_base_url(base_url, api_key)
    except failures.ModelUnavailable as error:
        return Verification(ok=False, message=error.message, models=[])
    endpoint = failures.endpoint_name(base)
    headers = key_headers(api_key)
    with open_client(base, api_key, read_timeout) as client:
        models: list[str] = []
        try:
            models = [str(item.id) for item in client.models.list(extra_headers=headers)]
        except Exception as error:
            failure = failures.from_sdk(error, base, model or "")
            # Some servers list no models (404); the chat request below still tells.
            if getattr(error, "status_code", None) != 404 or model is None:
                return Verification(ok=False, message=failure.message, models=[])
        if not model:
            return Verification(
                ok=True,
                message=LISTED.format(endpoint=endpoint, count=len(models)),
                models=models,
            )
        if models and model not in models:
            listed = ", ".join(models[:20])
            return Verification(
                ok=False,
                message=NOT_LISTED.format(endpoint=endpoint, model=model, models=listed),
                models=models,
            )
        try:
            probe: dict[str, Any] = {
                "model": model,
                "messages": _PROBE,
                "tools": TOOL_SCHEMAS,
                "tool_choice": "auto",
                "max_tokens": 16,
                "extra_headers": headers,
            }
            completion = client.chat.completions.create(**probe, stream=False)
            completion.choices[0].message  # noqa: B018 - a malformed answer raises here
        except Exception as error:
            return Verification(
                ok=False, message=failures.from_sdk(error, base, model).message, models=models
            )
    return Verification(
        ok=True, message=WORKS.format(endpoint=endpoint, model=model), models=models
    )
