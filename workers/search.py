"""Searching the workspace's notes for a phrase: the ``search_documents`` tool (R56, contract §12).

One pass over each note: the whole note is case-folded once and searched for the
phrase with ``str.find``; only a note that holds it is split into lines. The cost
is linear in the notes' total size, the answer is bounded (50 notes, 5 lines
each, each line cut to 240 characters).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Final

from workers.documents import Workspaces

MAX_NOTES: Final = 50
MAX_LINES: Final = 5
"""Contract §12: at most 50 notes and 5 lines each."""
MAX_LINE_CHARS: Final = 240
"""A line longer than this is cut: a match in a pasted megabyte shows where, not all of it."""
MAX_QUERY_CHARS: Final = 200


@dataclass
class NoteMatch:
    path: str
    lines: list[tuple[int, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "lines": [{"line": number, "text": text} for number, text in self.lines],
        }


def matching_lines(text: str, query: str) -> list[tuple[int, str]]:
    """Up to 5 (1-based line number, line) pairs whose line holds ``query``, any case."""
    folded_query = query.casefold()
    if folded_query not in text.casefold():
        return []
    found: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if folded_query in line.casefold():
            found.append((number, _clip(line, line.casefold().find(folded_query))))
            if len(found) == MAX_LINES:
                break
    return found


def _clip(line: str, at: int) -> str:
    """The line, or the part of it around the match when it is long."""
    line = line.strip()
    if len(line) <= MAX_LINE_CHARS:
        return line
    start = max(0, min(at - MAX_LINE_CHARS // 4, len(line) - MAX_LINE_CHARS))
    clipped = line[start : start + MAX_LINE_CHARS]
    return ("…" if start else "") + clipped + ("…" if start + MAX_LINE_CHARS < len(line) else "")


def search_workspace(
    workspaces: Workspaces, workspace: str, query: str, prefix: str = ""
) -> list[NoteMatch]:
    """The notes under ``prefix`` that mention ``query``, folder by folder (at most 50)."""
    matches: list[NoteMatch] = []
    with contextlib.closing(workspaces.reads(workspace, prefix)) as reads:
        for read in reads:
            lines = matching_lines(read.text, query)
            if lines:
                matches.append(NoteMatch(read.path, lines))
                if len(matches) == MAX_NOTES:
                    break
    return matches
