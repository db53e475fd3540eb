"""The one reading of a note's Markdown (R39): title, headings, tasks, links, prose.

The preview, the todo view, the mindmap and the offline assistant all read a note
through :func:`read_note` (and the preview renders through :func:`render_html`,
from the same token stream), so they never disagree about what is a heading or a
task: a ``# comment`` in fenced or indented code is code for all of them.

Heading, task and title texts are plain text as the preview shows them (R55):
``**x**`` reads ``x``, entities and backslash escapes are decoded, a link reads as its
label and an image as its alt text. Bare URLs are links (GFM autolinks, through
linkify-it-py, markdown-it-py's own linkify plug-in).

The parser is markdown-it-py (CommonMark, plus tables, strikethrough and linkify). It is
linear in the size of the note; markdown-it's own nesting limit keeps deeply
nested quotes and lists linear too. Tasks are GitHub's task-list items: a list
item whose first paragraph starts with ``[ ]``, ``[x]`` or ``[X]`` followed by
white space. They are found here on the token stream, so a task's line and the
column of its mark come from the same parse as everything else.

Line numbers are **0-based** source lines of the note after line-ending
normalisation (CRLF and CR count as one line break), which is what the editor
counts as block numbers; a reply that shows them to a person adds 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from html import escape
from typing import Final

from markdown_it import MarkdownIt
from markdown_it.token import Token

TASK_MARKS: Final = frozenset(" xX")
_UTF16: Final = "utf-16-le"
_OPEN_BOX: Final = "☐ "
_DONE_BOX: Final = "☑ "
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
        """The note's links, read only when asked for: they need the inline pass."""
        found: list[Link] = []
        for token in _parser().parse("\n".join(self.lines)):
            if token.type == "inline" and token.map is not None:
                found += _links(token, token.map[0])
        return found

    @property
    def open_tasks(self) -> list[Task]:
        return [task for task in self.tasks if not task.done]


def image_stand_in(alt: str) -> str:
    """What a Markdown image shows instead of itself (R62): its alt text, never its file."""
    return f"[image: {alt}]" if alt.strip() else "[image]"


def _render_image_as_text(
    _renderer: object, tokens: Sequence[Token], index: int, _options: object, _env: object
) -> str:
    # The alt text is the image token's children, already parsed as inline text.
    alt = _inline_text(tokens[index].children or [])
    return f'<span class="image">{escape(image_stand_in(alt))}</span>'


@cache
def _parser() -> MarkdownIt:
    # Raw HTML in a note is shown as text: the preview is not a web page. An image is
    # rendered as its alt text, so no <img> ever asks Qt to read a file (R62).
    options = {"html": False, "linkify": True}
    parser = MarkdownIt("commonmark", options).enable(["table", "strikethrough", "linkify"])
    parser.add_render_rule("image", _render_image_as_text)
    return parser


@cache
def _block_parser() -> MarkdownIt:
    """The same grammar without the inline pass: headings, tasks and paragraphs are blocks.

    The inline pass (emphasis, links, code spans) is the costly part on hostile
    input such as a run of ``[`` or ``*a``; skipping it keeps a note's reading
    within a small factor of an ordinary note of the same size.
    """
    parser = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    return parser.disable("inline")


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF, as the parser sees them."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, as Qt and CodeMirror count positions."""
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def _task_mark(content: str) -> str | None:
    """The mark of a task paragraph (``" "``, ``"x"``, ``"X"``), or None."""
    if (
        len(content) >= 4
        and content[0] == "["
        and content[2] == "]"
        and content[1] in TASK_MARKS
        and content[3] in " \t\n"
    ):
        return content[1]
    return None


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in text.split("\n") if part.strip())


def plain_text(content: str) -> str:
    """Inline Markdown on one line as the preview shows its text (R55)."""
    line = _one_line(content)
    if len(line) > PLAIN_TEXT_CHARS or not _INLINE_MARKUP.search(line):
        return line
    tokens = _parser().parseInline(line)
    children = (tokens[0].children or []) if tokens else []
    return "".join(child.content for child in children if child.type in _PLAIN_TOKENS).strip()


