"""The one Markdown parse (R39, R55): cmark-gfm's syntax tree, for the preview and the reading.

cmark-gfm (the C library inside ``cmarkgfm``: CommonMark with GitHub's tables,
``~~strikethrough~~`` and autolinks) parses a note once into a tree of nodes. The
preview renders that tree as HTML (:mod:`bridge.markdown_preview`) and the reading
takes its headings, tasks and paragraphs from it (:mod:`bridge.markdown`), so the two
cannot disagree about what is a heading, a task or a link. Both walk only the block
nodes (a 5 MiB note has about 80,000) and the inline nodes of the few blocks they need
the text of.

``cmarkgfm``'s own binding declares only what its HTML functions use. The node
functions are part of cmark's public API (``cmark-gfm.h``) and exported by the same
library, so they are declared here and bound with cffi's ABI mode on the library
``cmarkgfm`` loaded.

Tasks are GitHub's task-list items, decided on the source as written: a list item
whose first paragraph starts with ``[ ]``, ``[x]`` or ``[X]`` and white space. So
``\\[ ]`` is no task, and ``[x]`` that a reference definition also makes a link label
is one. cmark-gfm's own task-list extension is not used: the bundled version misses
every task inside a block quote.

Line numbers here are 0-based lines of the note after line-ending normalisation.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

TASK_MARKS: Final = frozenset(" xX")
CMARK_EXTENSIONS: Final = (b"table", b"strikethrough", b"autolink")

# cmark's node types (cmark-gfm.h): blocks, then inlines. Extension nodes (tables,
# strikethrough) get numbers at run time and are none of these.
DOCUMENT: Final = 0x8001
BLOCK_QUOTE: Final = 0x8002
LIST: Final = 0x8003
ITEM: Final = 0x8004
CODE_BLOCK: Final = 0x8005
HTML_BLOCK: Final = 0x8006
PARAGRAPH: Final = 0x8008
HEADING: Final = 0x8009
TEXT: Final = 0xC001
SOFTBREAK: Final = 0xC002
LINEBREAK: Final = 0xC003
CODE: Final = 0xC004
HTML_INLINE: Final = 0xC005
LINK: Final = 0xC009
CONTAINERS: Final = frozenset((BLOCK_QUOTE, LIST, ITEM))
_LITERAL_INLINES: Final = frozenset((TEXT, CODE, HTML_INLINE))
_BREAKS: Final = frozenset((SOFTBREAK, LINEBREAK))

_DECLARATIONS: Final = """
typedef struct cmark_node cmark_node;
typedef struct cmark_parser cmark_parser;
typedef struct cmark_syntax_extension cmark_syntax_extension;
typedef struct cmark_llist cmark_llist;
typedef struct cmark_mem {
  void *(*calloc)(size_t, size_t);
  void *(*realloc)(void *, size_t);
  void (*free)(void *);
} cmark_mem;
cmark_mem *cmark_get_default_mem_allocator(void);
void cmark_gfm_core_extensions_ensure_registered(void);
cmark_syntax_extension *cmark_find_syntax_extension(const char *name);
cmark_parser *cmark_parser_new(int options);
int cmark_parser_attach_syntax_extension(cmark_parser *parser, cmark_syntax_extension *ext);
cmark_llist *cmark_parser_get_syntax_extensions(cmark_parser *parser);
void cmark_parser_feed(cmark_parser *parser, const char *buffer, size_t len);
cmark_node *cmark_parser_finish(cmark_parser *parser);
void cmark_parser_free(cmark_parser *parser);
char *cmark_render_html(cmark_node *root, int options, cmark_llist *extensions);
cmark_node *cmark_node_new(int type);
void cmark_node_free(cmark_node *node);
cmark_node *cmark_node_first_child(cmark_node *node);
cmark_node *cmark_node_next(cmark_node *node);
int cmark_node_get_type(cmark_node *node);
int cmark_node_get_start_line(cmark_node *node);
int cmark_node_get_start_column(cmark_node *node);
int cmark_node_get_end_line(cmark_node *node);
int cmark_node_get_heading_level(cmark_node *node);
const char *cmark_node_get_literal(cmark_node *node);
int cmark_node_set_literal(cmark_node *node, const char *content);
int cmark_node_insert_before(cmark_node *node, cmark_node *sibling);
void cmark_node_unlink(cmark_node *node);
"""

_TASK_MARK: Final = re.compile(r"\[([ xX])\](?=[ \t]|$)")
_ITEM_MARKER: Final = re.compile(r"(?:[-+*]|\d{1,9}[.)])[ \t]*")


@dataclass(frozen=True)
class _Library:
    ffi: Any
    lib: Any
    extensions: tuple[Any, ...]
    options: int
    """Source lines on every block, for the preview's pieces and links; ``~~`` only."""


