"""Choosing the assistant: from the start settings (contract 7) or at run time (R37)."""

from __future__ import annotations

from typing import Final

from bridge.environment import MODEL_BASE_URL_ENV, MODEL_ENV
from workers.assistants import Assistant, OfflineAssistant
from workers.model.assistant import AUTO, ModelAssistant
from workers.model.failures import ModelUnavailable
from workers.settings import Settings

INCOMPLETE: Final = (
    "The model assistant needs both an endpoint URL and a model name "
    f"(--model-base-url and --model, or {MODEL_BASE_URL_ENV} and {MODEL_ENV})."
)


class AssistantChoiceError(ValueError):
    """Settings that name no usable assistant; the message is plain language."""


def make_assistant(
    settings: Settings,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    *,
    first_tool_choice: str = AUTO,
) -> Assistant:
    """The offline assistant without an endpoint and a model, else the model assistant."""
    base_url = (base_url or "").strip() or None
    model = (model or "").strip() or None
    if base_url is None and model is None:
        return OfflineAssistant()
    if base_url is None or model is None:
        raise AssistantChoiceError(INCOMPLETE)
    try:
        return ModelAssistant(
            base_url,
            model,
            api_key or None,
            read_timeout=settings.model_read_timeout_seconds,
            first_tool_choice=first_tool_choice,
        )
    except ModelUnavailable as error:
        raise AssistantChoiceError(error.message) from error


def assistant_from_settings(settings: Settings) -> Assistant:
    """Contract 7: explicit settings, else AMBIENT_MODEL_BASE_URL / AMBIENT_MODEL / _API_KEY."""
    base_url, model, api_key = settings.resolve_model_endpoint()
    return make_assistant(
        settings, base_url, model, api_key, first_tool_choice=settings.model_first_tool_choice
    )
