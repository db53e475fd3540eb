"""Small texts the transcript shares: which assistant answered, and the tools a turn called."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any, Final

from bridge.tools import TOOL_FACTS, clipped

OFFLINE_ASSISTANT = "Offline assistant"


def assistant_name(kind: str, model: str | None) -> str:
    """What the app calls the assistant that answers: "Offline assistant" or the model id (R30)."""
    if kind == "model" and model:
        return model
    return OFFLINE_ASSISTANT


NOT_DONE: Final[Mapping[str, str]] = {
    "no_active_note": "no note open",
    "not_found": "no such note",
    "access_denied": "not allowed",
    "invalid_argument": "not a request it takes",
}
"""The statuses of a tool result that say the tool did nothing, in a person's words
(contract 5); any other (``ok``, a proposal's ``proposed``) did what its call says."""
LEFT_OUT: Final = "left out"


def tool_text(
    name: str,
    arguments: Mapping[str, Any],
    result: Mapping[str, Any] | None = None,
    *,
    note_left_out: bool = False,
) -> str:
    """One tool call as a person reads it: its name and what it did, never raw JSON (R80).

    A call whose result says it did not happen says so (R81): a read of the open note
    that was left out reads "not read: left out", never "read the open note".
    """
    status = None if result is None else result.get("status")
    if isinstance(status, str) and status in NOT_DONE:
        about = _not_done(name, status, note_left_out=note_left_out)
    else:
        about = _described(name, arguments)
    return f"{name} — {about}" if about else name


def _not_done(name: str, status: str, *, note_left_out: bool) -> str:
    facts = TOOL_FACTS.get(name)
    undone = "nothing proposed" if facts is not None and facts.proposes else "not read"
    if status == "no_active_note" and note_left_out:
        return f"{undone}: {LEFT_OUT}"
    return f"{undone}: {NOT_DONE[status]}"


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


ToolLine = tuple[str, Mapping[str, Any], Mapping[str, Any] | None]
"""A call's name, arguments and result (None when only the call is known)."""


def tools_html(calls: Iterable[ToolLine], *, note_left_out: bool = False) -> str:
    """The tools of a turn, one per line, for a rich-text label.

    ``note_left_out``: the person left the open note out of this turn (R48), so a
    read of it that found none says why.
    """
    return "<br>".join(
        "Used tool: " + escape(tool_text(name, arguments, result, note_left_out=note_left_out))
        for name, arguments, result in calls
    )
