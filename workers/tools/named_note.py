"""``read_document {path, maxBytes?}``: a named note's saved copy, with the same limits and
access messages as the open note's (R23, R28)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from bridge.contract import DEFAULT_MAX_BYTES
from bridge.reading import read_result
from bridge.tools import READ_DOCUMENT
from workers import messages
from workers.deliveries import DeliveryCredential
from workers.document_files import DocumentRead
from workers.tools.context import ToolArgumentError, ToolContext, ToolResult, read_saved_copy
from workers.tools.declaration import MaxBytes, ToolArguments, ToolDeclaration


def note_path(value: object) -> str:
    """A note's workspace path as a tool takes it: non-empty text (section 3 checks the rest)."""
    if not isinstance(value, str) or not value:
        raise ToolArgumentError(messages.PATH_ARGUMENT_MISSING)
    return value


class ReadDocumentArguments(ToolArguments):
    path: Annotated[
        str,
        BeforeValidator(note_path),
        Field(description="The note's workspace path, such as notes/today.md."),
    ]
    max_bytes: MaxBytes = DEFAULT_MAX_BYTES


def _read_document(
    context: ToolContext, arguments: ReadDocumentArguments, row: DeliveryCredential
) -> ToolResult:
    read = read_saved_copy(context, row.workspace, arguments.path, arguments.max_bytes)
    if not isinstance(read, DocumentRead):
        return read
    return read_result("ok", path=read.path, text=read.text, size=read.size, partial=read.partial)


TOOL: ToolDeclaration[ReadDocumentArguments] = ToolDeclaration(
    facts=READ_DOCUMENT,
    arguments=ReadDocumentArguments,
    handler=_read_document,
    description="Read the saved text of a note named by its workspace path.",
    instruction="reads a note by its workspace path",
    denied_fields=lambda arguments: {"path": arguments.path},
)
