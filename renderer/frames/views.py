"""The read-only views of an Inbox note: rendered Markdown, the task checklist, the heading map.

Each view redraws from the note text it is given; none keeps its own copy of the
note as truth. Ticking a task asks the frame to edit the live document.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bridge.markdown import render_html
from renderer.frames.outline import Heading, Task, parse_headings, parse_tasks
from renderer.qt.inert_text import InertBrowser
from renderer.qt.long_lines import wrap_mode_for


class PreviewView(InertBrowser):
    """The note rendered from Markdown, by the same reading as the other views (R39).

    It loads nothing and follows no link by itself (R62); the frame decides what a
    clicked link does.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Rendered note")
        self.document().setDocumentMargin(14)

    def render_text(self, text: str) -> None:
        option = self.document().defaultTextOption()
        option.setWrapMode(wrap_mode_for(text))  # R63: linear for endless lines
        self.document().setDefaultTextOption(option)
        self.setHtml(render_html(text))


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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.empty)
        layout.addWidget(self.list)
        self._tasks: list[Task] = []
        self._rendering = False
        self.list.itemChanged.connect(self._on_item_changed)

    def render_text(self, text: str) -> None:
        self._rendering = True
        try:
            self._tasks = parse_tasks(text)
            self.list.clear()
            for task in self._tasks:
                item = QListWidgetItem(task.label or "(untitled task)")
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(
                    Qt.CheckState.Checked if task.checked else Qt.CheckState.Unchecked
                )
                self.list.addItem(item)
            self.empty.setVisible(not self._tasks)
            self.list.setVisible(bool(self._tasks))
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
_NODE_HEIGHT = 30.0
_GAP_X = 46.0
_GAP_Y = 12.0
_LEVEL_COLOURS = ["#3b5bdb", "#5c7cfa", "#748ffc", "#91a7ff", "#a5b4fc", "#c5cdfd", "#dbe1fe"]


class MindmapView(QGraphicsView):
    """The heading tree drawn as a map, root on the left, children to the right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setAccessibleName("Heading map of this note")
        self.setBackgroundBrush(QBrush(QColor("#fbfbfd")))
        self._font = QFont(self.font())
        self._metrics = QFontMetricsF(self._font)
        self.node_count = 0

    def render_text(self, text: str, root_title: str) -> None:
        scene = self.scene()
        scene.clear()
        root = parse_headings(text, root_title)
        self.node_count = 0
        self._place(root, 0.0, 0.0, 0)
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-16, -16, 16, 16))

    def _node_width(self, heading: Heading) -> float:
        return self._metrics.horizontalAdvance(heading.title) + 2 * _NODE_PAD_X

    def _subtree_height(self, heading: Heading) -> float:
        if not heading.children:
            return _NODE_HEIGHT
        total = sum(self._subtree_height(child) for child in heading.children)
        return max(_NODE_HEIGHT, total + _GAP_Y * (len(heading.children) - 1))

    def _place(self, heading: Heading, x: float, top: float, depth: int) -> QRectF:
        height = self._subtree_height(heading)
        rect = QRectF(x, top + (height - _NODE_HEIGHT) / 2, self._node_width(heading), _NODE_HEIGHT)
        colour = QColor(_LEVEL_COLOURS[min(depth, len(_LEVEL_COLOURS) - 1)])
        path = QPainterPath()
        path.addRoundedRect(rect, 8, 8)
        scene = self.scene()
        scene.addPath(
            path, QPen(colour.darker(115)), QBrush(colour if depth == 0 else colour.lighter(160))
        )
        label = scene.addText(heading.title, self._font)
        label.setDefaultTextColor(QColor("white") if depth == 0 else QColor("#1f2544"))
        bounds = label.boundingRect()
        label.setPos(
            rect.center().x() - bounds.width() / 2, rect.center().y() - bounds.height() / 2
        )
        self.node_count += 1
        child_x = rect.right() + _GAP_X
        child_top = top
        for child in heading.children:
            child_rect = self._place(child, child_x, child_top, depth + 1)
            child_top += self._subtree_height(child) + _GAP_Y
            edge = QPainterPath(QPointF(rect.right(), rect.center().y()))
            mid_x = (rect.right() + child_rect.left()) / 2
            edge.cubicTo(
                mid_x,
                rect.center().y(),
                mid_x,
                child_rect.center().y(),
                child_rect.left(),
                child_rect.center().y(),
            )
            scene.addPath(edge, QPen(QColor("#8c96b8"), 1.4))
        return rect
