"""Notes named by their title or words instead of a path ("the budget", "le budget") (R56).

A note's names are its file name's words ("launch-plan.md": "launch plan") and its
title (first heading), from the one Markdown reading of its first few KiB. A note
is named when every distinctive word of one of its names is a word of the request
(a substring, for Chinese, Japanese and Korean); a request that points at the open
note ("this", "here", "このノート") names no other note. The notes are read through
the key session's delivery row, with the same access rules as the tools; only the
note the request names is then read by a tool. If the open note is one of the notes
a name fits, it is the one meant.

Every turn whose request does not point at the open note looks at every note's names,
so a title is remembered by the note's file version (device, inode, size, modification
and change times): an unchanged note is looked at (one ``stat``), not read again, and
any write moves its change time, so an edited note's new title is read.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Final

from bridge.markdown import read_note
from workers.digests import FileVersion
from workers.errors import AccessDenied, DocumentRefused
from workers.offline import words
from workers.offline.dates import DATE_WORDS
from workers.offline.intents import CJK_START, is_cjk, words_of
from workers.tools import ToolContext
from workers.tools.context import shared_only

TITLE_BYTES: Final = 4096
"""A title is at the top: only this much of each note is read to find it."""
MAX_NOTES: Final = 2000
"""Beyond this many notes, names are not resolved: the request needs a path."""
MAX_TITLES: Final = 4 * MAX_NOTES
"""Titles remembered at once (a few workspaces' worth); the least recently used goes first."""


@dataclass(frozen=True)
class Candidate:
    path: str
    title: str
    matched: int
    """How many of the request's words the name matched: the best match wins."""


@functools.cache
def _ordinary() -> frozenset[str]:
    """Words of the assistant's own phrasings: never distinctive enough to name a note."""
    phrases = (
        words.SUMMARY + words.TASKS + words.OUTLINE + words.FIND + words.FIND_GENERIC
        + words.DATES + words.TERM_EDGES + words.NOTE_REFERENCES + words.LISTING_VERBS
        + words.LISTING_NOUNS + words.COMPARE + words.UNSUPPORTED
    )  # fmt: skip
    found = {word for phrase in phrases for word in words_of(phrase).split()}
    for vocabulary in words.LANGUAGE_WORDS.values():
        found.update(vocabulary)
    return frozenset(found | DATE_WORDS | {"md", "markdown", "txt"})


def _distinctive(name: str) -> list[str]:
    return [word for word in words_of(name).split() if word not in _ordinary() and len(word) > 1]


def _matches(name: str, padded: str, lowered: str) -> int:
    """How many words of ``name`` the request holds, 0 unless it holds all distinctive ones."""
    if is_cjk(name):
        folded = name.casefold().strip()
        return len(folded) if len(folded) > 1 and folded in lowered else 0
    distinctive = _distinctive(name)
    if not distinctive or not all(f" {word} " in padded for word in distinctive):
        return 0
    return len(distinctive)


def points_at_the_open_note(message: str) -> bool:
    padded, lowered = words_of(message), message.casefold()
    return any(
        (reference in lowered) if reference[0] >= CJK_START else (f" {reference} " in padded)
        for reference in words.OPEN_NOTE_REFERENCES
    )


def asks_about(context: ToolContext, message: str, path: str) -> bool:
    """Whether ``message`` names the note at ``path``: its path, or its title or file words (R93).

    A message that points at the open note ("this note") names no other one.
    """
    if points_at_the_open_note(message):
        return False
    if path.casefold() in message.casefold():
        return True
    return any(candidate.path == path for candidate in named_notes(context, message))


def named_notes(context: ToolContext, message: str) -> list[Candidate]:
    """The notes the request names by title or file name, best matches only (often none)."""
    if points_at_the_open_note(message):
        return []
    try:
        row = context.open_access()
    except AccessDenied:
        return []
    padded, lowered = words_of(message), message.casefold()
    skip, _left_out = shared_only(context, row.workspace)  # R86: a private title is never read
    versions = context.workspaces.versions(row.workspace, skip=skip)
    if len(versions) > MAX_NOTES:
        return []
    found: list[Candidate] = []
    for path, version in versions:
        title = _TITLES.title(context, row.workspace, path, version)
        if title is None:
            continue  # refused (a link leading out, gone meanwhile): no tool could read it
        stem = PurePosixPath(path).stem.replace("-", " ").replace("_", " ")
        matched = max(_matches(stem, padded, lowered), _matches(title, padded, lowered))
        if matched:
            found.append(Candidate(path, title, matched))
    best = max((candidate.matched for candidate in found), default=0)
    return [candidate for candidate in found if candidate.matched == best]


class _RememberedTitles:
    """Each note's title by its file version, the least recently used forgotten first."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, str, FileVersion], str] = OrderedDict()

    def title(
        self, context: ToolContext, workspace: str, path: str, version: FileVersion | None
    ) -> str | None:
        """The note's title ("" when it has none), None when the note cannot be read.

        ``version`` None (a link): read every time, through the path rules, never kept.
        """
        key = None if version is None else (workspace, path, version)
        if key is not None:
            with self._lock:
                remembered = self._entries.get(key)
                if remembered is not None:
                    self._entries.move_to_end(key)
                    return remembered
        title = _read_title(context, workspace, path)
        if key is not None and title is not None:
            with self._lock:
                self._entries[key] = title
                while len(self._entries) > MAX_TITLES:
                    self._entries.popitem(last=False)
        return title


_TITLES: Final = _RememberedTitles()


def _read_title(context: ToolContext, workspace: str, path: str) -> str | None:
    try:
        read = context.workspaces.read(workspace, path, TITLE_BYTES)
    except (DocumentRefused, OSError):
        return None
    headings = read_note(read.text).headings
    return headings[0].text if headings else ""
