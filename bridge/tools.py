"""The assistant's tools as both realms know them: names, how a call reads, what is kept.

The backend declares each tool once (``workers/tools/``): its arguments, handler
and what the model is told. What the desktop app needs of a tool — its name (§5,
§10, §12), how a call reads in the transcript, how its result reads in Details
(R48), which of its arguments and result keys a kept turn record holds (R45, R77),
and which note it reads — is declared here, since the renderer cannot import the
backend. Each backend declaration is built on one of these, so a name is written
once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

Reads = Literal["open note", "named note", "workspace"]
"""What a tool reads: the note the user has open (without naming it), the note its
``path`` argument names, or the workspace's notes (a listing, a search)."""

ARGUMENTS_SHOWN: Final = 120
"""A call's argument is shown up to this many characters (R80: never raw JSON)."""
FOUND_PATHS_SHOWN: Final = 5
"""Details names this many of a search's notes, then says how many more."""
COMMON_RESULT_KEYS: Final = ("status", "message")
"""Every tool result has these (contract 5); a kept record keeps them for any tool."""
READ_RESULT_KEYS: Final = ("path", "view", "bytes", "partial", "caveat")
"""The fields every result of contract 5's shape has (``text`` aside): kept by default."""


def clipped(value: object) -> str:
    """A plain argument value on one line, clipped; "" for a nested value or none."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    text = " ".join(str(value).split())
    return text if len(text) <= ARGUMENTS_SHOWN else text[: ARGUMENTS_SHOWN - 1] + "…"


def byte_count(count: int) -> str:
    return "1 byte" if count == 1 else f"{count:,} bytes"


def _notes(count: int) -> str:
    return "1 note" if count == 1 else f"{count} notes"


def read_found(result: Mapping[str, Any]) -> str:
    """A read's ok result in a few words: which note, how much of it, whether behind the screen.

    A restored record keeps ``textBytes`` instead of the text (R77), so a partial
    read still says how much of the note was seen.
    """
    path, size = result.get("path"), result.get("bytes")
    read = f"read {path}" if path else "read"
    if isinstance(size, int):
        text, kept = result.get("text"), result.get("textBytes")
        seen = len(text.encode("utf-8")) if isinstance(text, str) else size
        seen = kept if isinstance(kept, int) and not isinstance(text, str) else seen
        read += (
            f" (the first {seen:,} of {size:,} bytes)"
            if result.get("partial")
            else f" ({byte_count(size)})"
        )
    if result.get("caveat"):
        read += "; the saved copy was behind the screen"
    return read


def _listed_found(result: Mapping[str, Any]) -> str:
    documents = result.get("documents")
    return f"listed {_notes(len(documents))}" if isinstance(documents, list) else "listed"


def _search_found(result: Mapping[str, Any]) -> str:
    """R56: which notes the search found, by path (a restored record keeps the paths too)."""
    matches = result.get("matches")
    if not isinstance(matches, list):
        return "searched"
    if not matches:
        return "found no note"
    paths = [str(item.get("path")) for item in matches if isinstance(item, dict)]
    shown = ", ".join(paths[:FOUND_PATHS_SHOWN])
    more = len(paths) - FOUND_PATHS_SHOWN
    return f"found {_notes(len(matches))}: {shown}" + (f" and {more} more" if more > 0 else "")


def _read_open_did(_arguments: Mapping[str, Any]) -> str:
    return "read the open note"


def _read_named_did(arguments: Mapping[str, Any]) -> str:
    path = clipped(arguments.get("path"))
    return f"read {path}" if path else "read a note"


def _listed_did(_arguments: Mapping[str, Any]) -> str:
    return "listed your notes"


def _searched_did(arguments: Mapping[str, Any]) -> str:
    query = clipped(arguments.get("query"))
    return f"searched your notes for “{query}”" if query else "searched your notes"


def _proposed_did(arguments: Mapping[str, Any]) -> str:
    """ "proposed Add “call mom” in notes/a.md"; a kept call without edits (R77) counts none."""
    edits = arguments.get("edits")
    target = clipped(arguments.get("path")) or "the open note"
    summary = clipped(arguments.get("summary"))
    if summary:
        return f"proposed {summary} in {target}"
    if isinstance(edits, list) and edits:
        return f"proposed {len(edits)} change{'s' if len(edits) != 1 else ''} in {target}"
    return f"proposed a change to {target}"


@dataclass(frozen=True)
class ToolFacts:
    """What the desktop app knows of one tool; the backend's declaration adds the rest."""

    name: str
    reads: Reads
    did: Callable[[Mapping[str, Any]], str]
    """The call in the transcript, from its arguments: "searched your notes for “Sam”"."""
    found: Callable[[Mapping[str, Any]], str]
    """Its ``ok`` result in Details (R48); any other status shows as status and message."""
    kept_arguments: tuple[str, ...]
    """Arguments a kept record holds: never one that may quote the note (R77)."""
    kept_result: tuple[str, ...] = READ_RESULT_KEYS
    """Result keys a kept record holds beside :data:`COMMON_RESULT_KEYS`: never ``text``."""
    kept_listing: str | None = None
    """A result key listing notes, kept as their paths only (never their lines)."""
    proposes: bool = False
    """Its result is a proposal (contract 10), not a read."""


READ_ACTIVE_NOTE: Final = ToolFacts(
    name="read_active_note",
    reads="open note",
    did=_read_open_did,
    found=read_found,
    kept_arguments=("maxBytes",),
)
READ_DOCUMENT: Final = ToolFacts(
    name="read_document",
    reads="named note",
    did=_read_named_did,
    found=read_found,
    kept_arguments=("path", "maxBytes"),
)
LIST_DOCUMENTS: Final = ToolFacts(
    name="list_documents",
    reads="workspace",
    did=_listed_did,
    found=_listed_found,
    kept_arguments=("prefix",),
    kept_listing="documents",
)
SEARCH_DOCUMENTS: Final = ToolFacts(
    name="search_documents",
    reads="workspace",
    did=_searched_did,
    found=_search_found,
    kept_arguments=("query", "prefix"),
    kept_listing="matches",
)
PROPOSE_NOTE_EDIT: Final = ToolFacts(
    name="propose_note_edit",
    reads="named note",
    did=_proposed_did,
    found=read_found,
    kept_arguments=("path",),  # never edits or summary: they quote the note (R77)
    proposes=True,
)

TOOL_FACTS: Final[Mapping[str, ToolFacts]] = {
    facts.name: facts
    for facts in (
        READ_ACTIVE_NOTE,
        READ_DOCUMENT,
        LIST_DOCUMENTS,
        SEARCH_DOCUMENTS,
        PROPOSE_NOTE_EDIT,
    )
}
"""Every tool, in the order the model is offered them (contract 5, 10, 12)."""

ANY_KEPT_ARGUMENTS: Final = tuple(
    dict.fromkeys(key for facts in TOOL_FACTS.values() for key in facts.kept_arguments)
)
"""What a kept record holds of a call to a tool not declared here (an older record)."""
ANY_KEPT_RESULT: Final = COMMON_RESULT_KEYS + tuple(
    dict.fromkeys(key for facts in TOOL_FACTS.values() for key in facts.kept_result)
)
ANY_KEPT_LISTINGS: Final = tuple(
    facts.kept_listing for facts in TOOL_FACTS.values() if facts.kept_listing
)
READS_BY_NAME: Final = frozenset(
    facts.name
    for facts in TOOL_FACTS.values()
    if facts.reads == "named note" and not facts.proposes
)
"""Tools that read a named note's saved copy (R29: it may be open in another window)."""
