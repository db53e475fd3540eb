"""What the model is told: the system message, the five tools and the conversation (R31–R34).

The system message names the open note (path, view, selection, byte count,
``flushed``) and says that its text comes from ``read_active_note``; it never
holds note text (R31). The backend may read the saved copy itself to turn the
selection's UTF-16 offsets into line numbers, and only when that copy is the one
on screen (same size and hash as the pointer); the text itself stays here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from bridge.contract import MAX_MAX_BYTES, SEARCH_MAX_LINES, SEARCH_MAX_NOTES
from bridge.markdown import locate_selection
from bridge.pointer import AmbientPointer
from bridge.reading import MAX_BYTES_SCHEMA
from workers.conversations import StoredMessage
from workers.errors import DocumentRefused
from workers.messages import NO_ACTIVE_NOTE, NOTE_LEFT_OUT
from workers.model.stops import model_words
from workers.offline.intents import classify
from workers.tools import ToolContext

TOOL_SCHEMAS: Final[list[dict[str, Any]]] = [
    {
        "type": "function",
        "function": {
            "name": "read_active_note",
            "description": (
                'Read the saved text of the note the user has open ("this note"). Call it '
                "first for any request that names no note, and again on every new turn."
            ),
            "parameters": {
                "type": "object",
                "properties": {"maxBytes": MAX_BYTES_SCHEMA},
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_document",
            "description": "Read the saved text of a note named by its workspace path.",
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "The note's workspace path, such as notes/today.md.",
                    },
                    "maxBytes": MAX_BYTES_SCHEMA,
                },
                "required": ["path"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "list_documents",
            "description": "List the notes in the workspace, optionally under a path prefix.",
            "parameters": {
                "type": "object",
                "properties": {
                    "prefix": {
                        "type": "string",
                        "description": "Only notes whose path starts with this, such as notes/.",
                    }
                },
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_documents",
            "description": (
                "Find the notes that mention some words, with their matching lines "
                f"(any case; at most {SEARCH_MAX_NOTES} notes and {SEARCH_MAX_LINES} lines each)."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "The words to look for."},
                    "prefix": {
                        "type": "string",
                        "description": "Only notes whose path starts with this, such as notes/.",
                    },
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "propose_note_edit",
            "description": (
                "Propose a change to a note (the open one unless a path is given). The user "
                "reviews it and applies it; nothing changes until then. Each oldText must be "
                "copied exactly from the note and occur in it exactly once."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "The note's workspace path; omit it for the open note.",
                    },
                    "edits": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": 50,
                        "items": {
                            "type": "object",
                            "properties": {
                                "oldText": {"type": "string", "minLength": 1},
                                "newText": {"type": "string"},
                            },
                            "required": ["oldText", "newText"],
                            "additionalProperties": False,
                        },
                    },
                    "summary": {
                        "type": "string",
                        "description": "One line saying what the change does.",
                    },
                },
                "required": ["edits"],
                "additionalProperties": False,
            },
        },
    },
]
"""R32, R54, R56: the three tools of contract 5, propose_note_edit (10), search_documents (12)."""

INSTRUCTIONS: Final = (
    "You are the assistant in Ambient Notes, a notes app. Answer in the language of the "
    "user's message, briefly, in Markdown.\n"
    "Tools: read_active_note reads the open note; read_document reads a note by its "
    "workspace path; list_documents lists the notes; search_documents finds the notes "
    "that mention some words; propose_note_edit proposes a change to a note, which the "
    "user reviews and applies (read the note first).\n"
    'For a request about "this", "this note", "summarise this" or anything that names no '
    "note, call read_active_note first, and call it again on every new turn: the note may "
    "have changed, and tool results of earlier turns are not kept. For a named note, use "
    "read_document. Answer only from what the tools return; if a result has a caveat, "
    "tell the user."
)
NOTE_OPEN: Final = (
    "The user has a note open: path {path}, {view} view, {size} bytes, {flushed}. {selection}"
    "Its text is not in this message: read it with read_active_note."
)
FLUSHED: Final = "saved just before this message"
NOT_FLUSHED: Final = (
    "not completely saved before this message (flushed: false), so the saved copy may miss "
    "the latest keystrokes"
)
SELECTED_LINES: Final = "The user has selected lines {first}–{last}. "
SELECTED_LINE: Final = "The user has selected text on line {first}. "
CURSOR_LINE: Final = "The cursor is on line {first}. "
SELECTED_OFFSETS: Final = "The user has selected characters {start}–{end} (UTF-16 offsets). "
CURSOR_OFFSET: Final = "The cursor is at character {start} (a UTF-16 offset). "
NO_WORKSPACE: Final = "No workspace is open, so the tools cannot read any note."
REPLY_IN: Final = "Answer in {language}."
"""Short: each byte of the prompt is read before the answer's first word (R75)."""
LANGUAGE_NAMES: Final = {
    "en": "English",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "ja": "Japanese",
    "zh": "Chinese",
    "ko": "Korean",
}
"""The offline classifier's languages (R38), named for the model (R75)."""


