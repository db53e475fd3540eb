"""How a model turn needs the open note, and which tools that leaves to offer (R23, R57, R75).

Both assistants agree on what "this note" is: the offline classifier's reading of
the ask decides whether it names no note (read the open note first) and whether
the open note alone answers it. Which tools then remain to be offered is read off
the tool declarations (:mod:`workers.tools`), never a hand list: a tool declared to
read the open note, other than the read the backend runs itself, is offered on an
ask that names no note, and no tool that reads the open note is offered without one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from workers.offline.intents import NOTE_INTENTS, classify
from workers.offline.naming import named_notes
from workers.tools import DECLARATIONS, OPEN_NOTE_TOOL, ToolContext

READS_THE_OPEN_NOTE: Final = frozenset(
    tool.name for tool in DECLARATIONS if tool.facts.reads == "open note"
)
"""Tools that need a note open: not offered when none is (R27)."""
ALSO_ON_THE_OPEN_NOTE: Final = tuple(
    tool.name for tool in DECLARATIONS if tool.name in READS_THE_OPEN_NOTE - {OPEN_NOTE_TOOL}
)
"""Tools beside the backend's own first read that work on "this note" without naming it:
while there is one, the open note read first never answers an unnamed ask alone."""


@dataclass(frozen=True)
class OpenNoteUse:
    """How a request needs the open note (R23, R57)."""

    first: bool
    """It names no note: read the open one first ("summarise this", "このノート")."""
    alone: bool
    """The open note alone answers it: no other tool is needed once it is read."""


def open_note_use(context: ToolContext, message: str) -> OpenNoteUse:
    """The offline assistant's reading of the request, so both assistants agree on "unnamed".

    "compare this with notes/b.md" reads the open note first and then the other;
    "summarise the budget" names a note by its title, so it is not unnamed.
    """
    request = classify(message)
    if request.intent == "compare":
        return OpenNoteUse(first=len(request.paths) == 1, alone=False)
    if request.intent not in NOTE_INTENTS or request.paths:
        return OpenNoteUse(first=False, alone=False)
    if request.intent != "find" and named_notes(context, request.text):
        return OpenNoteUse(first=False, alone=False)
    return OpenNoteUse(first=True, alone=not ALSO_ON_THE_OPEN_NOTE)


def offered(schemas: list[dict[str, Any]], *, has_pointer: bool) -> list[dict[str, Any]]:
    """Every tool a model may pick; without an open note, none that reads it."""
    if has_pointer:
        return schemas
    return [tool for tool in schemas if tool["function"]["name"] not in READS_THE_OPEN_NOTE]
