"""``search_documents {query, prefix?}`` (R56, contract 12): the notes (at most 50) and their
lines (at most 5) that mention the query, in any case."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from bridge.contract import SEARCH_MAX_LINES, SEARCH_MAX_NOTES
from bridge.reading import read_result
from bridge.tools import SEARCH_DOCUMENTS
from workers import messages, search
from workers.deliveries import DeliveryCredential
from workers.tools.context import (
    ToolArgumentError,
    ToolContext,
    ToolResult,
    private_count_fields,
    shared_only,
)
from workers.tools.declaration import Prefix, ToolArguments, ToolDeclaration


def _query(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ToolArgumentError(messages.QUERY_MISSING)
    if len(value) > search.MAX_QUERY_CHARS:
        raise ToolArgumentError(messages.QUERY_TOO_LONG.format(limit=search.MAX_QUERY_CHARS))
    return value.strip()


class SearchDocumentsArguments(ToolArguments):
    query: Annotated[str, BeforeValidator(_query), Field(description="The words to look for.")]
    prefix: Prefix = ""


def _search_documents(
    context: ToolContext, arguments: SearchDocumentsArguments, row: DeliveryCredential
) -> ToolResult:
    skip, left_out = shared_only(context, row.workspace)
    found = search.search_workspace(
        context.workspaces, row.workspace, arguments.query, arguments.prefix, skip
    )
    matches = [match.to_json() for match in found]
    result = read_result("ok", matches=matches)
    result.update(private_count_fields(left_out))
    return result


TOOL: ToolDeclaration[SearchDocumentsArguments] = ToolDeclaration(
    facts=SEARCH_DOCUMENTS,
    arguments=SearchDocumentsArguments,
    handler=_search_documents,
    description=(
        "Find the notes that mention some words, with their matching lines "
        f"(any case; at most {SEARCH_MAX_NOTES} notes and {SEARCH_MAX_LINES} lines each)."
    ),
    instruction="finds the notes that mention some words",
    refusal_fields={"matches": []},
)
