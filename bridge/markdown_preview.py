"""The preview's HTML of a note (R39, R55, R62): cmark-gfm renders it, in pieces of whole blocks.

The preview's HTML comes from cmark-gfm (the C reference parser with GitHub's
extensions: tables, ``~~strikethrough~~`` and autolinks, bare URLs and e-mail
addresses as the GFM spec's examples say). It reads a 5 MiB note in a fraction of a
second where markdown-it-py takes seconds (``docs/dev/performance.md``, Previews).
The reading of headings and tasks (:mod:`bridge.markdown`) stays on markdown-it-py's
tokens; both follow CommonMark, and the agreement tests hold them to the same
headings and tasks (R39). The note's links are read from this HTML, so the links the
assistant names are the ones the preview shows.

cmark-gfm's HTML is post-processed, a linear pass of regular expressions:

- a task-list item's mark (``[ ]``, ``[x]``, ``[X]`` then white space, first in the
  item's first paragraph, as :func:`bridge.markdown_tokens.task_mark` says) is drawn
  as a ☐ / ☑ box, also where a reference definition made the mark a link label;
- an image is its alt text (R62): no ``<img>`` ever asks Qt to read a file;
- raw HTML is shown as text, as markdown-it-py with ``html`` off shows it: cmark-gfm
  leaves it out, so a top-level block that held any is rendered by markdown-it-py.

Each top-level block is found by its ``data-sourcepos`` (cmark's source lines), so the
HTML comes in pieces of whole blocks; a long top-level list is cut into shorter lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from html import escape, unescape
from typing import Final

import cmarkgfm
from cmarkgfm.cmark import Options
from markdown_it.token import Token

from bridge.markdown_tokens import (
    full_parser,
    image_stand_in,
    is_task_paragraph,
    normalise_newlines,
    parse,
    release,
    task_mark,
)
from bridge.preview_bounds import bounded_pieces

_OPEN_BOX: Final = "☐ "
_DONE_BOX: Final = "☑ "
PIECE_LIST_ITEMS: Final = 50
"""Items of one list in a preview piece; a longer top-level list goes on in the next one.

Qt's text layout lays out one giant list in time quadratic in its items."""
CMARK_EXTENSIONS: Final = ("table", "strikethrough", "autolink")
_CMARK_OPTIONS: Final = Options.CMARK_OPT_SOURCEPOS | Options.CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
"""Source lines on every block, for the pieces and the links; ``~~`` only, as markdown-it."""
_RAW_HTML: Final = "<!-- raw HTML omitted -->"
_BLOCK_START: Final = re.compile(r'^<(\w+)[^>]*? data-sourcepos="(\d+):\d+-(\d+):\d+"', re.M)
_SOURCEPOS: Final = re.compile(r' data-sourcepos="[^"]*"')
_TASK: Final = re.compile(
    r'(<li data-sourcepos="[^"]*">(?:\n<p data-sourcepos="[^"]*">)?)'
    r'(?:\[([ xX])\]|<a href="[^"]*"(?: title="[^"]*")?>([ xX])</a>)[ \t\n]'
)
_IMAGE: Final = re.compile(r'<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")? />')
_LINK: Final = re.compile(r'<a href="([^"]*)"(?: title="[^"]*")?>(.*?)</a>', re.S)
_TAG: Final = re.compile(r"<[^>]*>")


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


def render_html_pieces(text: str) -> list[str]:
    """:func:`render_html` in pieces of whole top-level blocks; joined, the note's HTML.

    A long top-level list is cut into lists of at most :data:`PIECE_LIST_ITEMS` items
    (an ordered one goes on counting), and every piece is bounded in size, nesting and
    runs (:func:`bridge.preview_bounds.bounded_pieces`). How many pieces the drawing lays
    out at once is the drawing's choice, by the time they take.
    """
    pieces: list[str] = []
    for block in _blocks(text):
        html = _SOURCEPOS.sub("", block.html)
        for part in _cut_list(html) if block.kind in ("ul", "ol") else (html,):
            pieces += bounded_pieces(part)  # R91: no piece too big or too deep for Qt
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


