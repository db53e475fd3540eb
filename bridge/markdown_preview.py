"""The preview's HTML of a note (R39, R55, R62): cmark-gfm renders it, in pieces of whole blocks.

The preview's HTML is cmark-gfm's (the C reference parser with GitHub's extensions:
tables, ``~~strikethrough~~`` and autolinks, bare URLs and e-mail addresses as the GFM
spec's examples say), rendered from the same syntax tree the note's reading takes its
headings and tasks from (:mod:`bridge.markdown_tree`). It reads a 5 MiB note in a
fraction of a second (``docs/dev/performance.md``, Previews). The note's links are read
from this HTML, so the links the assistant names are the ones the preview shows.

The preview shows the note otherwise than a web page would in three ways:

- raw HTML is shown as text: where cmark-gfm left some out, the tree is changed (an
  HTML block becomes a code block, inline HTML words) and rendered again;
- the mark of each task (the items :meth:`~bridge.markdown_tree.ParsedNote.task_mark`
  finds in the tree, on the source as written) is drawn as a ☐ / ☑ box, also where a
  reference definition made the mark a link label; an item whose text only shows a
  mark (``\\[ ]``) keeps it as text;
- an image is replaced by its alt text (R62): no ``<img>`` ever asks Qt to read a file.
Each top-level block is found by its ``data-sourcepos`` (cmark's source lines), so
the HTML comes in pieces of whole blocks; a long top-level list is cut into shorter lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape, unescape
from typing import Final

from bridge.markdown_tree import (
    CODE_BLOCK,
    CONTAINERS,
    HTML_BLOCK,
    ParsedNote,
    image_stand_in,
    item_mark_at,
    mark_at,
)
from bridge.preview_bounds import MAX_TABLE_ROWS, bounded_pieces

_OPEN_BOX: Final = "☐ "
_DONE_BOX: Final = "☑ "
PIECE_LIST_ITEMS: Final = 50
"""Items of one list in a preview piece; a longer top-level list goes on in the next one.

Qt's text layout lays out one giant list in time quadratic in its items."""
_BLOCK_START: Final = re.compile(r'^<(\w+)[^>]*? data-sourcepos="(\d+):\d+-(\d+):\d+"', re.M)
_SOURCEPOS: Final = re.compile(r' data-sourcepos="[^"]*"')
_RAW_HTML: Final = "<!-- raw HTML omitted -->"
_TASK: Final = re.compile(
    r'(<li data-sourcepos="(?P<li_line>\d+):(?P<li_column>\d+)-[^"]*">'
    r'(?:\n<p data-sourcepos="(?P<p_line>\d+):(?P<p_column>\d+)-[^"]*">)?)'
    r'(?:\[[ xX]\]|<a href="[^"]*"(?: title="[^"]*")?>[ xX]</a>)[ \t\n]'
)
"""Where an item's text starts with a mark; whether it is a task is the tree's to say."""
_IMAGE: Final = re.compile(r'<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")? />')
_LINK: Final = re.compile(r'<a href="([^"]*)"(?: title="[^"]*")?>(.*?)</a>', re.S)
_TAG: Final = re.compile(r"<[^>]*>")
_NO_INLINES: Final = CONTAINERS | {CODE_BLOCK}


@dataclass(frozen=True)
class PreviewLink:
    """A link as the preview shows it: its address, its text, its 0-based source line."""

    href: str
    text: str
    line: int


@dataclass(frozen=True)
class _Block:
    """One top-level block's HTML, ``data-sourcepos`` kept, and its first source line (1-based)."""

    html: str
    line: int
    kind: str


def render_html(text: str) -> str:
    """The note as HTML for the preview; task marks are drawn as ☐ / ☑ boxes."""
    return "".join(render_html_pieces(text))


def render_html_pieces(text: str, table_rows: int = MAX_TABLE_ROWS) -> list[str]:
    """:func:`render_html` in pieces of whole top-level blocks; joined, the note's HTML.

    A long top-level list is cut into lists of at most :data:`PIECE_LIST_ITEMS` items
    (an ordered one goes on counting), and every piece is bounded in size, nesting and
    runs (:func:`bridge.preview_bounds.bounded_pieces`). How many pieces the drawing lays
    out at once is the drawing's choice, by the time they take. ``table_rows`` is how many
    rows of a table are drawn as a table (the rest are lines of text).
    """
    pieces: list[str] = []
    for block in _blocks(text):
        html = _SOURCEPOS.sub("", block.html)
        for part in _cut_list(html) if block.kind in ("ul", "ol") else (html,):
            pieces += bounded_pieces(part, table_rows)  # R91: no piece too big or too deep for Qt
    return pieces or [""]


