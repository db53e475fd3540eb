"""The assistant's document tools: the three readers of contract 5, propose_note_edit (10)
and search_documents (12).

Every tool starts with the same step, :func:`_arguments_and_access`: its argument
names and values are checked, then :meth:`ToolContext.open_access` checks the key
session and the delivery row, so each refuses with the same messages as the
document API (R28). The read tools then go through :meth:`Workspaces.read`.
Results are plain JSON objects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, TypeVar

from bridge.caveat import caveat_for, saved_copy_is_behind
from bridge.contract import DEFAULT_MAX_BYTES
from bridge.markdown import locate_selection
from bridge.reading import parse_max_bytes_value, read_result
from workers import messages, search
from workers.deliveries import DeliveryCredential, DeliveryCredentials
from workers.document_files import DocumentRead
from workers.documents import Workspaces
from workers.errors import AccessDenied, DocumentRefused
from workers.identity import KeySession
from workers.proposals import ProposalError, locate_edits, make_proposal, parse_text_edits

ToolResult = dict[str, Any]
ParsedT = TypeVar("ParsedT")


@dataclass(frozen=True)
class ToolContext:
    """What a tool may use during one turn: the turn's key session and conversation."""

    session: KeySession | None
    conversation: str
    deliveries: DeliveryCredentials
    workspaces: Workspaces
    clock: Callable[[], datetime]
    note_left_out: bool = False
    """R48: the user left the open note out of this turn (``"ambient": "excluded"``)."""

    def open_access(self) -> DeliveryCredential:
        """R22, R28: the key session's expiry and the live delivery row, on every call.

        The key itself was checked against the database when the turn arrived; its
        delivery row goes with it (ON DELETE CASCADE), so re-reading the row is enough
        to notice a key that has been removed since.
        """
        if self.session is None:
            raise AccessDenied("key_session_required", messages.KEY_SESSION_MISSING)
        if self.session.expires_at <= self.clock():
            raise AccessDenied("key_session_expired", messages.KEY_SESSION_EXPIRED)
        row = self.deliveries.current(self.session, self.conversation)
        if row is None:
            raise AccessDenied("delivery_expired", messages.DELIVERY_EXPIRED)
        return row


class ToolArgumentError(ValueError):
    """Arguments a tool cannot use; the message is plain language."""


def _check_names(tool: str, arguments: Mapping[str, Any], allowed: set[str]) -> None:
    for name in arguments:
        if name not in allowed:
            raise ToolArgumentError(messages.ARGUMENT_UNKNOWN.format(tool=tool, name=name))


def parse_max_bytes(arguments: Mapping[str, Any]) -> int:
    """R21: default 64 KiB, clamp to 256 KiB; a non-integer or a value below 1 is refused."""
    limit = parse_max_bytes_value(arguments.get("maxBytes", DEFAULT_MAX_BYTES))
    if limit is None:
        raise ToolArgumentError(messages.MAX_BYTES_INVALID)
    return limit


def _read(
    context: ToolContext, workspace: str, path: str, limit: int | None
) -> DocumentRead | ToolResult:
    try:
        return context.workspaces.read(workspace, path, limit)
    except DocumentRefused as refusal:
        status = {"not_found": "not_found", "outside": "access_denied"}.get(
            refusal.kind, "invalid_argument"
        )
        return read_result(status, refusal.message, path=path)


def _arguments_and_access(
    context: ToolContext,
    tool: str,
    arguments: Mapping[str, Any],
    allowed: set[str],
    parse: Callable[[Mapping[str, Any]], ParsedT],
    *,
    empty: Mapping[str, Any] | None = None,
    denied_fields: Callable[[ParsedT], Mapping[str, Any]] | None = None,
) -> tuple[ParsedT, DeliveryCredential] | ToolResult:
    """The step every tool starts with: its arguments checked, then access (R22, R28).

    Returns the parsed arguments and the live delivery row, or the refusal to give
    back as the tool's result: ``empty`` holds the tool's own empty fields, and
    ``denied_fields`` what an access refusal says about the parsed arguments.
    """
    try:
        _check_names(tool, arguments, allowed)
        parsed = parse(arguments)
    except ToolArgumentError as error:
        return read_result("invalid_argument", str(error), **(empty or {}))
    try:
        return parsed, context.open_access()
    except AccessDenied as denied:
        named = denied_fields(parsed) if denied_fields else {}
        return read_result("access_denied", denied.message, **(empty or {}), **named)


def read_active_note(context: ToolContext, arguments: Mapping[str, Any]) -> ToolResult:
    """The saved copy of the note the user has open (R21–R28)."""
    opened = _arguments_and_access(
        context, "read_active_note", arguments, {"maxBytes"}, parse_max_bytes
    )
    if isinstance(opened, dict):
        return opened
    limit, row = opened
    if row.ambient_path is None:
        if context.note_left_out:  # R48: there may well be a note open; it was left out
            return read_result("no_active_note", messages.NOTE_LEFT_OUT)
        return read_result("no_active_note", messages.NO_ACTIVE_NOTE)  # R27
    read = _read(context, row.workspace, row.ambient_path, limit)
    if not isinstance(read, DocumentRead):
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


