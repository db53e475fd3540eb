"""Which of a note's read-only views shows which text: each drawn once per text (R67).

The frame says which view is shown and what its text is; this reads the text off
the GUI thread and draws it in slices under a busy label, cancelling a drawing the
person switched away from, and skipping a view that already shows that text.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QWidget

from bridge.views import View
from renderer.frames.inbox.rendering import SlicedRender
from renderer.frames.inbox.view_kinds import view_kind
from renderer.frames.inbox.views import BusyLabel, RenderingCover
from renderer.qt.tasks import TaskRunner

TextVersion = tuple[int, int]
"""What a view was drawn from: (the frame's load, the document's revision)."""


class ViewDrawing:
    """The drawing of the read-only views of one frame (each view's entry says how)."""

    def __init__(
        self,
        runner: TaskRunner,
        pages: dict[View, QWidget],
        over: QWidget,
        parent: QObject,
    ) -> None:
        self.pages = pages
        self.cover = RenderingCover(over)
        self.busy_label = BusyLabel(over)
        self.renders = SlicedRender(runner, parent)
        self.renders.busy_changed.connect(self._say_busy)
        self.renders.finished.connect(self._on_drawn)
        self._drawn: dict[View, TextVersion] = {}
        self._drawing: View | None = None
        self._completed: dict[View, int] = {}
        """The load each view was last drawn from to the end (a cancelled drawing is not)."""

    def forget(self, view: View) -> None:
        """``view`` is to be drawn again at its next show (a long preview's new width)."""
        self._drawn.pop(view, None)

    def show(
        self,
        view: View,
        version: TextVersion | None,
        document: QTextDocument,
        *,
        title: str,
    ) -> None:
        """Draw ``view`` from the text of ``version`` unless it shows it already.

        ``version`` None (a note not loaded yet), or a view that is not drawn (the edit
        view), only cancels a
        drawing under way; ``document`` (the editor's) is read only when a drawing starts,
        a big note's a slice at a time.
        """
        if self._drawing is not None and self._drawing != view:
            self._drawn.pop(self._drawing, None)  # cancelled half drawn: draw it again next time
            self._completed.pop(self._drawing, None)  # and what it shows is half of it
            self._drawing = None
            self.renders.cancel()
        # Covered until drawn to the end from this load of the note: before, it would
        # say what it does not know (R80). While the note loads, the same holds.
        kind = view_kind(view)
        self.cover.cover(
            kind.read is not None and (version is None or self._completed.get(view) != version[0])
        )
        self._say_busy()
        if kind.read is None or version is None or self._drawn.get(view) == version:
            return
        self._drawn[view] = version
        self._drawing = view
        page = self.pages[view]
        arguments = (title,) if kind.reads_title else ()
        # Its raw text made plain off the GUI thread, then drawn a slice at a time.
        self.renders.render_document(
            kind.read, document, *arguments, draw=lambda read: kind.drawing(page, read)
        )

    def close(self) -> None:
        self.renders.close()

    def _on_drawn(self) -> None:
        drawn = self._drawn.get(self._drawing) if self._drawing is not None else None
        if self._drawing is not None and drawn is not None:
            self._completed[self._drawing] = drawn[0]
        self._drawing = None
        self.cover.cover(False)
        self._say_busy()

    def _say_busy(self, _busy: bool | None = None) -> None:
        """One "Rendering this note…" per view: the corner label only when no cover says it."""
        self.busy_label.show_busy(self.renders.busy and self.cover.isHidden())
