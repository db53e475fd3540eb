"""One focus, one "this note" (R81): the keyboard focus and the store's activation are kept as one.

Two things could say which frame a person is in: Qt's keyboard focus and the
store's most recently activated frame. The :class:`FocusKeeper` makes them one,
in both directions:

- A person's activation moves the focus into a frame (a click anywhere in it, a
  Tab, a frame shortcut, a key typed there): the store follows the focus.
- When the store's choice changes without the person (the active frame closed
  or popped out, a start, a restore, a workspace switch), the focus follows the
  store: the keeper puts it in the chosen frame's editor.
- Focus that Qt moves on its own (the focused widget hidden or removed, a
  window shown or activated, a dialog or menu closing) is never an activation:
  the keeper puts it back where the store says.

Qt's ``focusChanged`` does not say why the focus moved. A move is the person's
when it comes from a widget still on screen in the same window, or from a mouse
press; Qt's own moves come from a widget just hidden, or from no focus at all
(the window was not active). The keeper listens to ``focusChanged`` once for the
whole window, so typing pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from renderer.ambient.store import AmbientStore
from renderer.frames.base import FrameBase
from renderer.frames.inbox.frame import InboxFrame


class FocusKeeper(QObject):
    """Keeps the keyboard focus of ``window`` in the frame the store names, and the reverse.

    ``frames`` gives the window's frames by id, ``activate`` is the window's one
    activation path (it tells the store), and while ``paused()`` is true (a
    workspace being opened) the keeper leaves the focus alone.
    """

    def __init__(
        self,
        store: AmbientStore,
        window: QWidget,
        frames: Callable[[], Mapping[str, FrameBase]],
        activate: Callable[[str], None],
        *,
        paused: Callable[[], bool] = lambda: False,
    ) -> None:
        super().__init__(window)
        self._store = store
        self._window = window
        self._frames = frames
        self._activate = activate
        self._paused = paused
        self._moving = False
        self._stopped = False
        # Where Qt put the focus by itself (a widget hidden or removed): never where the
        # keys belong, even inside the right frame (its title bar's first button).
        self._placed_by_qt: QWidget | None = None
        # psygnal calls ``settle`` with none of the signals' arguments: it takes none.
        store.resolution_changed.connect(self.settle)
        store.frame_activated.connect(self.settle)
        application = QApplication.instance()
        if isinstance(application, QApplication):
            application.focusChanged.connect(self._on_focus_changed)

    def stop(self) -> None:
        """Stop keeping the focus (the window is closing: frames leave one by one)."""
        if self._stopped:
            return
        self._stopped = True
        self._store.resolution_changed.disconnect(self.settle)
        self._store.frame_activated.disconnect(self.settle)
        application = QApplication.instance()
        if isinstance(application, QApplication):
            application.focusChanged.disconnect(self._on_focus_changed)

    # -- where the focus belongs ------------------------------------------------------

    def target(self) -> FrameBase | None:
        """The frame the keys should go into: the last activated one while it is still here,
        else the frame "this note" resolves to (the note used before it)."""
        frames = self._frames()
        last = frames.get(self._store.last_activated_frame or "")
        if last is not None and self._is_live(last):
            return last
        resolution = self._store.resolve()
        return None if resolution is None else frames.get(resolution.frame_id)

    def _is_live(self, frame: FrameBase) -> bool:
        """Still a member of the window: an Inbox frame only while the store has it mounted."""
        return not isinstance(frame, InboxFrame) or frame.frame_id in self._store.mounted_frame_ids

    def focused_widget(self) -> QWidget | None:
        """The widget the window's keys go to now (also while the window is not active)."""
        if self._window.isActiveWindow():
            return QApplication.focusWidget()
        return self._window.focusWidget()

    def settle(self) -> None:
        """Put the focus in :meth:`target` unless it is there already.

        When the last activated frame is gone (closed, popped out), the frame the
        focus now goes to is recorded as activated: it is where the person is.
        """
        if self._stopped or self._paused():
            return
        target = self.target()
        if target is None:
            return
        last = self._store.last_activated_frame
        if last is not None and last != target.frame_id and last not in self._live_ids():
            self._activate(target.frame_id)  # the store tells the keeper again: it settles then
            return
        focused = self.focused_widget()
        inside = focused is not None and (focused is target or target.isAncestorOf(focused))
        if inside and focused is not self._placed_by_qt:
            return
        widget = target.focus_target()
        self._moving = True
        try:
            widget.setFocus(Qt.FocusReason.OtherFocusReason)
            self._placed_by_qt = None
        finally:
            self._moving = False
        if not widget.isVisible() and self._window.isVisible():
            # A frame just added is shown at the event loop's next turn; Qt gives no focus
            # to a hidden widget (its keys reach it already through the window's focus child).
            QTimer.singleShot(0, self, self.settle)

    def _live_ids(self) -> set[str]:
        return {frame_id for frame_id, frame in self._frames().items() if self._is_live(frame)}

    # -- what Qt says ----------------------------------------------------------------

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if self._moving or self._stopped or new is None or self._paused():
            return
        frame = self._frame_of(new)
        person = _moved_by_person(old, new)
        self._placed_by_qt = None if person else new
        if frame is None:
            return  # a dialog, a banner, the menu bar: not a frame
        if frame.frame_id == self._store.last_activated_frame and self._is_live(frame):
            return
        if person:
            self._activate(frame.frame_id)
        else:
            self.settle()  # Qt moved it: back to the frame the store names

    def _frame_of(self, widget: QWidget) -> FrameBase | None:
        frames = self._frames()
        current: QWidget | None = widget
        while current is not None:
            if isinstance(current, FrameBase) and frames.get(current.frame_id) is current:
                return current
            current = current.parentWidget()
        return None


def _moved_by_person(old: QWidget | None, new: QWidget) -> bool:
    """A click, or a move from a widget still on screen in the same window (Tab, a shortcut).

    Qt's own moves start from a widget just hidden or removed, or from no focus (a
    window being shown or activated, a dialog closing).
    """
    if QApplication.mouseButtons() != Qt.MouseButton.NoButton:
        return True
    return old is not None and old.isVisible() and old.window() is new.window()
