"""The assistant's document tools: one declaration each, and the registry built from them.

Contract 5's three readers (``read_active_note``, ``read_document``,
``list_documents``), ``propose_note_edit`` (10) and ``search_documents`` (12). Each
module here declares one tool (:class:`~workers.tools.declaration.ToolDeclaration`);
:data:`DECLARATIONS` lists them in the order the model is offered them, and
everything else — :data:`TOOLS`, the model's schemas and instructions
(:mod:`workers.model.prompt`), which tools the model is offered
(:mod:`workers.model.tool_choice`) — is derived from it. ``docs/dev/tools.md`` says
how to add one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from workers.tools import active_note, listing, named_note, proposing, searching
from workers.tools.context import ToolArgumentError, ToolContext, ToolResult, refusal
from workers.tools.declaration import ToolDeclaration

__all__ = [
    "DECLARATIONS",
    "OPEN_NOTE_TOOL",
    "PROPOSE_TOOL",
    "TOOLS",
    "Tool",
    "ToolArgumentError",
    "ToolContext",
    "ToolResult",
    "refusal",
]

DECLARATIONS: Final[tuple[ToolDeclaration[Any], ...]] = (
    active_note.TOOL,
    named_note.TOOL,
    listing.TOOL,
    searching.TOOL,
    proposing.TOOL,
)
"""Every tool, in the order the model is offered them and the system message names them."""

Tool = Callable[[ToolContext, Mapping[str, Any]], ToolResult]

TOOLS: Final[Mapping[str, ToolDeclaration[Any]]] = {tool.name: tool for tool in DECLARATIONS}
"""Each tool by name: ``TOOLS[name](context, arguments)`` checks, then runs it (R28)."""

OPEN_NOTE_TOOL: Final = active_note.TOOL.name
"""The tool the backend runs itself to read "this note" first (R23)."""
PROPOSE_TOOL: Final = proposing.TOOL.name
"""The tool whose result is a proposal (contract 10)."""

read_active_note: Final = active_note.TOOL
read_document: Final = named_note.TOOL
list_documents: Final = listing.TOOL
search_documents: Final = searching.TOOL
propose_note_edit: Final = proposing.TOOL
