"""``read_active_note {maxBytes?}``: the saved copy of the note the user has open (R21–R28)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bridge.caveat import caveat_for, saved_copy_is_behind
from bridge.contract import DEFAULT_MAX_BYTES
from bridge.markdown import locate_selection
from bridge.reading import read_result
from bridge.tools import READ_ACTIVE_NOTE
from workers.deliveries import DeliveryCredential
from workers.document_files import DocumentRead
from workers.documents import Workspaces
from workers.tools.context import ToolContext, ToolResult, no_open_note, read_saved_copy
from workers.tools.declaration import MaxBytes, ToolArguments, ToolDeclaration


class ReadActiveNoteArguments(ToolArguments):
    max_bytes: MaxBytes = DEFAULT_MAX_BYTES


def _read_active_note(
    context: ToolContext, arguments: ReadActiveNoteArguments, row: DeliveryCredential
) -> ToolResult:
    if row.ambient_path is None:
        return no_open_note(context)  # R27; R48: there may well be a note open, left out
    read = read_saved_copy(
        context, row.workspace, row.ambient_path, arguments.max_bytes, active=True
    )
    if not isinstance(read, DocumentRead):
        if read["status"] == "private":
            return read  # R86: not even the view of a private note
        read["view"] = row.ambient_view
        return read
    meta = row.ambient_meta or {}
    behind = read.partial or _saved_copy_is_behind(context.workspaces, read, meta)
    text = read.text  # decoded once: the property decodes on every access
    return read_result(
        "ok",
        path=read.path,
        view=row.ambient_view,
        text=text,
        size=read.size,
        partial=read.partial,
        caveat=caveat_for(behind=behind, partial=read.partial),  # R25, R26
        selection=_selection(text, meta, located=not behind),
    )


def _selection(text: str, meta: Mapping[str, Any], *, located: bool) -> Any:
    """The pointer's non-empty selection; its text and 1-based lines when the saved copy matches.

    The offsets describe the text on screen, so they can only be trusted in a saved
    copy whose hash matches the pointer; otherwise ``text`` and the lines are null.
    """
    selection = meta.get("selection")
    if not isinstance(selection, dict):
        return None
    anchor, head = selection.get("anchor"), selection.get("head")
    if not isinstance(anchor, int) or not isinstance(head, int) or anchor == head:
        return None
    found = locate_selection(text, anchor, head) if located else None
    return {
        "anchor": anchor,
        "head": head,
        "text": found.text if found else None,
        "firstLine": found.first_line + 1 if found else None,
        "lastLine": found.last_line + 1 if found else None,
    }


def _saved_copy_is_behind(
    workspaces: Workspaces, read: DocumentRead, meta: Mapping[str, Any]
) -> bool:
    return saved_copy_is_behind(
        pointed_bytes=meta.get("bytes"),
        pointed_sha256=meta.get("sha256"),
        flushed=meta.get("flushed"),
        saved_bytes=read.size,
        saved_sha256=lambda: workspaces.sha16(read),
    )


TOOL: ToolDeclaration[ReadActiveNoteArguments] = ToolDeclaration(
    facts=READ_ACTIVE_NOTE,
    arguments=ReadActiveNoteArguments,
    handler=_read_active_note,
    description=(
        'Read the saved text of the note the user has open ("this note"). Call it '
        "first for any request that names no note, and again on every new turn."
    ),
    instruction="reads the open note",
)
