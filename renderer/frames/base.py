"""The frame every frameset member shares: a title bar, a body and the activation signal (R2).

A click anywhere inside a frame emits :attr:`FrameBase.activated`; the window
routes it through its single activation path into the store. Where the keyboard
focus goes is the window's :class:`renderer.frames.focus_keeper.FocusKeeper`'s
business (R81): it tells a person's focus move from Qt's own.

Clicks are seen by an event filter on the frame's leaf widgets (buttons, labels,
editor viewports) and, for clicks nobody handled, by the frame's own
``mousePressEvent``. Text inputs and their ancestors get no filter: every
keystroke reaches them (a key release climbs the whole parent chain), and typing
must not pay for a Python call per event. A click on a part that takes no focus
(the title, a margin, a button) focuses the frame, which hands the focus on to
its editor: the keys typed next go where the click was (R81).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QFocusEvent, QFontMetrics, QMouseEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QSizePolicy,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from renderer.frames.path_text import shorten_path

_KEY_RECEIVERS = (QPlainTextEdit, QTextEdit, QLineEdit, QAbstractSpinBox)
_ELIDED_MIN_WIDTH = 60
_UNLIMITED = 16_777_215
"""Qt's QWIDGETSIZE_MAX: no maximum height."""


def _on_typing_path(widget: QWidget) -> bool:
    """A text input, or a widget that holds one (key events climb through it)."""
    if isinstance(widget, _KEY_RECEIVERS):
        return True
    return any(isinstance(child, _KEY_RECEIVERS) for child in widget.findChildren(QWidget))


