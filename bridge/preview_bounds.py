"""The preview's HTML cut into pieces that Qt draws within the budget, whatever the note (R91).

Qt lays a block of rich text out in one go, at a cost that grows faster than its
size: one 1 MB paragraph, a table of 100,000 rows or 20,000 columns, 50,000 nested
quotes or a paragraph of 100,000 emphasis runs each held the GUI thread for
seconds to minutes when handed to Qt as one piece. This pass rewrites one top-level
block's HTML (cmark-gfm's, or markdown-it-py's for raw HTML: well-formed, quoted
attributes, ``>`` escaped in text) in one linear scan of its tags, so that:

- no piece handed to Qt is much longer than :data:`PIECE_CHARS`: a piece is cut
  after a block that ends past that size, or anywhere (within a long text too)
  past :data:`HARD_PIECE_CHARS`; the elements open at the cut are closed and
  opened again in the next piece, so a long table goes on as tables of fewer rows;
- quotes and lists nest at most :data:`MAX_NESTING` deep; deeper ones are drawn
  flat after a mark saying so;
- one paragraph (or cell, or heading) draws at most :data:`MAX_INLINE_TAGS`
  emphasis, code or link runs; the rest of its text is shown plain after a mark;
- a table draws at most :data:`MAX_COLUMNS` columns, and says how many it left out,
  and at most :data:`MAX_TABLE_ROWS` rows as a table: the rest are lines of text
  after a mark (Qt inserts each table in time that grows with the tables before it,
  so a long table cannot go on as ever more tables either);
- a link whose address is longer than :data:`MAX_LINK_CHARS` is shown as its text.

What is cut is still all in the note: the edit view shows it as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

PIECE_CHARS: Final = 4096
"""HTML characters after which a piece is cut at the end of the next block."""
HARD_PIECE_CHARS: Final = 4096
"""HTML characters after which a piece is cut at once, within a block or a text."""
MAX_NESTING: Final = 5
"""Quotes and lists drawn one inside another; deeper ones are drawn flat.

Qt indents a quote by 40 pixels on each side: deeper, a narrow frame has no room left."""
MAX_INLINE_TAGS: Final = 256
"""Emphasis, code and link runs drawn in one paragraph; the rest of it is plain text."""
MAX_COLUMNS: Final = 64
"""Columns of a table drawn; the others are left out, and the table says so."""
MAX_TABLE_ROWS: Final = 500
"""Rows of a table drawn as a table; the rest are shown as lines of text."""
MAX_CELL_CHARS: Final = 2048
"""Characters of a table cell's HTML drawn; Qt lays a whole table out at once."""
MAX_LINK_CHARS: Final = 2048
"""A link with a longer address is drawn as its text: Qt keeps the address per character run."""

NESTING_MARK: Final = "⋯ nested deeper than {depth} levels: shown flat from here"
INLINE_MARK: Final = " ⋯ [more formatting than the preview draws: the rest is plain text] "
COLUMNS_MARK: Final = "⋯ this table has {count:,} columns: the first {shown} are drawn"
CELL_MARK: Final = " ⋯ [this cell goes on: the edit view shows all of it]"
ROWS_MARK: Final = "⋯ this table has more than {shown:,} rows: the rest are shown as text"
_CELL_SEPARATOR: Final = " | "

_TOKEN: Final = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)([^>]*)>")
_NESTED: Final = frozenset(("blockquote", "ul", "ol"))
_BLOCKS: Final = frozenset(
    (
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "blockquote",
        "ul",
        "ol",
        "li",
        "table",
        "thead",
        "tbody",
        "tr",
        "td",
        "th",
        "div",
        "hr",
    )
)
_INLINE: Final = frozenset(("em", "strong", "del", "s", "code", "a", "span", "b", "i", "u"))
_VOID: Final = frozenset(("br", "hr", "img", "input"))
_CELLS: Final = frozenset(("td", "th"))
_HREF: Final = re.compile(r'\shref="([^"]*)"')
_OL_START: Final = re.compile(r'\sstart="(\d{1,9})"')
_ENTITY_TAIL: Final = re.compile(r"&[#A-Za-z0-9]{0,32}$")


