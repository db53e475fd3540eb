"""The live runtime an Inbox frame publishes: a handle that reads the editor when asked (R1, R11).

Nothing caches the note text: every read goes to the editor at that moment.
A frame publishes as soon as it mounts, before its note's text arrives; until
then :meth:`InboxRuntime.is_loaded` is False and nothing reads it for a pointer.
"""

from __future__ import annotations

from typing import Protocol

from bridge.pointer import Selection
from bridge.views import View
from renderer.ambient.lines import SelectedSpan


class InboxRuntime(Protocol):
    """A mounted Inbox view. Methods are called on the thread that owns the editor."""

    @property
    def frame_id(self) -> str: ...

    def current_path(self) -> str:
        """Workspace-relative POSIX path of the note the frame shows now."""
        ...

    def current_view(self) -> View:
        """The view the frame shows now: edit, preview, todo or mindmap."""
        ...

    def is_loaded(self) -> bool:
        """Whether the editor holds the text of :meth:`current_path` (False while it loads)."""
        ...

    def read_text(self) -> str:
        """The editor's document text now (never a copy taken earlier)."""
        ...

    def read_selection(self) -> Selection | None:
        """The main selection in UTF-16 code units, or None when the view has none."""
        ...

    def read_selected_span(self) -> SelectedSpan | None:
        """The text from the start of the selection's first line to its end; None for none.

        What the chip reads on a selection change (R48, R67): its cost follows the
        selection, not the note.
        """
        ...
