"""``list_documents {prefix?}``: the workspace listing, optionally under a path prefix."""

from __future__ import annotations

from bridge.reading import read_result
from bridge.tools import LIST_DOCUMENTS
from workers.deliveries import DeliveryCredential
from workers.tools.context import ToolContext, ToolResult
from workers.tools.declaration import Prefix, ToolArguments, ToolDeclaration


class ListDocumentsArguments(ToolArguments):
    prefix: Prefix = ""


def _list_documents(
    context: ToolContext, arguments: ListDocumentsArguments, row: DeliveryCredential
) -> ToolResult:
    listing = context.workspaces.list(row.workspace, arguments.prefix)
    return read_result("ok", documents=[info.to_json() for info in listing])


TOOL: ToolDeclaration[ListDocumentsArguments] = ToolDeclaration(
    facts=LIST_DOCUMENTS,
    arguments=ListDocumentsArguments,
    handler=_list_documents,
    description="List the notes in the workspace, optionally under a path prefix.",
    instruction="lists the notes",
    refusal_fields={"documents": []},
)