_library: _Library | None = None
_library_lock = threading.Lock()


def _cmark_library() -> _Library:
    global _library
    with _library_lock:
        if _library is None:
            # Imported at the first parse, not with the module: the editor's first paint
            # needs this module's text counts but no parser (issue 40, start-up).
            import cffi
            from cmarkgfm import _cmark

            ffi = cffi.FFI()
            ffi.cdef(_DECLARATIONS)
            lib: Any = ffi.dlopen(_cmark.__file__)  # the library cmarkgfm loaded: one registry
            lib.cmark_gfm_core_extensions_ensure_registered()
            extensions = tuple(lib.cmark_find_syntax_extension(name) for name in CMARK_EXTENSIONS)
            options = int(
                _cmark.lib.CMARK_OPT_SOURCEPOS | _cmark.lib.CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
            )
            _library = _Library(ffi, lib, extensions, options)
        return _library


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF, as the parser sees them."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, as Qt and CodeMirror count positions."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def image_stand_in(alt: str) -> str:
    """What a Markdown image shows instead of itself (R62): its alt text, never its file."""
    return f"[image: {alt}]" if alt.strip() else "[image]"


def one_line(text: str) -> str:
    """A text's lines, each stripped, joined by single spaces; blank lines dropped."""
    if "\n" not in text:
        return text.strip()  # most paragraphs and every ATX heading: no split needed
    return " ".join(part.strip() for part in text.split("\n") if part.strip())


@dataclass(frozen=True)
class TaskMark:
    """A task item's mark, found in the source: where it is and what it says."""

    paragraph: Any
    """The item's first paragraph (a cmark node), whose text starts with the mark."""
    mark: str
    line: int
    column: int
    """Index in the line of the character between the brackets."""


