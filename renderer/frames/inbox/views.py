"""The read-only views of an Inbox note: rendered Markdown, the task checklist, the heading map.

Each view redraws from the note text it is given; none keeps its own copy of the
note as truth. Ticking a task asks the frame to edit the live document.

A view renders in two halves (R67, :mod:`renderer.frames.inbox.rendering`): ``read``
is the Markdown reading, Qt-free, run off the GUI thread; ``draw`` builds the
widgets from it as a generator, a few items per step, and keeps the reader's
scroll place when it draws the same note again.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Final

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QObject,
    QPointF,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QResizeEvent,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollBar,
    QVBoxLayout,
    QWidget,
)

from renderer.ambient.outline import (
    GAP_Y,
    NODE_HEIGHT,
    TASK_DRAWN_CHARS,
    TITLE_DRAWN_CHARS,
    Heading,
    Task,
    clipped,
)
from renderer.qt.inert_text import InertBrowser
from renderer.qt.scheme import Scheme, Tone, scheme_of

_TASKS_PER_STEP: Final = 100
_NODES_PER_STEP: Final = 25
_BLOCKS_REMOVED_PER_STEP: Final = 500
_ROWS_REMOVED_PER_STEP: Final = 500
_ITEMS_REMOVED_PER_STEP: Final = 200
REWRAP_LATER_CHARS: Final = 100_000
"""A preview this long is wrapped again to a new width by a fresh drawing, not by Qt."""
REWRAP_SETTLE_MS: Final = 250
"""How long the width must stay put before a long preview is drawn again for it."""
RENDERING: Final = "Rendering this note…"
DRAW_STEP_SECONDS: Final = 0.016
"""Work of one drawing step: well within the 100 ms a stall may last (R67), when busy too."""
LAYOUT_STEP_SECONDS: Final = 0.008
"""Laying out the shown document, in one go: it runs while the person types and scrolls."""
EMPTY_SLICE_SECONDS: Final = 0.008
"""Emptying the documents shown before, in one go: well under a 16 ms frame."""
FIRST_STEP_CHARACTERS: Final = 8192
"""HTML characters of a drawing's first step, before any step is timed."""
_SEAM: Final = "<p>\u200b</p>"
"""Put before a piece of HTML appended to the preview, then deleted: see :meth:`_append`."""


class BusyLabel(QLabel):
    """Says that a view is being drawn, while it is (R67: a visible busy state).

    It floats over the top corner of the views instead of taking a row of the
    layout: showing it must not resize a view that holds a big note.
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(RENDERING, parent)
        self._over = parent
        self.setObjectName("renderBusy")
        self.setAccessibleName("Rendering this note")
        self.setAutoFillBackground(True)
        self.setMargin(4)
        self.setVisible(False)

    def show_busy(self, busy: bool) -> None:
        if busy:
            self.adjustSize()
            self.move(max(0, self._over.width() - self.width() - 24), 6)
            self.raise_()
        self.setVisible(busy)


class RenderingCover(QLabel):
    """Covers the views while a view has nothing of this note drawn yet (R80).

    A view not yet drawn from the note it shows would state what it does not know:
    the todo view's "no tasks" hint, an empty map or preview, or the drawing of the
    note the frame showed before. Until the drawing ends, the cover says only that
    the note is being rendered. A view drawn again for new text of the same note
    stays uncovered: what it shows is that note's, a moment older (R67).
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(RENDERING, parent)
        self._over = parent
        self.setObjectName("renderCover")
        self.setAccessibleName("Rendering this note")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setAutoFillBackground(True)
        self.setVisible(False)

    def cover(self, covered: bool) -> None:
        if covered == self.isVisible():
            return
        # The covered widget's resizes are followed only while covered: a Python event
        # filter on it for good would run at every event it gets while the person types.
        if covered:
            self.setGeometry(self._over.rect())
            self.raise_()
            self._over.installEventFilter(self)
        else:
            self._over.removeEventFilter(self)
        self.setVisible(covered)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._over and event.type() == QEvent.Type.Resize:
            self.setGeometry(self._over.rect())
        return False