def _document_arguments(arguments: Mapping[str, Any]) -> tuple[str, int]:
    path = arguments.get("path")
    if not isinstance(path, str) or not path:
        raise ToolArgumentError(messages.PATH_ARGUMENT_MISSING)
    return path, parse_max_bytes(arguments)


def read_document(context: ToolContext, arguments: Mapping[str, Any]) -> ToolResult:
    """A named note's saved copy, with the same limits and access messages (R23, R28)."""
    opened = _arguments_and_access(
        context,
        "read_document",
        arguments,
        {"path", "maxBytes"},
        _document_arguments,
        denied_fields=lambda parsed: {"path": parsed[0]},
    )
    if isinstance(opened, dict):
        return opened
    (path, limit), row = opened
    read = _read(context, row.workspace, path, limit)
    if not isinstance(read, DocumentRead):
        return read
    return read_result("ok", path=read.path, text=read.text, size=read.size, partial=read.partial)


def _prefix_argument(arguments: Mapping[str, Any]) -> str:
    prefix = arguments.get("prefix", "")
    if not isinstance(prefix, str):
        raise ToolArgumentError(messages.PREFIX_INVALID)
    return prefix


def list_documents(context: ToolContext, arguments: Mapping[str, Any]) -> ToolResult:
    """The workspace listing, optionally under a path prefix."""
    opened = _arguments_and_access(
        context, "list_documents", arguments, {"prefix"}, _prefix_argument, empty={"documents": []}
    )
    if isinstance(opened, dict):
        return opened
    prefix, row = opened
    listing = context.workspaces.list(row.workspace, prefix)
    return read_result("ok", documents=[info.to_json() for info in listing])


def _search_arguments(arguments: Mapping[str, Any]) -> tuple[str, str]:
    query = arguments.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolArgumentError(messages.QUERY_MISSING)
    if len(query) > search.MAX_QUERY_CHARS:
        raise ToolArgumentError(messages.QUERY_TOO_LONG.format(limit=search.MAX_QUERY_CHARS))
    return query.strip(), _prefix_argument(arguments)


def search_documents(context: ToolContext, arguments: Mapping[str, Any]) -> ToolResult:
    """R56: the notes (at most 50) and their lines (at most 5) that mention ``query``, any case."""
    opened = _arguments_and_access(
        context,
        "search_documents",
        arguments,
        {"query", "prefix"},
        _search_arguments,
        empty={"matches": []},
    )
    if isinstance(opened, dict):
        return opened
    (query, prefix), row = opened
    found = search.search_workspace(context.workspaces, row.workspace, query, prefix)
    return read_result("ok", matches=[match.to_json() for match in found])


def _proposal_arguments(arguments: Mapping[str, Any]) -> tuple[str | None, Any, str]:
    path = arguments.get("path")
    if path is not None and (not isinstance(path, str) or not path):
        raise ToolArgumentError(messages.PATH_ARGUMENT_MISSING)
    summary = arguments.get("summary", "")
    if not isinstance(summary, str):
        raise ToolArgumentError(messages.SUMMARY_INVALID)
    try:
        edits = parse_text_edits(arguments.get("edits"))
    except ProposalError as error:
        raise ToolArgumentError(str(error)) from error
    return path, edits, summary


def propose_note_edit(context: ToolContext, arguments: Mapping[str, Any]) -> ToolResult:
    """A proposed change to a note's saved copy, read as read_document reads it (R50, R54).

    The note is never written here: the app shows the proposal and applies it.
    """
    opened = _arguments_and_access(
        context,
        "propose_note_edit",
        arguments,
        {"path", "edits", "summary"},
        _proposal_arguments,
        denied_fields=lambda parsed: {"path": parsed[0]},
    )
    if isinstance(opened, dict):
        return opened
    (path, pairs, summary), row = opened
    if path is None:
        if row.ambient_path is None:
            left_out = context.note_left_out
            return read_result(
                "no_active_note", messages.NOTE_LEFT_OUT if left_out else messages.NO_ACTIVE_NOTE
            )
        path = row.ambient_path
    read = _read(context, row.workspace, path, None)
    if not isinstance(read, DocumentRead):
        return read
    text = read.text
    try:
        edits = locate_edits(text, pairs)
    except ProposalError as error:
        return read_result("invalid_argument", str(error), path=path)
    proposal = make_proposal(read.path, read.data, edits, summary)
    return read_result("proposed", path=read.path, proposal=proposal)


Tool = Callable[[ToolContext, Mapping[str, Any]], ToolResult]

TOOLS: Final[Mapping[str, Tool]] = {
    "read_active_note": read_active_note,
    "read_document": read_document,
    "list_documents": list_documents,
    "search_documents": search_documents,
    "propose_note_edit": propose_note_edit,
}


def refusal(status: str, message: str) -> ToolResult:
    """A tool result that refuses a call before any tool ran (an unknown tool, bad JSON)."""
    return read_result(status, message)