class ElidedLabel(QLabel):
    """A one-line label that shortens its text in the middle to fit, never widening its frame.

    A note path keeps its file name whole while it fits and gives up the middle of its
    folders first; the whole text is the tooltip.
    """

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setMinimumWidth(_ELIDED_MIN_WIDTH)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.set_full_text(text)

    def full_text(self) -> str:
        return self._full

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._update_elided()

    def minimumSizeHint(self) -> QSize:
        # QLabel's own hint is the width of the text shown now: the elided text would then
        # hold the label at that width, and a title never grows back or shrinks (R46).
        return QSize(_ELIDED_MIN_WIDTH, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        metrics = QFontMetrics(self.font())
        return QSize(metrics.horizontalAdvance(self._full) + 4, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_elided()

    def _update_elided(self) -> None:
        metrics = QFontMetrics(self.font())
        width = max(self.width(), _ELIDED_MIN_WIDTH)
        self.setText(shorten_path(metrics, self._full, width))


THIS_NOTE_HINT: Final = "This note: the one the assistant reads when you ask about “this note”."


class TitleBar(QFrame):
    """Title, a state badge and the frame's controls, in one row."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("frameTitleBar")
        self.title = ElidedLabel(title, self)
        self.title.setObjectName("frameTitle")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.badge = QLabel("", self)
        self.badge.setObjectName("frameBadge")
        self.badge.setVisible(False)
        self._controls = QHBoxLayout()
        self._controls.setSpacing(2)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 4, 4)
        layout.setSpacing(8)
        layout.addWidget(self.title, 1)
        layout.addWidget(self.badge)
        layout.addLayout(self._controls)

    def add_control(self, widget: QWidget) -> None:
        self._controls.addWidget(widget)

    def set_badge(self, text: str, state: str) -> None:
        self.badge.setText(text)
        self.badge.setProperty("state", state)
        self.badge.setVisible(bool(text))
        self.badge.style().unpolish(self.badge)
        self.badge.style().polish(self.badge)


def tool_button(text: str, accessible_name: str, tooltip: str, parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setAccessibleName(accessible_name)
    button.setToolTip(tooltip)
    button.setAutoRaise(True)
    button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    return button


def busy_bar(accessible_name: str, parent: QWidget) -> QProgressBar:
    """A thin bar that moves while work is under way; hidden until shown."""
    busy = QProgressBar(parent)
    busy.setRange(0, 0)
    busy.setTextVisible(False)
    busy.setFixedHeight(3)
    busy.setAccessibleName(accessible_name)
    busy.setVisible(False)
    return busy


class FrameBase(QFrame):
    """A member of the frameset. Subclasses fill :attr:`body` and name their activation target."""

    activated = Signal(str)
    """The frame id, when a click lands anywhere inside the frame."""
    close_requested = Signal(str)

    def __init__(
        self, frame_id: str, title: str, *, closable: bool = True, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.frame_id = frame_id
        self.setObjectName("frame")
        self.setProperty("active", False)
        self.setAccessibleName(title)
        self.title_bar = TitleBar(title, self)
        self.body = QWidget(self)
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        self.body_layout.setSpacing(0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.title_bar)
        layout.addWidget(self.body, 1)
        self.close_button: QToolButton | None = None
        if closable:
            self.close_button = tool_button("✕", f"Close {title}", "Close this frame", self)
            self.close_button.clicked.connect(lambda: self.close_requested.emit(self.frame_id))
        # A click on a part that takes no focus (title, label, margin) focuses the frame
        # itself, which hands the focus on to its editor (focusInEvent).
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self._watching = False

    def add_close_control(self) -> None:
        """Put the close button last in the title bar (after the subclass's controls)."""
        if self.close_button is not None:
            self.title_bar.add_control(self.close_button)

    def activation_target(self) -> QWidget:
        """The widget a click on the frame lands on (tests click it with QTest)."""
        return self.body

    def focus_target(self) -> QWidget:
        """The widget that takes keyboard focus when the frame is focused by shortcut."""
        return self.activation_target()

    def set_active(self, active: bool) -> None:
        """Show whether this is the most recently activated frame."""
        if self.property("active") == active:
            return
        self.setProperty("active", active)
        # The bar's title and buttons take the active bar's colours too (R82): each is
        # styled by a rule naming the frame's state, read again only when re-polished.
        bar = self.title_bar
        for widget in (self, bar, *bar.findChildren(QWidget)):
            widget.style().unpolish(widget)
            widget.style().polish(widget)

    def set_this_note(self, marked: bool) -> None:
        """Mark the frame whose note "this note" means: its title takes an accent (R80).

        The chip names the same frame: both follow the store's resolution.
        """
        bar = self.title_bar
        if bar.property("thisNote") == marked:
            return
        bar.setProperty("thisNote", marked)
        bar.setToolTip(THIS_NOTE_HINT if marked else "")
        self.setAccessibleDescription(THIS_NOTE_HINT if marked else "")
        for widget in (bar, bar.title):
            widget.style().unpolish(widget)
            widget.style().polish(widget)

    @property
    def is_this_note(self) -> bool:
        return bool(self.title_bar.property("thisNote"))

    @property
    def folded(self) -> bool:
        return bool(self.property("folded"))

    def fold(self, folded: bool) -> None:
        """Show only the title bar (many notes open, R84), or the whole frame again."""
        if self.folded == folded:
            return
        self.setProperty("folded", folded)
        self.body.setVisible(not folded)
        self.setMaximumHeight(self.title_bar.sizeHint().height() if folded else _UNLIMITED)
        self.title_bar.setToolTip("Folded: Ctrl+number or F6 unfolds it" if folded else "")

    def set_title(self, title: str) -> None:
        self.title_bar.title.set_full_text(title)
        self.setAccessibleName(title)

    def teardown(self) -> None:
        """Release what the frame holds outside Qt's parent tree (subscriptions, runtimes)."""

    # -- activation --------------------------------------------------------

    def watch_activation(self) -> None:
        """Start reporting clicks; call once the frame's widgets are built (on adoption)."""
        if not self._watching:
            self._watching = True
            self._watch(self)

    def showEvent(self, event: QShowEvent) -> None:
        self.watch_activation()
        super().showEvent(event)

    def _watch(self, widget: QObject) -> None:
        if isinstance(widget, QWidget) and not _on_typing_path(widget):
            widget.installEventFilter(self)
        for child in widget.children():
            if child.isWidgetType():
                self._watch(child)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.activated.emit(self.frame_id)
        super().mousePressEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        """The frame itself got the focus (a click on its title or margin): its editor takes it."""
        super().focusInEvent(event)
        target = self.focus_target()
        if target is not self and target.isEnabled():
            target.setFocus(event.reason())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress:
            self.activated.emit(self.frame_id)
        elif kind == QEvent.Type.ChildAdded:
            child = event.child()  # type: ignore[attr-defined]
            if child is not None and child.isWidgetType():
                self._watch(child)
        return False