def preview_links(text: str) -> list[PreviewLink]:
    """The links of the note's preview, in document order (R39: the links it shows)."""
    found: list[PreviewLink] = []
    for block in _blocks(text):
        starts = [(match.start(), int(match[2])) for match in _BLOCK_START.finditer(block.html)]
        index = 0
        line = block.line
        for match in _LINK.finditer(block.html):
            while index < len(starts) and starts[index][0] < match.start():
                line = starts[index][1]
                index += 1
            label = " ".join(unescape(_TAG.sub("", match[2])).split())
            found.append(PreviewLink(unescape(match[1]), label, line - 1))
    return found


def _preview_html(text: str) -> str:
    """The note's HTML as the preview shows it: raw HTML as text, task marks as boxes."""
    with ParsedNote(text) as note:
        html = note.html()
        if _RAW_HTML in html:
            for kind, node, _items in note.blocks():
                if kind == HTML_BLOCK or (kind not in _NO_INLINES and note.lines_hold(node, "<")):
                    note.show_raw_html_as_text(node)
            html = note.html()
        lines = note.lines

    def boxed(match: re.Match[str]) -> str:
        # The item's text starts with a mark; whether its source does, as the reading
        # asks (``\\[ ]`` shows a mark and is none), is read from where cmark says.
        mark: str | None
        if match["p_line"] is not None:  # a loose list: the paragraph says where it starts
            found = mark_at(lines, int(match["p_line"]) - 1, int(match["p_column"]) - 1)
            mark = None if found is None else found[0]
        else:
            item = item_mark_at(lines, int(match["li_line"]) - 1, int(match["li_column"]) - 1)
            mark = None if item is None else item[0]
        if mark is None:
            return match[0]
        return match[1] + (_OPEN_BOX if mark == " " else _DONE_BOX)

    return _TASK.sub(boxed, html)


def _image(match: re.Match[str]) -> str:
    return f'<span class="image">{escape(image_stand_in(unescape(match[1])))}</span>'


def _blocks(text: str) -> list[_Block]:
    """The note's top-level blocks, each with its HTML as the preview shows it."""
    html = _IMAGE.sub(_image, _preview_html(text))
    # A nested block lies within its parent's source lines; a top-level one starts
    # after the lines of the one before.
    starts: list[tuple[int, int, str]] = []
    last_line = 0
    for match in _BLOCK_START.finditer(html):
        first = int(match[2])
        if first > last_line:
            starts.append((match.start(), first, match[1]))
        last_line = max(last_line, int(match[3]))
    bounds = [(0, 1, "")] if not starts or starts[0][0] > 0 else []
    bounds += starts
    blocks: list[_Block] = []
    for index, (offset, line, kind) in enumerate(bounds):
        end = bounds[index + 1][0] if index + 1 < len(bounds) else len(html)
        blocks.append(_Block(html[offset:end], line, kind))
    return blocks


def _cut_list(html: str) -> Iterator[str]:
    """A top-level list's HTML as lists of at most :data:`PIECE_LIST_ITEMS` items each."""
    opening_end = html.index(">") + 1
    opening, closing = html[:opening_end], html[html.rindex("</") :]
    items: list[int] = []
    depth = 0
    for match in re.finditer(r"^<(/?)(li|ul|ol)\b", html, re.M):
        if match[2] == "li" and not match[1] and depth == 1:
            items.append(match.start())
        elif match[2] != "li":
            depth += -1 if match[1] else 1
    if len(items) <= PIECE_LIST_ITEMS:
        yield html
        return
    start = re.match(r'<ol start="(\d+)"', opening)
    first_number = int(start[1]) if start else 1
    for group in range(0, len(items), PIECE_LIST_ITEMS):
        begin = items[group]
        end = (
            items[group + PIECE_LIST_ITEMS]
            if group + PIECE_LIST_ITEMS < len(items)
            else len(html) - len(closing)
        )
        head = opening
        if group and opening.startswith("<ol"):
            head = f'<ol start="{first_number + group}">'
        yield head + "\n" + html[begin:end] + closing
