"""The preview's HTML of a note, from the one Markdown grammar (R39, R55, R62).

Task marks are drawn as ☐ / ☑ boxes on the same token stream that
:func:`bridge.markdown.read_note` reads tasks from, so the preview and the todo view
agree about what is a task. The HTML comes in pieces of whole blocks, each cheap to
lay out on its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from markdown_it.token import Token

from bridge.markdown_tokens import full_parser, is_task_paragraph, parse, release, task_mark

_OPEN_BOX: Final = "☐ "
_DONE_BOX: Final = "☑ "
PIECE_TOKENS: Final = 150
"""Tokens of one preview piece: a few milliseconds of layout."""
PIECE_LIST_ITEMS: Final = 50
"""Items of one list in a preview piece; a longer top-level list goes on in the next one."""


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
    parser = full_parser()
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
