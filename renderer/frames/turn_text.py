"""Small texts the transcript shares: which assistant answered, and the tools a turn called."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from bridge.tools import TOOL_FACTS, clipped

OFFLINE_ASSISTANT = "Offline assistant"


def assistant_name(kind: str, model: str | None) -> str:
    """What the app calls the assistant that answers: "Offline assistant" or the model id (R30)."""
    if kind == "model" and model:
        return model
    return OFFLINE_ASSISTANT


def tool_text(name: str, arguments: Mapping[str, Any]) -> str:
    """One tool call as a person reads it: its name and what it did, never raw JSON (R80)."""
    about = _described(name, arguments)
    return f"{name} — {about}" if about else name


def _described(name: str, arguments: Mapping[str, Any]) -> str:
    facts = TOOL_FACTS.get(name)
    if facts is not None:
        return facts.did(arguments)
    # Another tool: its plain values, by name; a nested value only as how many it holds.
    parts = [f"{key}: {clipped(value) or _count(value)}" for key, value in arguments.items()]
    return clipped(", ".join(parts))


def _count(value: object) -> str:
    if isinstance(value, list | dict):
        return f"{len(value)} item{'s' if len(value) != 1 else ''}"
    return "…"


def tools_html(calls: Iterable[tuple[str, Mapping[str, Any]]]) -> str:
    """The tools of a turn, one per line, for a rich-text label."""
    return "<br>".join(
        "Used tool: " + escape(tool_text(name, arguments)) for name, arguments in calls
    )
