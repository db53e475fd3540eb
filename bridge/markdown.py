"""The one reading of a note's Markdown (R39): title, headings, tasks, links, prose.

The preview, the todo view, the mindmap and the assistant all read a note from the
same parse: cmark-gfm's syntax tree (:mod:`bridge.markdown_tree`). The preview renders
that tree (:func:`render_html`), and :func:`read_note` takes the headings, tasks and
paragraphs from it, so they never disagree about what is a heading or a task: a
``# comment`` in fenced or indented code, or inside a raw HTML block, is no heading
for any of them, and ``\\[ ]`` is no task.

Heading, task and title texts are plain text as the preview shows them (R55):
``**x**`` reads ``x``, entities and backslash escapes are decoded, a link reads as its
label (a reference defined anywhere in the note included), an image as its alt text
and raw HTML as written. Bare URLs are links (GFM autolinks). A title is at most
:data:`TITLE_MOST` characters, cut at a word.

Tasks are GitHub's task-list items: a list item whose first paragraph starts, as
written, with ``[ ]``, ``[x]`` or ``[X]`` followed by white space
(:meth:`~bridge.markdown_tree.ParsedNote.task_mark`).

Line numbers are **0-based** source lines of the note after line-ending
normalisation (CRLF and CR count as one line break), which is what the editor
counts as block numbers; a reply that shows them to a person adds 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Final, NamedTuple

from bridge.markdown_preview import preview_links, render_html, render_html_pieces
from bridge.markdown_tree import (
    HEADING,
    ITEM,
    PARAGRAPH,
    TASK_MARKS,
    ParsedNote,
    image_stand_in,
    normalise_newlines,
    utf16_length,
)

__all__ = [
    "TASK_MARKS",
    "Block",
    "Heading",
    "Link",
    "NoteReading",
    "SelectedText",
    "Task",
    "find_lines",
    "image_stand_in",
    "locate_selection",
    "normalise_newlines",
    "read_note",
    "render_html",
    "render_html_pieces",
    "selection_line_span",
    "utf16_length",
]

_UTF16: Final = "utf-16-le"


@dataclass(frozen=True)
class Heading:
    """An ATX (``## Plan``) or setext heading."""

    level: int
    text: str
    line: int


@dataclass(frozen=True)
class Task:
    """A task-list item: ``- [ ] call Sam`` / ``- [x] done``."""

    text: str
    done: bool
    line: int
    mark_column: int
    """Where the character between the brackets is on its line, in UTF-16 code units."""


@dataclass(frozen=True)
class Link:
    href: str
    text: str
    line: int


@dataclass(frozen=True)
class Block:
    """A paragraph's source on one line; ``in_list`` when it belongs to a list item."""

    text: str
    line: int
    in_list: bool


@dataclass
class NoteReading:
    """Everything the views and the assistant take from one note."""

    lines: list[str]
    """The note's source lines after line-ending normalisation; indexes are the line numbers."""
    title: str
    headings: list[Heading] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    @cached_property
    def links(self) -> list[Link]:
        """The links the preview shows, read only when asked for (R39: from its own HTML)."""
        return [
            Link(link.href, link.text, link.line) for link in preview_links("\n".join(self.lines))
        ]

    @property
    def open_tasks(self) -> list[Task]:
        return [task for task in self.tasks if not task.done]


TITLE_MOST: Final = 200
"""Characters of a note's title: a title is a line in a reply, not the note's first 64 KiB."""


def shortened_title(text: str) -> str:
    """``text`` cut to :data:`TITLE_MOST` characters at a word, with "…" when cut."""
    if len(text) <= TITLE_MOST:
        return text
    cut = text[: TITLE_MOST - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > TITLE_MOST // 2 else cut).rstrip() + "…"


def read_note(text: str) -> NoteReading:
    """Read a note once: title, headings, tasks and paragraphs, in document order."""
    with ParsedNote(text) as note:
        lines = note.lines
        headings: list[Heading] = []
        tasks: list[Task] = []
        blocks: list[Block] = []
        task_paragraph = None
        first_paragraph = None
        for kind, node, items_around in note.blocks():
            if kind == HEADING:
                headings.append(
                    Heading(note.heading_level(node), note.text_of(node), note.start_line(node))
                )
            elif kind == ITEM:
                mark = note.task_mark(node)
                if mark is not None:
                    task_paragraph = mark.paragraph
                    tasks.append(
                        Task(
                            note.text_of(mark.paragraph, skip_mark=True),
                            mark.mark != " ",
                            mark.line,
                            utf16_length(lines[mark.line][: mark.column]),
                        )
                    )
            elif kind == PARAGRAPH:
                is_task = node == task_paragraph
                source = note.paragraph_source(node, after_mark=is_task)
                blocks.append(Block(source, note.start_line(node), items_around > 0))
                if first_paragraph is None and source:
                    first_paragraph = (node, is_task)
        if headings:
            title = headings[0].text
        elif first_paragraph is not None:
            paragraph, is_task = first_paragraph
            title = note.text_of(paragraph, skip_mark=is_task, most=TITLE_MOST + 1)
        else:
            title = ""
    return NoteReading(lines, shortened_title(title), headings, tasks, blocks)


def find_lines(reading: NoteReading, term: str) -> list[tuple[int, str]]:
    """(0-based line, line) for every source line that mentions ``term``, ignoring case."""
    needle = term.casefold()
    if not needle:
        return []
    return [
        (number, line) for number, line in enumerate(reading.lines) if needle in line.casefold()
    ]


class SelectedText(NamedTuple):
    """The text between two UTF-16 offsets and the lines it covers.

    A named tuple: every send with a selection makes one, and a frozen dataclass
    costs several times as much to build.
    """

    text: str
    first_line: int
    last_line: int
    """0-based lines of the selection's start and end; a caret has ``first_line == last_line``."""


def locate_selection(
    text: str, anchor: int, head: int, *, clamp: bool = False
) -> SelectedText | None:
    """The text between two UTF-16 offsets (either order) and the lines it covers.

    This is the one count of a selection's lines: the chip and a turn's details in
    the desktop app, ``read_active_note`` and the model's system message all use it.
    Offsets count UTF-16 code units of the text as the editor holds it (line breaks
    as LF), like the pointer's selection; CRLF and CR in ``text`` count as one LF.

    The selection's lines run from the line its start is on to the line of its last
    selected character. A selection that ends just after a line break (a drag down
    to the next line's first column) does not count that next line: nothing of it
    is selected. Blank lines inside the selection are counted. An empty selection (a
    caret) is on one line, with empty text.

    An offset past the end of the text gives None, as the offsets then describe
    another text; with ``clamp`` it counts as the end instead. A negative offset
    gives None.

    Only the text up to the selection's end is looked at, each step one linear pass
    of a ``str`` or ``bytes`` method, so the cost follows the selection's end, not
    the note's size.
    """
    halves = _selection_halves(text, anchor, head, clamp)
    if halves is None:
        return None
    first, last = _covered_lines(*halves)
    return SelectedText(halves[1], first, last)


def selection_line_span(
    text: str, anchor: int, head: int, *, clamp: bool = False
) -> tuple[int, int] | None:
    """The 0-based first and last line :func:`locate_selection` gives, without its text.

    The same count, for a caller that needs only the lines: every send with a
    selection names them (R48).
    """
    halves = _selection_halves(text, anchor, head, clamp)
    return None if halves is None else _covered_lines(*halves)


def _selection_halves(text: str, anchor: int, head: int, clamp: bool) -> tuple[str, str] | None:
    """The text before the selection and the selected text, by :func:`locate_selection`'s rules."""
    start, end = (anchor, head) if anchor <= head else (head, anchor)
    if start < 0:
        return None
    # The first ``end`` characters after normalisation hold at least ``end`` code
    # units, and each comes from at most two characters of ``text`` (CRLF).
    prefix = text[: 2 * end]
    if "\r" in prefix:
        prefix = normalise_newlines(prefix)  # a prefix of the whole text's normalisation
    prefix = prefix[:end]
    if prefix.isascii():  # one code unit per character
        if end > len(prefix) and not clamp:
            return None
        return prefix[:start], prefix[start:end]
    units = prefix.encode(_UTF16, errors="surrogatepass")
    if 2 * end > len(units) and not clamp:
        return None
    # An offset inside a surrogate pair splits it; the halves are never a line
    # break, so the counts stay right, and the selected text shows a half as U+FFFD.
    before = units[: 2 * start].decode(_UTF16, errors="surrogatepass")
    return before, units[2 * start : 2 * end].decode(_UTF16, errors="replace")


def _covered_lines(before: str, selected: str) -> tuple[int, int]:
    """0-based lines of a selection's start and of its last selected character."""
    first = before.count("\n")
    last = first + selected.count("\n")
    if selected.endswith("\n"):
        last -= 1  # the line after a final line break has nothing selected
    return first, last
