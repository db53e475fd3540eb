"""A selection's lines: the 1-based line numbers its UTF-16 offsets fall on (R48).

The chip and a turn's details say which lines a send's selection covers
(``notes/a.md:3–7``). The count is :func:`bridge.markdown.locate_selection`'s (through
:func:`bridge.markdown.selection_line_span`, its lines without its text), the same
one the backend uses for ``read_active_note`` and the model's system message, so the
app and the assistant name the same lines.
"""

from __future__ import annotations

from typing import NamedTuple

from bridge.markdown import selection_line_span
from bridge.pointer import Selection


class LineRange(NamedTuple):
    """Lines ``first`` to ``last`` (1-based, inclusive) of a note (a tuple: cheap to make)."""

    first: int
    last: int

    def __str__(self) -> str:
        # An en dash, as a range is written for a reader: notes/a.md:3–7.
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


class SelectedSpan(NamedTuple):
    """The part of a note a selection needs for its lines, and where it starts.

    ``text`` runs from the start of the line the selection starts on to the
    selection's end (line breaks as LF); ``anchor`` and ``head`` are the
    selection's UTF-16 offsets within it, and ``first_line`` is the 0-based line
    ``text`` starts on. Reading it costs what the selection costs, not the note.
    """

    text: str
    first_line: int
    anchor: int
    head: int


def span_lines(span: SelectedSpan | None) -> LineRange | None:
    """The lines a non-empty selection covers, counted in its span as in the whole note."""
    if span is None or span.anchor == span.head:
        return None
    found = selection_line_span(span.text, span.anchor, span.head, clamp=True)
    if found is None:
        return None
    first, last = found
    return LineRange(span.first_line + first + 1, span.first_line + last + 1)


def selection_lines(text: str, selection: Selection | None) -> LineRange | None:
    """The lines a non-empty selection covers in ``text``; None for no selection or a caret.

    A selection that ends at the very start of a line (a drag down to the next
    line's first column) does not count that line: nothing of it is selected.
    Offsets past the end of the text count as the end: text and selection come from
    the same read of the editor.
    """
    if selection is None:
        return None
    anchor, head = selection.anchor, selection.head
    if anchor == head:
        return None
    found = selection_line_span(text, anchor, head, clamp=True)
    if found is None:
        return None
    first, last = found
    return LineRange(first + 1, last + 1)
