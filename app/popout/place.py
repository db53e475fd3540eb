"""Where the windows open: the main window within its screen, a popped-out note beside it.

The main window's starting size is cut to the screen's available area, so a
1280×800 screen shows all of it (R46).

The host passes its own frame geometry to the child (``--beside X,Y,W,H``); the
child places itself on the side with more room, at the host's height, as wide
as it likes or as the room allows. Without room on either side it opens offset
from the host's corner, so it never lands exactly on top of it.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QWidget

GAP = 12
"""Pixels between the two windows."""
MIN_WIDTH = 560
"""Narrower than this a note and its assistant do not fit side by side: overlap instead."""
CASCADE = QPoint(48, 48)


def beside_argument(host: QRect) -> str:
    """The host's geometry as the child's ``--beside`` value."""
    return f"{host.x()},{host.y()},{host.width()},{host.height()}"


def parse_beside(value: str) -> QRect:
    """``X,Y,W,H`` as a rectangle; anything else is a plain ``ValueError``."""
    parts = value.split(",")
    if len(parts) != 4:
        raise ValueError(f"--beside takes X,Y,WIDTH,HEIGHT, not “{value}”.")
    try:
        x, y, width, height = (int(part) for part in parts)
    except ValueError:
        raise ValueError(f"--beside takes four whole numbers, not “{value}”.") from None
    if width <= 0 or height <= 0:
        raise ValueError(f"--beside needs a positive width and height, not “{value}”.")
    return QRect(x, y, width, height)


def placement(host: QRect, screen: QRect, wanted: QSize, least_width: int = MIN_WIDTH) -> QRect:
    """The pop-out's rectangle on ``screen`` (available geometry) next to ``host``.

    ``least_width`` is the narrowest the window can be (its own minimum, at least
    :data:`MIN_WIDTH`): with less room on both sides it overlaps the host, offset.
    """
    right_room = screen.right() - host.right() - GAP
    left_room = host.left() - screen.left() - GAP
    height = min(wanted.height(), screen.height())
    top = _within(host.top(), screen.top(), screen.bottom() - height + 1)
    room = max(right_room, left_room)
    if room >= max(least_width, MIN_WIDTH):
        width = min(wanted.width(), room)
        left = host.right() + 1 + GAP if right_room >= left_room else host.left() - GAP - width
        return QRect(left, top, width, height)
    width = min(wanted.width(), screen.width())
    corner = host.topLeft() + CASCADE
    left = _within(corner.x(), screen.left(), screen.right() - width + 1)
    top = _within(corner.y(), screen.top(), screen.bottom() - height + 1)
    return QRect(left, top, width, height)


def _within(value: int, low: int, high: int) -> int:
    return max(low, min(value, max(low, high)))


def fit_to_screen(window: QWidget) -> None:
    """Cut ``window`` to its screen's available area and keep it on that screen.

    A window already within the area is not moved: before it is first shown Qt knows
    no frame around it, so ``x()``/``y()`` give the place of its contents while
    ``move()`` places its frame, and a window restored to its kept place would come
    back one title bar lower at every start (R80).
    """
    screen = window.screen()
    if screen is None:
        return
    area = screen.availableGeometry()
    width, height = min(window.width(), area.width()), min(window.height(), area.height())
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    left = _within(window.x(), area.left(), area.right() - width + 1)
    top = _within(window.y(), area.top(), area.bottom() - height + 1)
    if (left, top) != (window.x(), window.y()):
        window.move(left, top)
