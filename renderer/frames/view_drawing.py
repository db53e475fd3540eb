"""Which of a note's read-only views shows which text: each drawn once per text (R67).

The frame says which view is shown and what its text is; this reads the text off
the GUI thread and draws it in slices under a busy label, cancelling a drawing the
person switched away from, and skipping a view that already shows that text.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QTextDocument, QTextOption
from PySide6.QtWidgets import QWidget

from bridge.markdown import render_html_pieces
from bridge.pointer import View
from renderer.frames.outline import map_tree, parse_tasks
from renderer.frames.rendering import SlicedRender
from renderer.frames.views import BusyLabel, MindmapView, PreviewView, RenderingCover, TodoView
from renderer.qt.tasks import TaskRunner

TextVersion = tuple[int, int]
"""What a view was drawn from: (the frame's load, the document's revision)."""


class ViewDrawing:
    """The drawing of the preview, todo and mindmap views of one frame."""

    def __init__(
        self,
        runner: TaskRunner,
        views: tuple[PreviewView, TodoView, MindmapView],
        over: QWidget,
        parent: QObject,
    ) -> None:
        self.preview, self.todo, self.mindmap = views
        self.cover = RenderingCover(over)
        self.busy_label = BusyLabel(over)
        self.renders = SlicedRender(runner, parent)
        self.renders.busy_changed.connect(self._say_busy)
        self.renders.finished.connect(self._on_drawn)
        self._drawn: dict[View, TextVersion] = {}
        self._drawing: View | None = None
        self._completed: dict[View, int] = {}
        """The load each view was last drawn from to the end (a cancelled drawing is not)."""
        # A new width for a long preview: its next show draws it again, for that width.
        self.preview.rewrap_wanted.connect(lambda: self._drawn.pop("preview", None))

    def show(
        self,
        view: View,
        version: TextVersion | None,
        document: QTextDocument,
        *,
        wrap_mode: QTextOption.WrapMode,
        title: str,
    ) -> None:
        """Draw ``view`` from the text of ``version`` unless it shows it already.

        ``version`` None (the edit view, or a note not loaded yet) only cancels a
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
        self.cover.cover(
            view != "edit" and (version is None or self._completed.get(view) != version[0])
        )
        self._say_busy()
        if view == "edit" or version is None or self._drawn.get(view) == version:
            return
        self._drawn[view] = version
        self._drawing = view
        render = self.renders.render_document  # its raw text made plain off the GUI thread
        if view == "preview":
            self.preview.set_wrap_mode(wrap_mode)  # chosen at load (R63)
            render(render_html_pieces, document, draw=self.preview.draw)
        elif view == "todo":
            render(parse_tasks, document, draw=self.todo.draw)
        else:
            render(map_tree, document, title, draw=self.mindmap.draw)

    def close(self) -> None:
        self.renders.close()
        self.preview.leave_documents()  # a big one is emptied a slice at a time, not freed at once

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