@dataclass
class _Open:
    """An element open at this point of the block, as it was written."""

    name: str
    tag: str
    drawn: str | None
    """The element drawn for it (its own name, ``div`` for an item of a list drawn flat),
    None for one left out (too deep, too many runs): its end tag is left out too."""
    items: int = 0
    """List items seen so far, for an ``<ol>`` opened again after a cut."""


@dataclass
class _Cutter:
    pieces: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    size: int = 0
    stack: list[_Open] = field(default_factory=list)
    depth: int = 0
    """Quotes and lists drawn open, kept ones only."""
    flattened: int = 0
    """Quotes and lists open but drawn flat."""
    inline_tags: int = 0
    inline_marked: bool = False
    columns: int = 0
    """Cells of the current row so far."""
    widest: int = 0
    rows: int = 0
    """Rows of the current table so far."""
    cell: int | None = None
    """HTML characters of the table cell drawn so far, None outside a drawn cell."""
    """The most cells a row of the current table has."""
    skipping: int = 0
    """Depth inside a left-out cell: its content is not drawn."""
    table_rows: int = MAX_TABLE_ROWS
    """Rows of a table drawn as a table (fewer in a reply, which a label lays out at once)."""

    def emit(self, html: str) -> None:
        self.out.append(html)
        self.size += len(html)

    def cut(self) -> None:
        """End this piece here and open what is open again at the start of the next."""
        if not self.out:
            return
        closing = [f"</{item.drawn}>" for item in reversed(self.stack) if item.drawn]
        self.pieces.append("".join(self.out) + "".join(closing))
        self.out, self.size = [], 0
        for index, item in enumerate(self.stack):
            if item.drawn:
                self.emit(_reopened(item, self.stack[index + 1 :]))

    def text(self, text: str) -> None:
        if self.skipping:
            return
        if self.cell is not None:
            room = MAX_CELL_CHARS - self.cell
            if len(text) > room:
                text = text[: _safe_split(text, room)] + CELL_MARK if room > 0 else ""
            self.cell += len(text)
        while self.size + len(text) > HARD_PIECE_CHARS:
            room = max(HARD_PIECE_CHARS - self.size, 1)
            split = _safe_split(text, room)
            self.emit(text[:split])
            text = text[split:]
            self.cut()
        if text:
            self.emit(text)


def bounded_pieces(html: str, table_rows: int = MAX_TABLE_ROWS) -> list[str]:
    """One top-level block's HTML as pieces that Qt draws within the budget (see above).

    ``table_rows`` is how many rows of a table are drawn as a table.
    """
    if len(html) <= PIECE_CHARS and html.count("<") <= 2 * MAX_NESTING:
        return [html]  # the common case: nothing here can be too big or too deep
    cutter = _Cutter(table_rows=table_rows)
    position = 0
    for match in _TOKEN.finditer(html):
        if match.start() > position:
            cutter.text(html[position : match.start()])
        position = match.end()
        closing, name, rest = match[1] == "/", match[2].lower(), match[3]
        if closing:
            _close(cutter, name)
        else:
            _open(cutter, name, match[0], rest)
    if position < len(html):
        cutter.text(html[position:])
    if cutter.out:
        cutter.pieces.append("".join(cutter.out))
    return [piece for piece in cutter.pieces if piece.strip()] or [""]


