"""``propose_note_edit {path?, edits, summary?}`` (R50, R54, contract 10): a proposed change to
a note's saved copy, read as ``read_document`` reads it.

The note is never written here: the app shows the proposal and applies it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from bridge.reading import read_result
from bridge.tools import PROPOSE_NOTE_EDIT
from workers import messages
from workers.deliveries import DeliveryCredential
from workers.document_files import DocumentRead
from workers.proposals import (
    MAX_EDITS,
    ProposalError,
    locate_edits,
    make_proposal,
    parse_text_edits,
)
from workers.tools.context import (
    ToolArgumentError,
    ToolContext,
    ToolResult,
    no_open_note,
    read_saved_copy,
)
from workers.tools.declaration import ToolArguments, ToolDeclaration
from workers.tools.named_note import note_path


def _optional_path(value: object) -> str | None:
    return None if value is None else note_path(value)


def _summary(value: object) -> str:
    if not isinstance(value, str):
        raise ToolArgumentError(messages.SUMMARY_INVALID)
    return value


def _edits(value: object) -> list[dict[str, str]]:
    try:
        pairs = parse_text_edits(value)
    except ProposalError as error:
        raise ToolArgumentError(str(error)) from error
    return [{"oldText": old, "newText": new} for old, new in pairs]


class TextEditArguments(ToolArguments):
    old_text: Annotated[str, Field(alias="oldText", min_length=1)]
    new_text: Annotated[str, Field(alias="newText")]


class ProposeNoteEditArguments(ToolArguments):
    path: Annotated[
        str | None,
        BeforeValidator(_optional_path),
        Field(description="The note's workspace path; omit it for the open note."),
    ] = None
    edits: Annotated[
        list[TextEditArguments],
        BeforeValidator(_edits),
        Field(min_length=1, max_length=MAX_EDITS),
    ]
    summary: Annotated[
        str, BeforeValidator(_summary), Field(description="One line saying what the change does.")
    ] = ""


def _propose_note_edit(
    context: ToolContext, arguments: ProposeNoteEditArguments, row: DeliveryCredential
) -> ToolResult:
    path = arguments.path
    if path is None:
        if row.ambient_path is None:
            return no_open_note(context)
        path = row.ambient_path
    refusal = _another_note(context, row, path)
    if refusal is not None:
        return refusal
    read = read_saved_copy(context, row.workspace, path, None)
    if not isinstance(read, DocumentRead):
        return read
    pairs = [(edit.old_text, edit.new_text) for edit in arguments.edits]
    try:
        edits = locate_edits(read.text, pairs)
    except ProposalError as error:
        return read_result("invalid_argument", str(error), path=path)
    proposal = make_proposal(read.path, read.data, edits, arguments.summary)
    return read_result("proposed", path=read.path, proposal=proposal)


def _another_note(context: ToolContext, row: DeliveryCredential, path: str) -> ToolResult | None:
    """R93: a turn about the open note changes only that note, unless the person named the other.

    Text in a note (or anything else a model reads) may tell it to change another
    note; the person's own message is what may name one.
    """
    asked = row.ambient_path
    if asked is None or path == asked or context.asks_about is None:
        return None
    if context.asks_about(path):
        return None
    return read_result(
        "access_denied", messages.PROPOSAL_OTHER_NOTE.format(asked=asked, path=path), path=path
    )


def _denied(arguments: ProposeNoteEditArguments) -> dict[str, Any]:
    return {"path": arguments.path}


TOOL: ToolDeclaration[ProposeNoteEditArguments] = ToolDeclaration(
    facts=PROPOSE_NOTE_EDIT,
    arguments=ProposeNoteEditArguments,
    handler=_propose_note_edit,
    description=(
        "Propose a change to a note (the open one unless a path is given). The user "
        "reviews it and applies it; nothing changes until then. Each oldText must be "
        "copied exactly from the note and occur in it exactly once."
    ),
    instruction=(
        "proposes a change to a note, which the user reviews and applies (read the note first)"
    ),
    denied_fields=_denied,
)
