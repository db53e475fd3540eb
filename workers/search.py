"""Searching the workspace's notes for a phrase: the ``search_documents`` tool (R56, contract §12).

One pass over each note: its bytes are searched first (ASCII case folding for an
ASCII query, see :func:`may_hold`); a note that may hold the phrase is decoded,
case-folded and searched again, and only one that holds it is split into lines. The cost
is linear in the notes' total size, the answer is bounded (50 notes, 5 lines
each, each line cut to 240 characters).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from bridge.contract import SEARCH_MAX_LINES, SEARCH_MAX_NOTES
from workers.documents import Workspaces

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


LETTERS_RAREST_FIRST: Final = b"zqxjkvbpygfwmucldrhsnioate"
"""ASCII letters from the rarest to the commonest in English text, for :class:`ByteNeedle`."""


class ByteNeedle(NamedTuple):
    """An ASCII query as :func:`may_hold` looks for it in a note's bytes."""

    folded: bytes
    """The query, ASCII case-folded (lower case)."""
    rare: bytes
    """The query's rarest letter (or, with none, its first byte), in lower case."""
    rare_upper: bytes
    """The same byte in upper case (itself when it is not a letter)."""


def byte_needle(query: str) -> ByteNeedle | None:
    """What :func:`may_hold` looks for in a note's bytes; None when it needs the text.

    An ASCII query is looked for in the bytes with ASCII case folding, as ``grep -i``
    does in the C locale (UTF-8 keeps every other character out of the ASCII bytes);
    any other query needs the text, decoded and case-folded.
    """
    if not query.isascii():
        return None
    folded = query.lower().encode()
    rare = next((bytes([b]) for b in LETTERS_RAREST_FIRST if b in folded), folded[:1])
    return ByteNeedle(folded, rare, rare.upper())


def may_hold(data: bytes, needle: ByteNeedle | None) -> bool:
    """Whether a note's bytes may mention the query: a quick test before any decoding.

    A note that holds the query holds its rarest letter in one case or the other,
    and most notes hold neither: two byte scans then spare case-folding the note (as
    grep and ripgrep look for a needle's rarest byte first).
    """
    if needle is None:
        return True
    if needle.rare not in data and needle.rare_upper not in data:
        return False
    return needle.folded in data.lower()


def matching_lines(text: str, query: str) -> list[tuple[int, str]]:
    """Up to 5 (1-based line number, line) pairs whose line holds ``query``, any case."""
    folded_query = query.casefold()
    if folded_query not in text.casefold():
        return []
    found: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if folded_query in line.casefold():
            found.append((number, _clip(line, line.casefold().find(folded_query))))
            if len(found) == SEARCH_MAX_LINES:
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
    workspaces: Workspaces,
    workspace: str,
    query: str,
    prefix: str = "",
    skip: Callable[[str], bool] | None = None,
) -> list[NoteMatch]:
    """The notes under ``prefix`` that mention ``query``, folder by folder (at most 50).

    ``skip``: notes never opened (private ones, R86).
    """
    matches: list[NoteMatch] = []
    needle = byte_needle(query)
    with contextlib.closing(workspaces.reads(workspace, prefix, skip)) as reads:
        for read in reads:
            if not may_hold(read.data, needle):
                continue
            lines = matching_lines(read.text, query)
            if lines:
                matches.append(NoteMatch(read.path, lines))
                if len(matches) == SEARCH_MAX_NOTES:
                    break
    return matches