def _inline_text(children: Sequence[Token]) -> str:
    return "".join(child.content for child in children if child.type in ("text", "code_inline"))


def _links(inline: Token, line: int) -> list[Link]:
    links: list[Link] = []
    children = inline.children or []
    index = 0
    while index < len(children):
        child = children[index]
        index += 1
        if child.type != "link_open":
            continue
        start = index
        while index < len(children) and children[index].type != "link_close":
            index += 1
        href = child.attrs.get("href")
        links.append(Link(str(href or ""), _inline_text(children[start:index]), line))
    return links


def _parse(text: str, *, inline: bool) -> tuple[list[str], list[Token]]:
    normalised = normalise_newlines(text)
    parser = _parser() if inline else _block_parser()
    return normalised.split("\n"), parser.parse(normalised)


def _is_task_paragraph(tokens: list[Token], index: int) -> bool:
    """Whether ``tokens[index]`` (a paragraph_open) is the first child of a list item."""
    return index > 0 and tokens[index - 1].type == "list_item_open"


def read_note(text: str) -> NoteReading:
    """Read a note once: title, headings, tasks, links and paragraphs, in document order."""
    lines, tokens = _parse(text, inline=False)
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
            headings.append(Heading(int(token.tag[1:]), plain_text(inline.content), token.map[0]))
        elif kind == "inline" and token.map is not None:
            line = token.map[0]
            if tokens[index - 1].type != "paragraph_open":
                continue
            content = token.content
            mark = _task_mark(content) if _is_task_paragraph(tokens, index - 1) else None
            if mark is not None:
                source = lines[line]
                column = source.find("[") + 1  # only container markers come before it
                tasks.append(
                    Task(plain_text(content[4:]), mark != " ", line, utf16_length(source[:column]))
                )
                content = content[4:]
            blocks.append(Block(_one_line(content), line, list_depth > 0))
    release(tokens)
    title = (
        headings[0].text if headings else plain_text(next((b.text for b in blocks if b.text), ""))
    )
    return NoteReading(lines, title, headings, tasks, blocks)


def render_html(text: str) -> str:
    """The note as HTML for the preview; task marks are drawn as ☐ / ☑ boxes."""
    return "".join(render_html_pieces(text))


def render_html_pieces(text: str) -> list[str]:
    """:func:`render_html` in pieces of whole blocks, each cheap to lay out on its own.

    A piece holds top-level blocks up to about :data:`PIECE_TOKENS` tokens; a long
    top-level list is cut into lists of at most :data:`PIECE_LIST_ITEMS` items (an
    ordered one goes on counting), so no piece lays out one giant list, which Qt's
    text layout does in time quadratic in its items. Joined, the pieces are the
    note's HTML.
    """
    tokens = _preview_tokens(text)
    parser = _parser()
    pieces: list[str] = []
    piece: list[Token] = []
    for block in _top_level_blocks(tokens):
        piece += block
        if len(piece) >= PIECE_TOKENS:
            pieces.append(str(parser.renderer.render(piece, parser.options, {})))
            piece = []
    if piece or not pieces:
        pieces.append(str(parser.renderer.render(piece, parser.options, {})))
    release(tokens)
    return pieces


RELEASE_SLICE: Final = 10_000


def release(items: list[Token]) -> None:
    """Empty a big list a slice at a time, from its end.

    A 5 MiB note parses to about a million tokens. Freed at once, when the list's
    last reference goes, they all go in one step of the interpreter, and every
    other thread (the GUI's) waits for it; a slice at a time, the interpreter can
    let the others run between slices.
    """
    while items:
        del items[-RELEASE_SLICE:]