class _ScrollPlace:
    """The reader's place in a scroll bar, put back once the redrawn view is long enough."""

    def __init__(self, bar: QScrollBar) -> None:
        self._bar = bar
        self._value = bar.value()

    def restore(self) -> bool:
        """Put the place back if the view is long enough by now; whether it is back."""
        if not self._value:
            return True
        if self._bar.maximum() < self._value:
            return False
        self._bar.setValue(self._value)
        return True


def _fresh_document(like: QTextDocument, parent: QWidget) -> QTextDocument:
    """An empty document set up as ``like``, owned by ``parent``."""
    document = QTextDocument(parent)
    document.setDefaultFont(like.defaultFont())
    document.setDefaultStyleSheet(like.defaultStyleSheet())
    document.setDefaultTextOption(like.defaultTextOption())
    document.setDocumentMargin(like.documentMargin())
    # The view's width, before any text: a document without one lays each block out on
    # one line of its natural width when its layout is made, seconds for long blocks (R91).
    document.setPageSize(like.pageSize())
    # Drawing appends through a cursor; an undo history of it would only hold memory.
    document.setUndoRedoEnabled(False)
    return document


def _empty(document: QTextDocument) -> Iterator[None]:
    """Remove a document's text from the end, a slice of blocks at a time."""
    cursor = QTextCursor(document)
    while document.blockCount() > 1:
        start = document.findBlockByNumber(max(0, document.blockCount() - _BLOCKS_REMOVED_PER_STEP))
        cursor.setPosition(start.position())
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        yield


class _TimedSteps:
    """How much one step may take on, from how long the steps before took (R67).

    Each step's size is the one that would have taken :data:`DRAW_STEP_SECONDS` at the
    pace measured so far, at most twice the one before: the machine's own speed, and
    how busy it is now, size the steps, not a fixed count.
    """

    def __init__(self, first: int, seconds: float = DRAW_STEP_SECONDS) -> None:
        self.size = first
        self._seconds = seconds

    @contextmanager
    def timed(self, amount: int) -> Iterator[None]:
        started = time.perf_counter()
        yield
        seconds = max(time.perf_counter() - started, 1e-4)
        pace = self._seconds / seconds * max(amount, 1)
        self.size = max(1, min(int(pace), 2 * self.size))


