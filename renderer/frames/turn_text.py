"""Small texts the transcript shares: which assistant answered, and the tools a turn called."""

from __future__ import annotations

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
    """One tool call as a person reads it: its name and what it did, never raw JSON (R80)."""
    about = _described(name, arguments)
    return f"{name} — {about}" if about else name


def _described(name: str, arguments: Mapping[str, Any]) -> str:
    path = _clipped(arguments.get("path"))
    if name == "read_active_note":
        return "read the open note"
    if name == "read_document":
        return f"read {path}" if path else "read a note"
    if name == "list_documents":
        return "listed your notes"
    if name == "search_documents":
        query = _clipped(arguments.get("query"))
        return f"searched your notes for “{query}”" if query else "searched your notes"
    if name == "propose_note_edit":
        edits = arguments.get("edits")
        count = len(edits) if isinstance(edits, list) else 0
        target = path or "the open note"
        summary = _clipped(arguments.get("summary"))
        changes = f"{count} change{'s' if count != 1 else ''}"
        return f"proposed {summary or changes} in {target}"
    # Another tool: its plain values, by name; a nested value only as how many it holds.
    parts = [f"{key}: {_clipped(value) or _count(value)}" for key, value in arguments.items()]
    return _clipped(", ".join(parts))


def _clipped(value: object) -> str:
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    text = " ".join(str(value).split())
    return text if len(text) <= _ARGUMENTS_SHOWN else text[: _ARGUMENTS_SHOWN - 1] + "…"


def _count(value: object) -> str:
    if isinstance(value, list | dict):
        return f"{len(value)} item{'s' if len(value) != 1 else ''}"
    return "…"


def tools_html(calls: Iterable[tuple[str, Mapping[str, Any]]]) -> str:
    """The tools of a turn, one per line, for a rich-text label."""
    return "<br>".join(
        "Used tool: " + escape(tool_text(name, arguments)) for name, arguments in calls
    )
