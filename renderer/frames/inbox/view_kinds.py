"""Every view of a note, one entry each: its name, label, key, page, and how it is read and drawn.

The Inbox frame builds one page per entry, the view buttons and their keys
(Alt+1, Alt+2…) follow the entries' order, Help names them, and the drawing
reads and draws the shown one through its entry. Adding a view is an entry
here (or a :func:`register_view` call in the view's own module) and that module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from PySide6.QtWidgets import QPlainTextEdit, QWidget

from bridge.markdown import render_html_pieces
from bridge.views import (
    EDIT,
    MINDMAP,
    PREVIEW,
    TODO,
    View,
    in_words,
    register_view_name,
    view_names,
)
from renderer.ambient.outline import map_tree, parse_tasks
from renderer.frames.inbox.controls import build_editor
from renderer.frames.inbox.rendering import Reading
from renderer.frames.inbox.views import MindmapView, PreviewView, TodoView

PageT = TypeVar("PageT", bound=QWidget)

VIEW_KEY_MODIFIER: Final = "Alt"
"""With a view's number (its place among the entries, from 1), the key that shows it."""


@dataclass(frozen=True)
class ViewKind(Generic[PageT]):
    """One view of a note: what the frame, its buttons and its drawing need to know of it."""

    name: View
    label: str
    """The view button's text, and the view's name in Help (lower case there)."""
    make: Callable[[QWidget, str], PageT]
    """The view's page, given the frame's body and the note's path."""
    read: Reading | None = None
    """What the view shows, read from the note's text off the GUI thread (a module-level,
    Qt-free function); None for the editor, which shows the text itself."""
    draw: Callable[[PageT, Any], Iterator[None]] | None = None
    """Draws what :attr:`read` returned on the page, a slice per step."""
    reads_title: bool = False
    """:attr:`read` takes the note's file name after its text (the map's root)."""
    finds_text: bool = False
    """Find and Replace searches the page's text (R84): a text widget."""

    def drawing(self, page: QWidget, read: object) -> Iterator[None]:
        """The drawing of ``read`` on ``page`` (this view's page)."""
        assert self.draw is not None, f"the {self.name} view is not drawn"
        return self.draw(page, read)  # type: ignore[arg-type]  # built by this entry's make


_kinds: dict[View, ViewKind[Any]] = {}


def register_view(kind: ViewKind[PageT]) -> ViewKind[PageT]:
    """Add ``kind`` after the views registered so far (its name goes into the pointer's list)."""
    register_view_name(kind.name)
    _kinds[kind.name] = kind
    return kind


def view_kinds() -> list[ViewKind[Any]]:
    """Every view, in order; a name registered without an entry here is a mistake, said so."""
    missing = [name for name in view_names() if name not in _kinds]
    if missing:
        raise LookupError(f"No view entry for {in_words(missing, last='and')}: register one.")
    return [_kinds[name] for name in view_names()]


def view_kind(name: View) -> ViewKind[Any]:
    return _kinds[name]


def view_key(name: View) -> str:
    """The key that shows ``name`` in the frame that has the focus: Alt and its number."""
    return f"{VIEW_KEY_MODIFIER}+{view_names().index(name) + 1}"


def view_keys_text() -> str:
    """How Help names the view keys together: ``Alt+1…4``."""
    return f"{VIEW_KEY_MODIFIER}+1…{len(view_names())}"


def view_keys_does() -> str:
    """What Help says the view keys do: "Show the note as edit, preview, todo or map"."""
    return f"Show the note as {in_words(kind.label.lower() for kind in view_kinds())}"


def page_of(pages: dict[View, QWidget], kind: ViewKind[PageT]) -> PageT:
    """The page ``kind`` made among a frame's ``pages``, typed as its entry makes it."""
    return pages[kind.name]  # type: ignore[return-value]  # made by kind.make


def _make(page: Callable[[QWidget], PageT]) -> Callable[[QWidget, str], PageT]:
    return lambda body, _path: page(body)


EDIT_VIEW: Final = register_view(
    ViewKind[QPlainTextEdit](EDIT, "Edit", build_editor, finds_text=True)
)
PREVIEW_VIEW: Final = register_view(
    ViewKind[PreviewView](
        PREVIEW,
        "Preview",
        _make(PreviewView),
        read=render_html_pieces,
        draw=PreviewView.draw,
        finds_text=True,
    )
)

TODO_VIEW: Final = register_view(
    ViewKind[TodoView](TODO, "Todo", _make(TodoView), read=parse_tasks, draw=TodoView.draw)
)
MINDMAP_VIEW: Final = register_view(
    ViewKind[MindmapView](
        MINDMAP, "Map", _make(MindmapView), read=map_tree, draw=MindmapView.draw, reads_title=True
    )
)
