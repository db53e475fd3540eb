"""The names of a note's views: the one list the pointer, the app and the scenarios read.

A view's name travels in the pointer (``view``, R8) and names it in scenario files,
saved layouts and the pop-out's command line, so it must be known below the Qt
layers: the backend validates the pointer too. Everything else about a view (its
label, its widget, how it is read and drawn) is its entry in
:mod:`renderer.frames.inbox.view_kinds`, which registers the name here. The four views
the app ships with are named here once, each by its constant.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Final, NewType

from pydantic import AfterValidator, Field

View = NewType("View", str)
"""A registered view's name: one of :func:`view_names`."""

_names: list[View] = []
"""The views in the order the view buttons and their keys (Alt+1, Alt+2…) show them."""


def register_view_name(name: str) -> View:
    """Add ``name`` to the views (once; registering it again changes nothing)."""
    if not name or not name.isascii() or not name.isidentifier() or not name.islower():
        raise ValueError(f"A view's name is a lower-case ASCII word, not {name!r}.")
    view = View(name)
    if view not in _names:
        _names.append(view)
    return view


EDIT: Final = register_view_name("edit")
"""The note's text in its editor: the view a person types in, and the default one."""
PREVIEW: Final = register_view_name("preview")
TODO: Final = register_view_name("todo")
MINDMAP: Final = register_view_name("mindmap")
DEFAULT_VIEW: Final = EDIT


def view_names() -> tuple[View, ...]:
    """Every registered view, in order."""
    return tuple(_names)


def is_view(name: object) -> bool:
    """True when ``name`` is a registered view's name (exactly, as a string)."""
    return type(name) is str and name in _names


def in_words(names: Iterable[str], *, last: str = "or") -> str:
    """``a, b, c or d``: a list as a sentence says it."""
    listed = list(names)
    if len(listed) < 2:
        return "".join(listed)
    return f"{', '.join(listed[:-1])} {last} {listed[-1]}"


def view_named(name: str) -> View:
    """``name`` as a :data:`View`; a plain-language ``ValueError`` when no view is called so."""
    if not is_view(name):
        raise ValueError(f"Unknown view {name!r}; use {in_words(_names)}.")
    return View(name)


def _list_the_views(schema: dict[str, Any]) -> None:
    schema["enum"] = list(_names)


KnownView = Annotated[View, AfterValidator(view_named), Field(json_schema_extra=_list_the_views)]
"""A pydantic field holding a registered view's name (the schema lists them as an enum)."""