class _HeldLayoutTimer(QObject):
    """Holds back the timer of a document's layout while the drawing lays it out itself.

    Qt lays a big shown document out from a timer, in steps that grow to 200,000
    characters: 50-130 ms each for a 5 MiB note, stalls of the window (R67), and
    laid out after the drawing has ended they hold up the typing that follows.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        return event.type() == QEvent.Type.Timer


class _LeftDocuments(QObject):
    """Empties the documents of closed previews, a slice at a time, then deletes them (R67).

    A view deleted with its 5 MiB document laid out frees it in one go: 550 ms on
    the GUI thread on a loaded machine, measured closing a frame. The application
    owns this, so the documents outlive their view.
    """

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._documents: list[QTextDocument] = []
        self._emptied: Iterator[None] | None = None
        self._held_layout = _HeldLayoutTimer(self)  # no layout of what is being emptied
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._empty)

    def take(self, documents: list[QTextDocument]) -> None:
        for document in documents:
            # Nobody may hear of the emptying: whatever watched the document (a find bar
            # counting matches) went with its view and must not be called on the way out.
            document.blockSignals(True)
            # An editor's document keeps what is removed from it to undo: the emptying
            # would keep the whole note there, to be freed in one go with the document.
            document.setUndoRedoEnabled(False)
            document.setParent(self)
            document.documentLayout().installEventFilter(self._held_layout)
            self._documents.append(document)
        if self._documents and not self._timer.isActive():
            self._timer.start()

    def _empty(self) -> None:
        deadline = time.perf_counter() + EMPTY_SLICE_SECONDS
        while self._documents:
            if self._emptied is None:
                self._emptied = _empty(self._documents[-1])
            for _ in self._emptied:
                if time.perf_counter() >= deadline:
                    return
            self._emptied = None
            self._documents.pop().deleteLater()
        self._timer.stop()


def _left_documents() -> _LeftDocuments | None:
    application = QCoreApplication.instance()
    if application is None:
        return None
    found = application.findChild(_LeftDocuments)
    return found if isinstance(found, _LeftDocuments) else _LeftDocuments(application)


def leave_documents(documents: list[QTextDocument]) -> None:
    """Hand documents no widget shows any more to the application, to empty a slice at a time.

    Freed at once, a document of a 5 MiB note holds the GUI thread for hundreds of
    milliseconds (R67). Without an application (nothing is shown) they are freed as usual.
    """
    left = _left_documents()
    if left is None:
        for document in documents:
            document.deleteLater()
        return
    left.take(documents)


class PreviewView(InertBrowser):
    """The note rendered from Markdown, by the same reading as the other views (R39).

    It loads nothing and follows no link by itself (R62); the frame decides what a
    clicked link does.
    """

    rewrap_wanted = Signal()
    """A long preview's width changed and stayed put: draw it again for the new width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Rendered note")
        self.document().setDocumentMargin(14)
        self.document().setUndoRedoEnabled(False)
        self._retired: list[QTextDocument] = []
        """Documents shown before, still to be emptied and deleted."""
        self._wrap_mode = self.wordWrapMode()
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(REWRAP_SETTLE_MS)
        self._settle.timeout.connect(self._on_width_settled)
        self._place: _ScrollPlace | None = None
        self._held_layout = _HeldLayoutTimer(self)
        self._laying: Iterator[None] | None = None
        # The shown document is laid out by a timer of the view's own, after the drawing:
        # drawn, the note is there as after one setHtml, which Qt too lays out after.
        self._laying_timer = QTimer(self)
        self._laying_timer.setInterval(0)
        self._laying_timer.timeout.connect(self._lay_out_step)
        self._filling: QTextDocument | None = None
        """The document a drawing fills off the screen, until it is shown."""
        self._emptied: Iterator[None] | None = None
        # Emptied by a timer of the view's own, not by the drawing: the note is drawn
        # once its document is shown, and a new drawing need not wait for the old one's.
        self._emptying = QTimer(self)
        self._emptying.setInterval(0)
        self._emptying.timeout.connect(self._empty_retired)
        """The reader's place in the note drawn last, until the layout is long enough for it."""
        self.verticalScrollBar().rangeChanged.connect(self._on_range_changed)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A long preview keeps its layout while the width changes, and is drawn again after.

        Qt would lay the whole document out again for the new width, from a timer in
        steps of up to 200,000 characters: 70-130 ms at a time on the GUI thread for a
        5 MiB note, for every width a resize passes through. Given the old width, Qt
        only adjusts the scroll bars; the frame draws a fresh document for the new
        width once it has stayed put (``rewrap_wanted``), slice by slice as any drawing.
        """
        new, old = event.size(), event.oldSize()
        if new.width() != old.width() and self.document().characterCount() >= REWRAP_LATER_CHARS:
            event = QResizeEvent(new, QSize(new.width(), old.height()))
            self._settle.start()
        super().resizeEvent(event)

    def laid_out_width(self) -> int:
        """The width the shown document is laid out for, in pixels."""
        return round(self.document().pageSize().width())

    def _on_width_settled(self) -> None:
        if self.laid_out_width() != self.viewport().width():
            self.rewrap_wanted.emit()

    def set_wrap_mode(self, mode: QTextOption.WrapMode) -> None:
        """How the next drawing wraps its lines (R63: anywhere, for endless runs).

        The next drawing's fresh document takes it, while still empty. A wrap mode
        or any text option set on the document shown makes Qt lay all of it out
        again, from a timer in steps that grow to 200,000 characters: on a big note
        100-270 ms at a time on the GUI thread, for as long as the reading takes.
        """
        self._wrap_mode = mode

    def draw(self, pieces: list[str]) -> Iterator[None]:
        """Draw the HTML pieces :func:`~bridge.markdown.render_html_pieces` read.

        The note is drawn into a fresh document off the screen, in steps of as many
        pieces as :data:`DRAW_STEP_SECONDS` allows by the time the steps before took;
        then it is shown: drawn, as after one ``setHtml``. The view lays it out to its
        end after, in steps of :data:`LAYOUT_STEP_SECONDS`, Qt's own layout timer held
        back meanwhile (:class:`_HeldLayoutTimer`); the reader's scroll place is put
        back as soon as the layout reaches it. Filled while shown, the
        document was laid out by Qt at every step, in small pieces: the drawing took
        about three times one ``setHtml`` of the same HTML. The document shown before, and
        one half filled by a cancelled drawing, is emptied a slice at a time once off the
        screen, where no layout follows it: freed at once, a big one stalls the window.
        """
        place = self._place or _ScrollPlace(self.verticalScrollBar())
        self._place = None
        if self._filling is not None:  # a drawing cancelled half way: its document goes
            self._retired.append(self._filling)
        fresh = self._filling = _fresh_document(self.document(), self)
        option = fresh.defaultTextOption()
        option.setWrapMode(self._wrap_mode)  # set while empty: no layout to redo
        fresh.setDefaultTextOption(option)
        cursor = QTextCursor(fresh)
        steps = _TimedSteps(FIRST_STEP_CHARACTERS)
        index = 0
        while index < len(pieces):
            end, size = index, 0
            while end < len(pieces) and (end == index or size < steps.size):
                size += len(pieces[end])
                end += 1
            with steps.timed(size):
                self._append(cursor, "".join(pieces[index:end]).rstrip(), first=index == 0)
            index = end
            yield
        shown = self.document()
        if shown.parent() is self:  # Qt's first document is its own, deleted when replaced
            self._retired.append(shown)
        self._filling = None
        fresh.documentLayout().installEventFilter(self._held_layout)  # before Qt's timer starts
        self.setDocument(fresh)
        # The view's own mode, which it gives every document it shows, and now this one.
        self.setWordWrapMode(self._wrap_mode)
        self._laying = self._lay_out(fresh)
        if self._retired and not self._emptying.isActive():
            self._emptying.start()
        try:
            if not place.restore():
                # Laid out as far as the reader's place before the view paints again:
                # until then it keeps showing what it showed, not the note's top.
                self._place = place
                self.setUpdatesEnabled(False)
                while self._laying is not None and not place.restore():
                    self._lay_out_step()
                    yield
                self._place = None
        finally:
            self.setUpdatesEnabled(True)
            if self._laying is not None:
                self._laying_timer.start()

    def leave_documents(self) -> None:
        """Hand every document this view holds to the application to empty, as it closes.

        The view shows a fresh empty one meanwhile, so deleting the view frees little.
        """
        left = _left_documents()
        if left is None:
            return
        self._laying = None
        self._laying_timer.stop()
        self._emptying.stop()
        self._emptied = None
        documents = [*self._retired, *([self._filling] if self._filling is not None else [])]
        self._retired, self._filling = [], None
        shown = self.document()
        if shown.parent() is self:  # Qt's first document is its own, deleted when replaced
            documents.append(shown)
        if documents:  # a view that never drew shows Qt's own, small, document
            self.setDocument(_fresh_document(shown, self))
        left.take(documents)

    @property
    def laying_out(self) -> bool:
        """Whether the document shown is still being laid out to its end."""
        return self._laying is not None

    def _lay_out(self, document: QTextDocument) -> Iterator[None]:
        """Lay the shown document out to its end, :data:`LAYOUT_STEP_SECONDS` at a time."""
        layout = document.documentLayout()
        end = document.characterCount()
        steps = _TimedSteps(FIRST_STEP_CHARACTERS, LAYOUT_STEP_SECONDS)
        position = 0
        while position < end - 1:
            block = document.findBlock(min(position + steps.size, end - 1))
            with steps.timed(steps.size):
                bottom = layout.blockBoundingRect(block).bottom()  # laid out up to here
            position = block.position() + block.length()
            # Qt tells the scroll bars the laid-out height from the timer held back.
            bar = self.verticalScrollBar()
            reach = int(bottom) - self.viewport().height()
            if reach > bar.maximum():
                bar.setRange(0, reach)
            yield
        layout.removeEventFilter(self._held_layout)  # Qt's timer finds it all laid out

    def _lay_out_step(self) -> None:
        try:
            if self._laying is not None:
                next(self._laying)
                return
        except StopIteration:
            self._laying = None
        self._laying_timer.stop()

    def _empty_retired(self) -> None:
        """Empty the documents shown before for up to a slice's time, then let the loop run."""
        deadline = time.perf_counter() + EMPTY_SLICE_SECONDS
        while self._retired:
            if self._emptied is None:
                self._emptied = _empty(self._retired[-1])
            for _ in self._emptied:
                if time.perf_counter() >= deadline:
                    return
            self._emptied = None
            self._retired.pop().deleteLater()
        self._emptying.stop()

    def _on_range_changed(self, _minimum: int, _maximum: int) -> None:
        if self._place is not None and self._place.restore():
            self._place = None

    @staticmethod
    def _append(cursor: QTextCursor, html: str, *, first: bool) -> None:
        """Append blocks of HTML as ``setHtml`` of the whole would have laid them out.

        Qt merges the first block of inserted HTML into the block at the cursor,
        taking that block's format; a one-character seam block takes the merge
        instead, and its character is deleted, so every real block keeps its own.
        """
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if first:
            cursor.insertHtml(html)
            return
        seam = cursor.position()
        cursor.insertHtml(_SEAM + html)
        cursor.setPosition(seam)
        cursor.deleteChar()