PIECE_TOKENS: Final = 150
"""Tokens of one preview piece: a few milliseconds of layout."""
PIECE_LIST_ITEMS: Final = 50
"""Items of one list in a preview piece; a longer top-level list goes on in the next one."""


def _preview_tokens(text: str) -> list[Token]:
    """The full token stream with task marks turned into boxes."""
    _, tokens = _parse(text, inline=True)
    for index, token in enumerate(tokens):
        if token.type != "inline" or index < 2:
            continue
        if tokens[index - 1].type != "paragraph_open" or not _is_task_paragraph(tokens, index - 1):
            continue
        mark = _task_mark(token.content)
        children = token.children or []
        if mark is None or not children:
            continue
        box = _OPEN_BOX if mark == " " else _DONE_BOX
        if children[0].type == "text":
            children[0].content = box + children[0].content[4:]
        elif children[0].type == "link_open":
            # "[x]" that a reference definition also makes a link label: a task all the same,
            # as read_note and the todo view say (R55).
            token.children = _box_over_label(children, box)
    return tokens


def _top_level_blocks(tokens: list[Token]) -> Iterator[list[Token]]:
    """Each top-level block's tokens; a long top-level list as several shorter lists."""
    start = 0
    for index, token in enumerate(tokens):
        if token.level != 0 or token.nesting == 1:
            continue
        block = tokens[start : index + 1]
        start = index + 1
        if block[0].type in ("bullet_list_open", "ordered_list_open"):
            yield from _cut_list(block)
        else:
            yield block


def _cut_list(block: list[Token]) -> Iterator[list[Token]]:
    """A top-level list as lists of at most :data:`PIECE_LIST_ITEMS` items each."""
    opening, closing = block[0], block[-1]
    starts = [
        index
        for index, token in enumerate(block)
        if token.type == "list_item_open" and token.level == 1
    ]
    if len(starts) <= PIECE_LIST_ITEMS:
        yield block
        return
    first_number = int(opening.attrs.get("start", 1) or 1)
    for group in range(0, len(starts), PIECE_LIST_ITEMS):
        begin = starts[group]
        end = starts[group + PIECE_LIST_ITEMS] if group + PIECE_LIST_ITEMS < len(starts) else -1
        head = opening
        if group and opening.type == "ordered_list_open":
            head = opening.copy(attrs={**opening.attrs, "start": first_number + group})
        yield [head, *block[begin:end], closing]


def _box_over_label(children: list[Token], box: str) -> list[Token]:
    close = next((i for i, child in enumerate(children) if child.type == "link_close"), 0)
    rest = children[close + 1 :]
    if rest and rest[0].type == "text":
        rest[0].content = rest[0].content[1:]  # the white space after the mark
    marker = Token("text", "", 0)
    marker.content = box
    return [marker, *rest]


def find_lines(reading: NoteReading, term: str) -> list[tuple[int, str]]:
    """(0-based line, line) for every source line that mentions ``term``, ignoring case."""
    needle = term.casefold()
    if not needle:
        return []
    return [
        (number, line) for number, line in enumerate(reading.lines) if needle in line.casefold()
    ]


@dataclass(frozen=True)
class SelectedText:
    """The text between two UTF-16 offsets and the lines it covers."""

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
    start, end = min(anchor, head), max(anchor, head)
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
        before, selected = prefix[:start], prefix[start:end]
    else:
        units = prefix.encode(_UTF16, errors="surrogatepass")
        if 2 * end > len(units) and not clamp:
            return None
        # An offset inside a surrogate pair splits it; the halves are never a line
        # break, so the counts stay right, and the selected text shows a half as U+FFFD.
        before = units[: 2 * start].decode(_UTF16, errors="surrogatepass")
        selected = units[2 * start : 2 * end].decode(_UTF16, errors="replace")
    first = before.count("\n")
    last = first + selected.count("\n")
    if selected.endswith("\n"):
        last -= 1  # the line after a final line break has nothing selected
    return SelectedText(selected, first, last)
