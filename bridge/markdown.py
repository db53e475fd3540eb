"""The one reading of a note's Markdown (R39): title, headings, tasks, links, prose.

The preview, the todo view, the mindmap and the offline assistant all read a note
through :func:`read_note` (and the preview renders through :func:`render_html`,
from the same token stream), so they never disagree about what is a heading or a
task: a ``# comment`` in fenced or indented code is code for all of them.

Heading, task and title texts are plain text as the preview shows them (R55):
``**x**`` reads ``x``, entities and backslash escapes are decoded, a link reads as its
label and an image as its alt text. Bare URLs are links (GFM autolinks, through
linkify-it-py, markdown-it-py's own linkify plug-in).

The grammar (markdown-it-py: CommonMark, plus tables, strikethrough and linkify) is in
:mod:`bridge.markdown_tokens` and the preview's HTML in :mod:`bridge.markdown_preview`;
both are importable from here too. Tasks are GitHub's task-list items: a list
item whose first paragraph starts with ``[ ]``, ``[x]`` or ``[X]`` followed by
white space. They are found here on the token stream, so a task's line and the
column of its mark come from the same parse as everything else.

Line numbers are **0-based** source lines of the note after line-ending
normalisation (CRLF and CR count as one line break), which is what the editor
counts as block numbers; a reply that shows them to a person adds 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final, NamedTuple

from bridge.markdown_preview import preview_links, render_html, render_html_pieces
from bridge.markdown_tokens import (
    TASK_MARKS,
    full_parser,
    image_stand_in,
    is_task_paragraph,
    normalise_newlines,
    parse,
    release,
    task_mark,
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
    "plain_text",
    "read_note",
    "release",
    "render_html",
    "render_html_pieces",
    "selection_line_span",
    "utf16_length",
]

_UTF16: Final = "utf-16-le"
_INLINE_MARKUP: Final = re.compile(r"[*_`\[\]<>!&\\~]|://|www\.", re.IGNORECASE)
"""A text without any of these reads the same before and after the inline pass."""
PLAIN_TEXT_CHARS: Final = 1000
"""Longer heading or task texts are kept as written: the inline pass stays off hostile input."""
_PLAIN_TOKENS: Final = frozenset(("text", "code_inline", "image"))


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
    """A paragraph of text; ``in_list`` when it belongs to a list item (a task or a bullet)."""

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


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in text.split("\n") if part.strip())


def plain_text(content: str, env: dict[str, Any] | None = None) -> str:
    """Inline Markdown on one line as the preview shows its text (R55).

    ``env`` is the note's block-pass environment: with it, ``[Foo]`` naming a link
    reference defined elsewhere in the note reads as its label, as the preview shows it.
    """
    line = _one_line(content)
    if len(line) > PLAIN_TEXT_CHARS or not _INLINE_MARKUP.search(line):
        return line
    tokens = full_parser().parseInline(line, dict(env) if env else None)
    children = (tokens[0].children or []) if tokens else []
    return "".join(child.content for child in children if child.type in _PLAIN_TOKENS).strip()


def read_note(text: str) -> NoteReading:
    """Read a note once: title, headings, tasks, links and paragraphs, in document order."""
    env: dict[str, Any] = {}
    lines, tokens = parse(text, inline=False, env=env)
    headings: list[Heading] = []
    tasks: list[Task] = []
    blocks: list[Block] = []
    list_depth = 0
    for index, token in enumerate(tokens):
        kind = token.type
        if kind == "list_item_open":
            list_depth += 1
        elif kind == "list_item_close":
            list_depth -= 1
        elif kind == "heading_open" and token.map is not None:
            inline = tokens[index + 1]
            headings.append(
                Heading(int(token.tag[1:]), plain_text(inline.content, env), token.map[0])
            )
        elif kind == "inline" and token.map is not None:
            line = token.map[0]
            if tokens[index - 1].type != "paragraph_open":
                continue
            content = token.content
            mark = task_mark(content) if is_task_paragraph(tokens, index - 1) else None
            if mark is not None:
                source = lines[line]
                column = source.find("[") + 1  # only container markers come before it
                tasks.append(
                    Task(
                        plain_text(content[4:], env),
                        mark != " ",
                        line,
                        utf16_length(source[:column]),
                    )
                )
                content = content[4:]
            blocks.append(Block(_one_line(content), line, list_depth > 0))
    release(tokens)
    title = (
        headings[0].text
        if headings
        else plain_text(next((b.text for b in blocks if b.text), ""), env)
    )
    return NoteReading(lines, title, headings, tasks, blocks)


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