class TodoView(QWidget):
    """The note's tasks as a checklist; ticking one edits the note."""

    task_toggled = Signal(object, bool)
    """(Task, checked) when the user ticks or unticks a task."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setObjectName("todoList")
        self.list.setAccessibleName("Tasks in this note")
        self.empty = QLabel("This note has no tasks. Lines like “- [ ] call Sam” show up here.")
        self.empty.setWordWrap(True)
        self.empty.setObjectName("emptyHint")
        self.empty.setVisible(False)  # said once the note's tasks are read, never before (R80)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.empty)
        layout.addWidget(self.list)
        self.list.setUniformItemSizes(True)  # a long list lays out without measuring each row
        self._tasks: list[Task] = []
        self._rendering = False
        self.list.itemChanged.connect(self._on_item_changed)

    def draw(self, tasks: list[Task]) -> Iterator[None]:
        """Draw the tasks :func:`~renderer.ambient.outline.parse_tasks` read."""
        place = _ScrollPlace(self.list.verticalScrollBar())
        self._tasks = []
        model = self.list.model()
        while (rows := model.rowCount()) > 0:
            count = min(rows, _ROWS_REMOVED_PER_STEP)
            model.removeRows(rows - count, count)
            yield
        self.empty.setVisible(not tasks)
        self.list.setVisible(bool(tasks))
        for start in range(0, len(tasks), _TASKS_PER_STEP):
            self._add(tasks[start : start + _TASKS_PER_STEP])
            yield
        self.list.doItemsLayout()  # the scroll range now, not at the next event
        place.restore()

    def _add(self, tasks: list[Task]) -> None:
        self._rendering = True
        try:
            for task in tasks:
                item = QListWidgetItem(clipped(task.label, TASK_DRAWN_CHARS) or "(untitled task)")
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(
                    Qt.CheckState.Checked if task.checked else Qt.CheckState.Unchecked
                )
                self.list.addItem(item)
            self._tasks += tasks
        finally:
            self._rendering = False

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        if self._rendering:
            return
        row = self.list.row(item)
        if 0 <= row < len(self._tasks):
            checked = item.checkState() == Qt.CheckState.Checked
            self.task_toggled.emit(self._tasks[row], checked)


_NODE_PAD_X = 12.0
_GAP_X = 46.0
_PART: Final = 0
"""The item data key naming what an item of the map is, for recolouring it."""


class MindmapView(QGraphicsView):
    """The heading tree drawn as a map, root on the left, children to the right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setAccessibleName("Heading map of this note")
        self._font = QFont(self.font())
        self._metrics = QFontMetricsF(self._font)
        self.node_count = 0
        self._scheme = scheme_of(self.palette())
        """The scheme the map is drawn in (R82)."""
        self._items: list[QGraphicsItem] = []
        """Every item drawn, kept so the next drawing can take them away in slices."""

    def draw(self, root: Heading) -> Iterator[None]:
        """Draw the tree :func:`~renderer.ambient.outline.map_tree` read."""
        scene = self.scene()
        while self._items:  # the items this view drew last time, a slice at a time
            removed = self._items[-_ITEMS_REMOVED_PER_STEP:]
            del self._items[-_ITEMS_REMOVED_PER_STEP:]
            for item in removed:
                scene.removeItem(item)  # Python's now, freed with ``removed``
            del removed
            yield
        scene.clear()
        self.node_count = 0
        # Depth first with an explicit stack: a deeply nested note cannot exhaust recursion.
        pending: list[tuple[Heading, float, float, int, QRectF | None]] = [
            (root, 0.0, 0.0, 0, None)
        ]
        while pending:
            heading, x, top, depth, parent = pending.pop()
            rect = self._place(heading, x, top, depth)
            if parent is not None:
                self._connect(parent, rect)
            child_top = top
            placed = []
            for child in heading.children:
                placed.append((child, rect.right() + _GAP_X, child_top, depth + 1, rect))
                child_top += child.height + GAP_Y
            pending += reversed(placed)
            if self.node_count % _NODES_PER_STEP == 0:
                yield
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-16, -16, 16, 16))

    def _place(self, heading: Heading, x: float, top: float, depth: int) -> QRectF:
        title = clipped(heading.title, TITLE_DRAWN_CHARS)  # R91: measured and drawn in full
        width = self._metrics.horizontalAdvance(title) + 2 * _NODE_PAD_X
        rect = QRectF(x, top + (heading.height - NODE_HEIGHT) / 2, width, NODE_HEIGHT)
        path = QPainterPath()
        path.addRoundedRect(rect, 8, 8)
        scene = self.scene()
        part = "root" if depth == 0 else "node"
        node = scene.addPath(path)
        # A simple text item: a rich one carries a whole text document per node.
        label = scene.addSimpleText(title, self._font)
        node.setData(_PART, part)
        label.setData(_PART, f"{part} label")
        self._items += (node, label)
        self._colour((node, label), self._scheme)
        bounds = label.boundingRect()
        label.setPos(
            rect.center().x() - bounds.width() / 2, rect.center().y() - bounds.height() / 2
        )
        self.node_count += 1
        return rect

    def _connect(self, parent: QRectF, child: QRectF) -> None:
        edge = QPainterPath(QPointF(parent.right(), parent.center().y()))
        mid_x = (parent.right() + child.left()) / 2
        edge.cubicTo(
            mid_x, parent.center().y(), mid_x, child.center().y(), child.left(), child.center().y()
        )
        item = self.scene().addPath(edge)
        item.setData(_PART, "edge")
        self._items.append(item)
        self._colour((item,), self._scheme)

    def changeEvent(self, event: QEvent) -> None:
        """The colour scheme changed: the map drawn takes its colours (R82)."""
        super().changeEvent(event)
        scheme = scheme_of(self.palette())
        if event.type() == QEvent.Type.PaletteChange and scheme is not self._scheme:
            self._scheme = scheme  # only a new scheme: a palette event comes at every polish
            self._colour(self._items, scheme)

    @staticmethod
    def _colour(items: Iterable[QGraphicsItem], scheme: Scheme) -> None:
        """Each node's fill with its label's colour, its border and the edges, from ``scheme``."""
        root, node = scheme.mindmap_root, Tone(scheme.raised, scheme.text, scheme.border)
        for item in items:
            part = item.data(_PART)
            tone = root if str(part).startswith("root") else node
            if isinstance(item, QGraphicsSimpleTextItem):
                item.setBrush(QColor(tone.text))
            elif isinstance(item, QGraphicsPathItem) and part == "edge":
                item.setPen(QPen(QColor(scheme.mindmap_edge), 1.4))
            elif isinstance(item, QGraphicsPathItem):
                item.setPen(QPen(QColor(tone.border), 1.2))
                item.setBrush(QBrush(QColor(tone.background)))
