"""What the model is told: the system message, the tools and the conversation (R31–R34).

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

from bridge.contract import MAX_MAX_BYTES
from bridge.markdown import locate_selection
from bridge.pointer import AmbientPointer
from bridge.privacy import OPEN_NOTE_PRIVATE
from workers.conversations import StoredMessage
from workers.errors import DocumentRefused
from workers.messages import NO_ACTIVE_NOTE, NOTE_LEFT_OUT
from workers.model.stops import model_words
from workers.offline.table import classify
from workers.tools import DECLARATIONS, OPEN_NOTE_TOOL, ToolContext, read_document

TOOL_SCHEMAS: Final[list[dict[str, Any]]] = [tool.schema() for tool in DECLARATIONS]
"""R32, R54, R56: the three tools of contract 5, propose_note_edit (10), search_documents (12),
each generated from its declaration's arguments model."""

_TOOL_SENTENCE: Final = "Tools: " + "; ".join(f"{t.name} {t.instruction}" for t in DECLARATIONS)
INSTRUCTIONS: Final = (
    "You are the assistant in Ambient Notes, a notes app. Answer in the language of the "
    "user's message, briefly, in Markdown.\n"
    f"{_TOOL_SENTENCE}.\n"
    'For a request about "this", "this note", "summarise this" or anything that names no '
    f"note, call {OPEN_NOTE_TOOL} first, and call it again on every new turn: the note may "
    "have changed, and tool results of earlier turns are not kept. For a named note, use "
    f"{read_document.name}. Answer only from what the tools return; if a result has a caveat, "
    "tell the user."
)
NOTE_OPEN: Final = (
    "The user has a note open: path {path}, {view} view, {size} bytes, {flushed}. {selection}"
    f"Its text is not in this message: read it with {OPEN_NOTE_TOOL}."
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
        if context.note_private:
            absent = OPEN_NOTE_PRIVATE  # R86: said, never the note's name or size
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
