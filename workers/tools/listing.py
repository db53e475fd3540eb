"""``list_documents {prefix?}``: the workspace listing, optionally under a path prefix."""

from __future__ import annotations

from bridge.reading import read_result
from bridge.tools import LIST_DOCUMENTS
from workers.deliveries import DeliveryCredential
from workers.tools.context import ToolContext, ToolResult, private_count_fields, shared_only
from workers.tools.declaration import Prefix, ToolArguments, ToolDeclaration


class ListDocumentsArguments(ToolArguments):
    prefix: Prefix = ""


def _list_documents(
    context: ToolContext, arguments: ListDocumentsArguments, row: DeliveryCredential
) -> ToolResult:
    skip, left_out = shared_only(context, row.workspace)
    listing = context.workspaces.list(row.workspace, arguments.prefix, skip)
    documents = [info.model_dump() for info in listing]
    result = read_result("ok", documents=documents)
    result.update(private_count_fields(left_out))
    return result


TOOL: ToolDeclaration[ListDocumentsArguments] = ToolDeclaration(
    facts=LIST_DOCUMENTS,
    arguments=ListDocumentsArguments,
    handler=_list_documents,
    description="List the notes in the workspace, optionally under a path prefix.",
    instruction="lists the notes",
    refusal_fields={"documents": []},
)