def reply_language(message: str) -> str:
    """The sentence naming the ask's language, as the offline classifier detects it."""
    code = classify(message).language
    return REPLY_IN.format(language=LANGUAGE_NAMES.get(code, LANGUAGE_NAMES["en"]))


def system_message(context: ToolContext, pointer: AmbientPointer | None) -> str:
    """R31, R33: the instructions and the open note's metadata; never its text."""
    if context.session is None:
        return f"{INSTRUCTIONS}\n{NO_WORKSPACE}"
    if pointer is None:
        # The same sentences read_active_note returns, so the model hears one account (R27, R48).
        absent = NOTE_LEFT_OUT if context.note_left_out else NO_ACTIVE_NOTE
        return f"{INSTRUCTIONS}\n{absent}"
    note = NOTE_OPEN.format(
        path=json.dumps(pointer.path, ensure_ascii=False),
        view=pointer.view,
        size=f"{pointer.bytes:,}",
        flushed=FLUSHED if pointer.flushed else NOT_FLUSHED,
        selection=_selection(context, pointer),
    )
    return f"{INSTRUCTIONS}\n{note}"


def _selection(context: ToolContext, pointer: AmbientPointer) -> str:
    if pointer.selection is None:
        return ""
    start = min(pointer.selection.anchor, pointer.selection.head)
    end = max(pointer.selection.anchor, pointer.selection.head)
    lines = _lines(context, pointer, start, end)
    if lines is None:
        template = CURSOR_OFFSET if start == end else SELECTED_OFFSETS
        return template.format(start=start, end=end)
    first, last = lines
    if start == end:
        return CURSOR_LINE.format(first=first)
    if first == last:
        return SELECTED_LINE.format(first=first)
    return SELECTED_LINES.format(first=first, last=last)


def _lines(
    context: ToolContext, pointer: AmbientPointer, start: int, end: int
) -> tuple[int, int] | None:
    """1-based lines of the two offsets, when the saved copy is what the user sees."""
    if context.session is None or pointer.bytes > MAX_MAX_BYTES:
        return None
    try:
        read = context.workspaces.read(context.session.workspace, pointer.path, MAX_MAX_BYTES)
    except (DocumentRefused, OSError):
        return None
    if read.partial or read.size != pointer.bytes:
        return None
    if context.workspaces.sha16(read) != pointer.sha256:
        return None
    found = locate_selection(read.text, start, end)
    if found is None:
        return None
    return found.first_line + 1, found.last_line + 1


def conversation_messages(
    context: ToolContext,
    pointer: AmbientPointer | None,
    history: Sequence[StoredMessage],
    message: str,
) -> list[dict[str, Any]]:
    """The first request's messages: system, earlier turns as user/assistant, the message.

    Earlier turns carry their text only: their tool results are never sent again (R33),
    and a reply the backend wrote for a model that gave none is left out (R75). The
    system message ends by naming the language of the ask (R75).
    """
    system = f"{system_message(context, pointer)}\n{reply_language(message)}"
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for item in history:
        # The backend's stop messages are its words, not the model's (R75): never sent back.
        text = model_words(item.text) if item.role == "assistant" else item.text
        if text:
            messages.append({"role": item.role, "content": text})
    messages.append({"role": "user", "content": message})
    return messages
