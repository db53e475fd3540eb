"""Small texts the transcript shares: which assistant answered, and the tools a turn called."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

OFFLINE_ASSISTANT = "Offline assistant"
_ARGUMENTS_SHOWN = 120


def assistant_name(kind: str, model: str | None) -> str:
    """What the app calls the assistant that answers: "Offline assistant" or the model id (R30)."""
    if kind == "model" and model:
        return model
    return OFFLINE_ASSISTANT


def tool_text(name: str, arguments: Mapping[str, Any]) -> str:
    """One tool call as plain text: its name and, when it had any, its arguments."""
    if not arguments:
        return name
    shown = json.dumps(dict(arguments), ensure_ascii=False)
    if len(shown) > _ARGUMENTS_SHOWN:
        shown = shown[:_ARGUMENTS_SHOWN] + "…"
    return f"{name} {shown}"


def tools_html(calls: Iterable[tuple[str, Mapping[str, Any]]]) -> str:
    """The tools of a turn, one per line, for a rich-text label."""
    return "<br>".join(
        "Used tool: " + escape(tool_text(name, arguments)) for name, arguments in calls
    )
