"""A selection's lines: the 1-based line numbers its UTF-16 offsets fall on (R48).

The chip and a turn's details say which lines a send's selection covers
(``notes/a.md:3–7``). Offsets count UTF-16 code units, as the editor and the
pointer do (R8); lines are the note's ``\\n``-separated lines. Every step here is
one linear pass done by ``str`` and ``bytes`` methods: no per-character Python
loop and no regular expression over the note.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridge.pointer import Selection

_UTF16 = "utf-16-le"


@dataclass(frozen=True)
class LineRange:
    """Lines ``first`` to ``last`` (1-based, inclusive) of a note."""

    first: int
    last: int

    def __str__(self) -> str:
        # An en dash, as a range is written for a reader: notes/a.md:3–7.
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def selection_lines(text: str, selection: Selection | None) -> LineRange | None:
    """The lines a non-empty selection covers in ``text``; None for no selection or a caret.

    A selection that ends at the very start of a line (a drag down to the next
    line's first column) does not count that line: nothing of it is selected.
    Offsets past the end of the text count as the end.
    """
    if selection is None or selection.anchor == selection.head:
        return None
    start, end = sorted((selection.anchor, selection.head))
    before_start, selected = _split_at_utf16(text, start, end)
    first = before_start.count("\n") + 1
    last = first + selected.count("\n")
    if selected.endswith("\n"):
        last -= 1
    return LineRange(first, last)


def _split_at_utf16(text: str, start: int, end: int) -> tuple[str, str]:
    """``text`` before UTF-16 offset ``start``, and from there up to offset ``end``."""
    # The first ``end`` characters hold at least ``end`` code units, so only they are
    # looked at: the cost follows the selection's end, not the note's size.
    head = text[:end]
    if head.isascii():
        return head[:start], head[start:end]  # one code unit per character
    units = head.encode(_UTF16, errors="surrogatepass")
    # An offset inside a surrogate pair splits it; "surrogatepass" keeps the halves,
    # which are never a line break, so the counts stay right.
    before = units[: 2 * start].decode(_UTF16, errors="surrogatepass")
    selected = units[2 * start : 2 * end].decode(_UTF16, errors="surrogatepass")
    return before, selected