@cache
def _extensions() -> tuple[object, ...]:
    cmarkgfm.cmark.core_extensions_ensure_registered()
    return tuple(cmarkgfm.cmark.find_syntax_extension(name) for name in CMARK_EXTENSIONS)


def _cmark_html(text: str) -> str:
    cmark = cmarkgfm.cmark
    parser = cmark.parser_new(options=_CMARK_OPTIONS)
    try:
        for extension in _extensions():
            cmark.parser_attach_syntax_extension(parser, extension)
        cmark.parser_feed(parser, text)
        root = cmark.parser_finish(parser)
        extensions = cmark.parser_get_syntax_extensions(parser)
        return str(cmark.render_html(root, options=_CMARK_OPTIONS, extensions=extensions))
    finally:
        cmark.parser_free(parser)


def _boxed(match: re.Match[str]) -> str:
    mark = match[2] or match[3]
    return match[1] + (_OPEN_BOX if mark == " " else _DONE_BOX)


def _image(match: re.Match[str]) -> str:
    return f'<span class="image">{escape(image_stand_in(unescape(match[1])))}</span>'


def _blocks(text: str) -> list[_Block]:
    """The note's top-level blocks, each with its HTML as the preview shows it."""
    normalised = normalise_newlines(text)
    html = _cmark_html(normalised)
    html = _IMAGE.sub(_image, _TASK.sub(_boxed, html))
    # A nested block lies within its parent's source lines; a top-level one starts
    # after the lines of the one before.
    starts: list[tuple[int, int, str]] = []
    last_line = 0
    for match in _BLOCK_START.finditer(html):
        first = int(match[2])
        if first > last_line:
            starts.append((match.start(), first, match[1]))
        last_line = max(last_line, int(match[3]))
    lines: list[str] | None = None
    blocks: list[_Block] = []
    bounds = [(0, 1, "")] if not starts or starts[0][0] > 0 else []
    bounds += starts
    for index, (offset, line, kind) in enumerate(bounds):
        end, next_line = (
            (bounds[index + 1][0], bounds[index + 1][1])
            if index + 1 < len(bounds)
            else (len(html), 0)
        )
        piece = html[offset:end]
        if _RAW_HTML in piece:
            if lines is None:
                lines = normalised.split("\n")
            region = lines[line - 1 : next_line - 1] if next_line else lines[line - 1 :]
            piece = _markdown_it_html("\n".join(region), line - 1)
            kind = ""
        blocks.append(_Block(piece, line, kind))
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


def _markdown_it_html(region: str, line_offset: int) -> str:
    """Source lines holding raw HTML, rendered by markdown-it-py, which shows it as text.

    Each block keeps its source lines as ``data-sourcepos``, as cmark's blocks do.
    """
    tokens = _preview_tokens(region)
    for token in tokens:
        if token.nesting == 1 and token.map is not None:
            first, last = token.map
            token.attrSet("data-sourcepos", f"{first + 1 + line_offset}:1-{last + line_offset}:0")
    parser = full_parser()
    html = str(parser.renderer.render(tokens, parser.options, {}))
    release(tokens)
    return html


def _preview_tokens(text: str) -> list[Token]:
    """The full token stream with task marks turned into boxes."""
    _, tokens = parse(text, inline=True)
    for index, token in enumerate(tokens):
        if token.type != "inline" or index < 2:
            continue
        if tokens[index - 1].type != "paragraph_open" or not is_task_paragraph(tokens, index - 1):
            continue
        mark = task_mark(token.content)
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


def _box_over_label(children: list[Token], box: str) -> list[Token]:
    close = next((i for i, child in enumerate(children) if child.type == "link_close"), 0)
    rest = children[close + 1 :]
    if rest and rest[0].type == "text":
        rest[0].content = rest[0].content[1:]  # the white space after the mark
    marker = Token("text", "", 0)
    marker.content = box
    return [marker, *rest]
