"""The bounded context of one inline request, read from the live editor (R69).

Qt-free, like the capture: the editor is reached through :class:`NoteSlices`, which
reads a range of the document and finds a line's start and number in the document's
own index. Building the context reads the selection and two windows of
:data:`~bridge.inline.MAX_AROUND_BYTES` + 1 positions beside it, so it costs what the
slice costs, never the note (a 5 MiB note included): nothing here sees the whole text.

Positions are the editor's (UTF-16 code units for Qt, code points for a ``str``): a
window of N positions holds at least N UTF-8 bytes in either unit, which is all the
arithmetic needs. Each side is cut at line boundaries; a single line longer than the
budget is cut at a code point.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from bridge.contract import MAX_AROUND_BYTES, MAX_SELECTION_BYTES
from bridge.inline import SELECTION_TOO_LARGE, InlineRequest

_WINDOW: Final = MAX_AROUND_BYTES + 1
"""Positions read beside the selection: the budget, and one to see past a cut line."""


class NoteSlices(Protocol):
    """A live document, read a slice at a time (line breaks as ``\\n``)."""

    def length(self) -> int:
        """The document's length in positions."""
        ...

    def read(self, start: int, end: int) -> str:
        """The text of positions ``[start, end)``."""
        ...

    def read_many(self, points: Sequence[int]) -> list[str]:
        """The texts between consecutive ``points`` (ascending), read as one range."""
        ...

    def line_at(self, position: int) -> tuple[int, int]:
        """Where the line holding ``position`` starts, and its 0-based number."""
        ...


class SelectionTooLarge(ValueError):
    """R69: the selection passes 16 KiB; nothing was sent. ``str()`` is the plain message."""

    def __init__(self) -> None:
        super().__init__(SELECTION_TOO_LARGE)


@dataclass(frozen=True)
class InlineContext:
    """The request to send and where its selection is in the editor (sorted positions)."""

    request: InlineRequest
    start: int
    end: int


def build_context(
    source: NoteSlices, path: str, instruction: str, anchor: int, head: int
) -> InlineContext:
    """The request for the selection ``anchor``–``head`` (equal: the cursor) of ``source``.

    Raises :class:`SelectionTooLarge` before reading more than the selection's length
    says: every position holds at least one UTF-8 byte.
    """
    start, end = min(anchor, head), max(anchor, head)
    if end - start > MAX_SELECTION_BYTES:
        raise SelectionTooLarge()
    line_start, start_line = source.line_at(start)
    window_start = max(0, line_start - _WINDOW)
    length = source.length()
    window_end = min(length, end + _WINDOW)
    # One read when the selection's line starts near it; a long line's start is skipped.
    if start - line_start <= _WINDOW:
        raw_before, _, selection, raw_after = source.read_many(
            (window_start, line_start, start, end, window_end)
        )
    else:
        (raw_before,) = source.read_many((window_start, line_start))
        selection, raw_after = source.read_many((start, end, window_end))
    # A code point is at most 4 UTF-8 bytes (an emoji is one code point, 4 bytes), so a
    # short selection needs no encoding.
    if 4 * len(selection) > MAX_SELECTION_BYTES and _size(selection) > MAX_SELECTION_BYTES:
        raise SelectionTooLarge()
    before = _before(raw_before, whole=window_start == 0)
    after = _after(raw_after, whole=window_end == length)
    first = start_line - before.count("\n") if before else start_line
    if after:
        end_line = source.line_at(end)[1] if selection else start_line
        last = end_line + after.count("\n", 0, len(after) - 1)
    elif selection:
        last = start_line + selection.count("\n", 0, len(selection) - 1)
    else:
        last = start_line
    request = InlineRequest(instruction, path, before, selection, after, (first + 1, last + 1))
    return InlineContext(request, start, end)


def _size(text: str) -> int:
    return len(text.encode("utf-8", errors="surrogatepass"))


def _before(raw: str, *, whole: bool) -> str:
    """The whole lines at the end of ``raw`` (which ends a line) within the budget.

    ``whole``: ``raw`` starts the note, so its first line is whole too. When not even
    the last line fits, its tail is cut at a code point.
    """
    if not raw:
        return ""
    # ASCII text is its own UTF-8: cut the string itself, with no encoding round trip.
    data: str | bytes = raw if raw.isascii() else raw.encode("utf-8", errors="surrogatepass")
    over = len(data) - MAX_AROUND_BYTES
    if over <= 0 and whole:
        return raw
    # The first line start at or after ``over``: right after a line break.
    start = _find_break(data, max(over - 1, 0)) + 1
    if start >= len(data):  # only the final line break: one line longer than the budget
        return _tail_within(raw, MAX_AROUND_BYTES)
    return _text(data[start:])


def _after(raw: str, *, whole: bool) -> str:
    """The start of ``raw`` up to a line end (or the note's end) within the budget.

    ``whole``: ``raw`` runs to the note's end. When no line ends within the budget, it
    is cut at a code point.
    """
    if not raw:
        return ""
    data: str | bytes = raw if raw.isascii() else raw.encode("utf-8", errors="surrogatepass")
    if len(data) <= MAX_AROUND_BYTES and whole:
        return raw
    newline = _rfind_break(data, MAX_AROUND_BYTES)
    if newline < 0:
        return _head_within(raw, MAX_AROUND_BYTES)
    return _text(data[: newline + 1])


def _find_break(data: str | bytes, start: int) -> int:
    return data.find("\n", start) if isinstance(data, str) else data.find(b"\n", start)


def _rfind_break(data: str | bytes, end: int) -> int:
    return data.rfind("\n", 0, end) if isinstance(data, str) else data.rfind(b"\n", 0, end)


def _text(data: str | bytes) -> str:
    return data if isinstance(data, str) else data.decode("utf-8", errors="surrogatepass")


def _head_within(text: str, budget: int) -> str:
    """The longest start of ``text`` of at most ``budget`` UTF-8 bytes, cut at a code point."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= budget:
        return text
    cut = budget
    while cut > 0 and data[cut] & 0xC0 == 0x80:  # a continuation byte: inside a character
        cut -= 1
    return data[:cut].decode("utf-8", errors="surrogatepass")


def _tail_within(text: str, budget: int) -> str:
    """The longest end of ``text`` of at most ``budget`` UTF-8 bytes, cut at a code point."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= budget:
        return text
    cut = len(data) - budget
    while cut < len(data) and data[cut] & 0xC0 == 0x80:
        cut += 1
    return data[cut:].decode("utf-8", errors="surrogatepass")


class TextSlices:
    """:class:`NoteSlices` over a ``str`` (positions are code points), for a note not in an editor.

    Finding a line's start and number scans the text before it; the Qt editor's
    adapter answers both from the document's block index instead.
    """

    def __init__(self, text: str) -> None:
        self._text = text

    def length(self) -> int:
        return len(self._text)

    def read(self, start: int, end: int) -> str:
        return self._text[start:end]

    def read_many(self, points: Sequence[int]) -> list[str]:
        return [self._text[a:b] for a, b in itertools.pairwise(points)]

    def line_at(self, position: int) -> tuple[int, int]:
        return self._text.rfind("\n", 0, position) + 1, self._text.count("\n", 0, position)