def _open(cutter: _Cutter, name: str, tag: str, rest: str) -> None:
    if cutter.skipping:
        if name not in _VOID and not rest.endswith("/"):
            cutter.skipping += 1
        return
    if name in _VOID or rest.endswith("/"):
        cutter.emit(tag)
        return
    if name in _BLOCKS:
        cutter.inline_tags, cutter.inline_marked = 0, False
    drawn: str | None = name
    if name in _NESTED and cutter.depth >= MAX_NESTING:
        if cutter.flattened == 0:
            cutter.emit(f"<p><i>{NESTING_MARK.format(depth=MAX_NESTING)}</i></p>")
        drawn = None
    elif name == "li":
        parent = _nearest_list(cutter)
        if parent is not None:
            parent.items += 1
            if parent.drawn is None:
                drawn, tag = "div", "<div>"  # an item of a list drawn flat: still its own line
    elif name == "table":
        cutter.widest = cutter.rows = 0
    elif name == "tr":
        cutter.columns = 0
        cutter.rows += 1
        if cutter.rows > cutter.table_rows:
            _end_drawn_table(cutter)
            drawn, tag = "p", "<p>"
    elif name in _CELLS:
        cutter.columns += 1
        cutter.widest = max(cutter.widest, cutter.columns)
        if cutter.columns > MAX_COLUMNS:
            cutter.skipping = 1
            return
        if cutter.rows > cutter.table_rows:  # a row shown as a line of text
            drawn = None
            if cutter.columns > 1:
                cutter.emit(_CELL_SEPARATOR)
        else:
            cutter.cell = 0
    elif name in _INLINE and not _inline_kept(cutter, name, rest):
        drawn = None
    cutter.stack.append(_Open(name, tag, drawn))
    if name in _NESTED:
        if drawn is None:
            cutter.flattened += 1
        else:
            cutter.depth += 1
    if drawn is not None:
        cutter.emit(tag)


def _inline_kept(cutter: _Cutter, name: str, rest: str) -> bool:
    if name == "a":
        href = _HREF.search(rest)
        if href is not None and len(href[1]) > MAX_LINK_CHARS:
            return False
    cutter.inline_tags += 1
    if cutter.inline_tags <= MAX_INLINE_TAGS:
        return True
    if not cutter.inline_marked:
        cutter.inline_marked = True
        cutter.emit(INLINE_MARK)
    return False


def _close(cutter: _Cutter, name: str) -> None:
    if cutter.skipping:
        cutter.skipping -= 1
        return
    # cmark's HTML is well formed: the element closed is the one open last. Anything
    # else (never seen) closes up to the nearest element of that name.
    while cutter.stack:
        item = cutter.stack.pop()
        if item.name in _NESTED:
            if item.drawn is None:
                cutter.flattened -= 1
            else:
                cutter.depth -= 1
        if item.drawn:
            cutter.emit(f"</{item.drawn}>")
        if item.name == name:
            break
    if name in _CELLS:
        cutter.cell = None
    if name == "table" and cutter.widest > MAX_COLUMNS:
        mark = COLUMNS_MARK.format(count=cutter.widest, shown=MAX_COLUMNS)
        cutter.emit(f"<p><i>{mark}</i></p>")
    if name in _BLOCKS:
        cutter.inline_tags, cutter.inline_marked = 0, False
        if cutter.size >= PIECE_CHARS:
            cutter.cut()
    elif cutter.size >= HARD_PIECE_CHARS:
        cutter.cut()


def _end_drawn_table(cutter: _Cutter) -> None:
    """Close the table drawn so far; its next rows are lines of text after a mark."""
    table = next(
        (
            index
            for index in range(len(cutter.stack) - 1, -1, -1)
            if cutter.stack[index].name == "table"
        ),
        None,
    )
    if table is None or cutter.stack[table].drawn is None:
        return
    for item in reversed(cutter.stack[table:]):
        if item.drawn:
            cutter.emit(f"</{item.drawn}>")
            item.drawn = None
    cutter.emit(f"<p><i>{ROWS_MARK.format(shown=cutter.table_rows)}</i></p>")


def _nearest_list(cutter: _Cutter) -> _Open | None:
    return next((item for item in reversed(cutter.stack) if item.name in ("ul", "ol")), None)


def _reopened(item: _Open, inside: list[_Open]) -> str:
    """The start tag of an element that a cut closed, opened again in the next piece.

    An ordered list goes on counting: from its next item, or from the item the cut
    fell within (``inside`` is what is open within the list).
    """
    if item.name == "ol":
        start = _OL_START.search(item.tag)
        first = int(start[1]) if start else 1
        within = 1 if inside and inside[0].name == "li" else 0
        return f'<ol start="{first + item.items - within}">'
    return item.tag


def _safe_split(text: str, room: int) -> int:
    """Where to split escaped text at most ``room`` characters in: not within an entity."""
    split = min(room, len(text))
    tail = _ENTITY_TAIL.search(text, max(0, split - 33), split)
    if tail is not None and split < len(text):
        split = tail.start() or split
    return max(split, 1)