class ParsedNote:
    """One note parsed by cmark-gfm; close it (``with``) to free the tree."""

    def __init__(self, text: str) -> None:
        self.text = normalise_newlines(text)
        self.lines = self.text.split("\n")
        library = _cmark_library()
        self._ffi = library.ffi
        self._lib = lib = library.lib
        self._null = library.ffi.NULL
        data = self.text.encode("utf-8", errors="surrogatepass")
        self._options = library.options
        self._parser = lib.cmark_parser_new(library.options)
        for extension in library.extensions:
            lib.cmark_parser_attach_syntax_extension(self._parser, extension)
        lib.cmark_parser_feed(self._parser, data, len(data))
        self.root = lib.cmark_parser_finish(self._parser)

    def __enter__(self) -> ParsedNote:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._parser is not None:
            self._lib.cmark_node_free(self.root)
            self._lib.cmark_parser_free(self._parser)
            self._parser = None

    def html(self) -> str:
        """The tree as HTML, with ``data-sourcepos`` on every block; raw HTML left out."""
        lib = self._lib
        rendered = lib.cmark_render_html(
            self.root, self._options, lib.cmark_parser_get_syntax_extensions(self._parser)
        )
        try:
            return str(self._ffi.string(rendered).decode("utf-8", errors="replace"))
        finally:
            lib.cmark_get_default_mem_allocator().free(rendered)

    def blocks(self) -> Iterator[tuple[int, Any, int]]:
        """Every block outside a table, in document order: (type, node, list items around it).

        Containers (quotes, lists, items) come before what they hold. The caller may
        replace a block that is not a container before it takes the next one.
        """
        lib = self._lib
        first_child, next_sibling, kind_of = (
            lib.cmark_node_first_child,
            lib.cmark_node_next,
            lib.cmark_node_get_type,
        )
        null = self._null
        pending: list[tuple[Any, int]] = [(first_child(self.root), 0)]
        while pending:  # an explicit stack: deep nesting cannot exhaust recursion
            node, depth = pending.pop()
            while node != null:
                kind = kind_of(node)
                following = next_sibling(node)  # before the caller may replace ``node``
                yield kind, node, depth
                if kind in CONTAINERS:
                    pending.append((following, depth))
                    node, depth = first_child(node), depth + (kind == ITEM)
                    continue
                node = following

    def start(self, node: Any) -> tuple[int, int]:
        """A node's first line and the byte of that line it starts at, both 0-based."""
        lib = self._lib
        return lib.cmark_node_get_start_line(node) - 1, lib.cmark_node_get_start_column(node) - 1

    def start_line(self, node: Any) -> int:
        return int(self._lib.cmark_node_get_start_line(node)) - 1

    def end_line(self, node: Any) -> int:
        return int(self._lib.cmark_node_get_end_line(node)) - 1

    def heading_level(self, node: Any) -> int:
        return int(self._lib.cmark_node_get_heading_level(node))

    def task_mark(self, item: Any) -> TaskMark | None:
        """The task mark of a list item, read from the source as written, or None."""
        lib = self._lib
        paragraph = lib.cmark_node_first_child(item)
        if paragraph == self._null or lib.cmark_node_get_type(paragraph) != PARAGRAPH:
            return None
        line, column = self.start(paragraph)
        found = mark_at(self.lines, line, column)
        if found is None:
            return None
        mark, index = found
        if not self.lines[line][index + 3 :].strip() and self.end_line(paragraph) == line:
            return None  # a mark and nothing after it: a paragraph of "[ ]", as GitHub says
        return TaskMark(paragraph, mark, line, index + 1)

    def paragraph_source(self, node: Any, *, after_mark: bool = False) -> str:
        """A paragraph's source on one line, its containers' marks left out."""
        first, last = self.start_line(node), self.end_line(node)
        start = _character_index(
            self.lines[first], int(self._lib.cmark_node_get_start_column(node)) - 1
        )
        parts = [self.lines[first][start + (3 if after_mark else 0) :]]
        for line in self.lines[first + 1 : last + 1]:
            prefix = line[:start]
            parts.append(line[start:] if not prefix.strip(" \t>") else line.lstrip(" \t>"))
        return one_line("\n".join(parts))

    def text_of(self, node: Any, *, skip_mark: bool = False, most: int | None = None) -> str:
        """A block's inline text as the preview shows it, on one line (R55).

        Words, code and raw HTML (shown as text) as written, entities and escapes
        decoded, a link as its label, an image as its alt text. ``skip_mark`` leaves out
        a task's mark, which the source says starts the block. ``most``: stop once about
        this many characters are read (the walk costs a call into cmark per inline, and
        a 64 KiB paragraph of ``*a`` holds 50,000 of them).
        """
        lib = self._lib
        null = self._null
        first_child, next_sibling, kind_of, literal_of = (
            lib.cmark_node_first_child,
            lib.cmark_node_next,
            lib.cmark_node_get_type,
            lib.cmark_node_get_literal,
        )
        parts: list[str] = []
        read = 0
        enough = None if most is None else most + 3  # the mark is read, then left out
        child = first_child(node)
        if skip_mark and child != null and kind_of(child) == LINK:
            child = next_sibling(child)  # "[x]" a reference definition made a link label
            skip_mark = False
        pending: list[Any] = [child]
        while pending:
            child = pending.pop()
            while child != null:
                kind = kind_of(child)
                if kind in _LITERAL_INLINES:
                    parts.append(self._string(literal_of(child)))
                    read += len(parts[-1])
                    if enough is not None and read >= enough:
                        pending.clear()
                        break
                elif kind in _BREAKS:
                    parts.append("\n")
                else:
                    pending.append(next_sibling(child))
                    child = first_child(child)
                    continue
                child = next_sibling(child)
        text = "".join(parts)
        return one_line(text[3:] if skip_mark else text)

    def show_raw_html_as_text(self, node: Any) -> None:
        """Raw HTML in ``node`` becomes text: an HTML block a code block, inline HTML words.

        cmark-gfm leaves raw HTML out of its HTML; the preview is no web page, so it
        shows the HTML as written.
        """
        lib = self._lib
        if lib.cmark_node_get_type(node) == HTML_BLOCK:
            self._replace(node, CODE_BLOCK)
            return
        null = self._null
        pending: list[Any] = [lib.cmark_node_first_child(node)]
        while pending:
            child = pending.pop()
            while child != null:
                following = lib.cmark_node_next(child)
                if lib.cmark_node_get_type(child) == HTML_INLINE:
                    self._replace(child, TEXT)
                else:
                    pending.append(lib.cmark_node_first_child(child))
                child = following

    def lines_hold(self, node: Any, needle: str) -> bool:
        """Whether the source lines of ``node`` contain ``needle``."""
        first, last = self.start_line(node), self.end_line(node)
        return any(needle in line for line in self.lines[max(first, 0) : last + 1])

    def _replace(self, node: Any, kind: int, literal: str | None = None) -> None:
        lib = self._lib
        replacement = lib.cmark_node_new(kind)
        text = self._string(lib.cmark_node_get_literal(node)) if literal is None else literal
        self._set_literal(replacement, text)
        lib.cmark_node_insert_before(node, replacement)
        lib.cmark_node_unlink(node)
        lib.cmark_node_free(node)

    def _set_literal(self, node: Any, text: str) -> None:
        self._lib.cmark_node_set_literal(node, text.encode("utf-8", errors="surrogatepass"))

    def _string(self, pointer: Any) -> str:
        if pointer == self._null:
            return ""
        return str(self._ffi.string(pointer).decode("utf-8", errors="replace"))


