"""How a model turn needs the open note, and which tools that leaves to offer (R23, R57, R75).

Both assistants agree on what "this note" is: the offline classifier's reading of
the ask decides whether it names no note (read the open note first) and whether
the open note alone answers it. Which tools then remain to be offered is read off
the tool declarations (:mod:`workers.tools`), never a hand list: a tool declared to
read the open note, other than the read the backend runs itself, is offered on an
ask that names no note, and no tool that reads the open note is offered without one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workers.offline.naming import named_notes
from workers.offline.table import classify, intent_of
from workers.tools import DECLARATIONS, OPEN_NOTE_TOOL, ToolContext
from workers.tools.declaration import ToolDeclaration

Declarations = Sequence[ToolDeclaration[Any]]


def open_note_readers(declarations: Declarations = DECLARATIONS) -> frozenset[str]:
    """Tools that need a note open: not offered when none is (R27)."""
    return frozenset(tool.name for tool in declarations if tool.facts.reads == "open note")


def beside_the_first_read(declarations: Declarations = DECLARATIONS) -> tuple[str, ...]:
    """Tools besides the backend's own first read that work on "this note" without naming it.

    While there is one, the open note read first never answers an unnamed ask alone:
    the model is offered the tools and chooses.
    """
    readers = open_note_readers(declarations)
    return tuple(tool.name for tool in declarations if tool.name in readers - {OPEN_NOTE_TOOL})


@dataclass(frozen=True)
class OpenNoteUse:
    """How a request needs the open note (R23, R57)."""

    first: bool
    """It names no note: read the open one first ("summarise this", "このノート")."""
    alone: bool
    """The open note alone answers it: no other tool is needed once it is read."""


def open_note_use(
    context: ToolContext, message: str, declarations: Declarations = DECLARATIONS
) -> OpenNoteUse:
    """The offline assistant's reading of the request, so both assistants agree on "unnamed".

    "compare this with notes/b.md" reads the open note first and then the other;
    "summarise the budget" names a note by its title, so it is not unnamed.
    """
    request = classify(message)
    intent = intent_of(request)
    if intent.compares:
        return OpenNoteUse(first=len(request.paths) == 1, alone=False)
    if not intent.about_a_note or intent.may_be_general or request.paths:
        return OpenNoteUse(first=False, alone=False)
    if intent.names_a_note_by_words and named_notes(context, request.text):
        return OpenNoteUse(first=False, alone=False)
    return OpenNoteUse(first=True, alone=not beside_the_first_read(declarations))


def offered(
    schemas: list[dict[str, Any]],
    *,
    has_pointer: bool,
    declarations: Declarations = DECLARATIONS,
) -> list[dict[str, Any]]:
    """Every tool a model may pick; without an open note, none that reads it."""
    if has_pointer:
        return schemas
    readers = open_note_readers(declarations)
    return [tool for tool in schemas if tool["function"]["name"] not in readers]
