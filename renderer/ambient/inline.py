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

from dataclasses import dataclass
from typing import Final, Protocol

from bridge.inline import MAX_AROUND_BYTES, MAX_SELECTION_BYTES, SELECTION_TOO_LARGE, InlineRequest

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

    def line_start(self, position: int) -> int:
        """The position where the line holding ``position`` starts."""
        ...

    def line_number(self, position: int) -> int:
        """The 0-based line holding ``position``."""
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
    selection = source.read(start, end) if end > start else ""
    if _size(selection) > MAX_SELECTION_BYTES:
        raise SelectionTooLarge()
    line_start = source.line_start(start)
    before = _before(source, line_start)
    after = _after(source, end)
    first = source.line_number(line_start) - before.count("\n") if before else None
    if first is None:
        first = source.line_number(start)
    if after:
        last = source.line_number(end) + after.count("\n", 0, len(after) - 1)
    elif selection:
        last = source.line_number(start) + selection.count("\n", 0, len(selection) - 1)
    else:
        last = source.line_number(start)
    request = InlineRequest(instruction, path, before, selection, after, (first + 1, last + 1))
    return InlineContext(request, start, end)


def _size(text: str) -> int:
    return len(text.encode("utf-8", errors="surrogatepass"))


def _before(source: NoteSlices, line_start: int) -> str:
    """Whole lines ending at ``line_start``, at most the budget; a longer one cut at its tail."""
    if line_start <= 0:
        return ""
    window_start = max(0, line_start - _WINDOW)
    raw = source.read(window_start, line_start)
    # raw ends with the line break before the selection's line; its first piece is only
    # a whole line when the window starts the note (else its start lies further back).
    pieces = raw[:-1].split("\n") if raw.endswith("\n") else raw.split("\n")
    taken: list[str] = []
    total = 0
    for index in range(len(pieces) - 1, -1, -1):
        line = pieces[index] + "\n"
        size = _size(line)
        partial = index == 0 and window_start > 0
        if partial or total + size > MAX_AROUND_BYTES:
            if not taken:
                taken.append(_tail_within(line, MAX_AROUND_BYTES))
            break
        taken.append(line)
        total += size
    taken.reverse()
    return "".join(taken)


def _after(source: NoteSlices, end: int) -> str:
    """From ``end`` to a line end, at most the budget; a longer line cut at its head."""
    length = source.length()
    if end >= length:
        return ""
    window_end = min(length, end + _WINDOW)
    pieces = source.read(end, window_end).split("\n")
    taken: list[str] = []
    total = 0
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        if last and not piece:
            break  # the window ended right after a line break
        line = piece if last else piece + "\n"
        size = _size(line)
        # The window's last piece is a whole line only when the note ends there.
        if (last and window_end < length) or total + size > MAX_AROUND_BYTES:
            if not taken:
                taken.append(_head_within(line, MAX_AROUND_BYTES))
            break
        taken.append(line)
        total += size
    return "".join(taken)


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

    def line_start(self, position: int) -> int:
        return self._text.rfind("\n", 0, position) + 1

    def line_number(self, position: int) -> int:
        return self._text.count("\n", 0, position)
