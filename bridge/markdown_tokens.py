"""The one Markdown grammar (R39, R55): the parsers, and what the reading and the preview share.

The parser is markdown-it-py (CommonMark, plus tables, strikethrough and linkify). It is
linear in the size of the note; markdown-it's own nesting limit keeps deeply
nested quotes and lists linear too. :mod:`bridge.markdown` reads a note from its
tokens and :mod:`bridge.markdown_preview` renders the same tokens for the preview.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from html import escape
from typing import Any, Final

from markdown_it import MarkdownIt
from markdown_it.token import Token

TASK_MARKS: Final = frozenset(" xX")


def image_stand_in(alt: str) -> str:
    """What a Markdown image shows instead of itself (R62): its alt text, never its file."""
    return f"[image: {alt}]" if alt.strip() else "[image]"


def _render_image_as_text(
    _renderer: object, tokens: Sequence[Token], index: int, _options: object, _env: object
) -> str:
    # The alt text is the image token's children, already parsed as inline text.
    alt = inline_text(tokens[index].children or [])
    return f'<span class="image">{escape(image_stand_in(alt))}</span>'


@cache
def full_parser() -> MarkdownIt:
    """The grammar with its inline pass, as the preview renders it."""
    # Raw HTML in a note is shown as text: the preview is not a web page. An image is
    # rendered as its alt text, so no <img> ever asks Qt to read a file (R62).
    options = {"html": False, "linkify": True}
    parser = MarkdownIt("commonmark", options).enable(["table", "strikethrough", "linkify"])
    parser.add_render_rule("image", _render_image_as_text)
    return parser


@cache
def block_parser() -> MarkdownIt:
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


def task_mark(content: str) -> str | None:
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


def inline_text(children: Sequence[Token]) -> str:
    """The text of inline tokens: their words and code, without markup."""
    return "".join(child.content for child in children if child.type in ("text", "code_inline"))


def parse(
    text: str, *, inline: bool, env: dict[str, Any] | None = None
) -> tuple[list[str], list[Token]]:
    """The note's normalised lines and its tokens (with the inline pass or without).

    ``env`` receives what the block pass collects, such as the link reference
    definitions (``env["references"]``), so a later inline pass resolves them.
    """
    normalised = normalise_newlines(text)
    parser = full_parser() if inline else block_parser()
    return normalised.split("\n"), parser.parse(normalised, env)


def is_task_paragraph(tokens: list[Token], index: int) -> bool:
    """Whether ``tokens[index]`` (a paragraph_open) is the first child of a list item."""
    return index > 0 and tokens[index - 1].type == "list_item_open"


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