def mark_at(lines: list[str], line: int, byte_column: int) -> tuple[str, int] | None:
    """The task mark (``" "``, ``"x"``, ``"X"``) a paragraph starting there starts with, as
    written, and the index in its line of the ``[``; or None."""
    source = lines[line]
    index = _character_index(source, byte_column)
    match = _TASK_MARK.match(source, index)
    return None if match is None else (match[1], index)


def item_mark_at(lines: list[str], line: int, byte_column: int) -> tuple[str, int, int] | None:
    """:func:`mark_at` for the paragraph of the list item whose marker starts there.

    Its text starts after the marker (``-``, ``*``, ``+``, ``1.``, ``1)``) and its
    spaces, or on the next line when nothing follows the marker. Gives the mark, the
    line and the index in it of the ``[``.
    """
    source = lines[line]
    marker = _ITEM_MARKER.match(source, _character_index(source, byte_column))
    if marker is None:
        return None
    if marker.end() < len(source):
        index = marker.end()
    elif line + 1 < len(lines):
        line += 1
        source = lines[line]
        index = len(source) - len(source.lstrip(" \t>"))
    else:
        return None
    match = _TASK_MARK.match(source, index)
    return None if match is None else (match[1], line, index)


def _character_index(line: str, byte_column: int) -> int:
    """The index in ``line`` of a byte offset of its UTF-8 encoding (cmark counts bytes)."""
    if line.isascii():
        return byte_column
    return len(line.encode("utf-8", errors="surrogatepass")[:byte_column].decode("utf-8", "ignore"))
