"""Tab and Shift+Tab follow the window as it is drawn (R85).

Qt's focus chain is the order widgets were made in: a frame opened later, a frame
moved up, a proposal card added to the conversation all land at the chain's end,
so Tab jumps around the window. Here the order is read from the window each time
Tab is pressed: at every level of the widget tree the visible children are taken
in rows, top to bottom, each row left to right, and a container's own controls come
before those inside it. The frames' columns come left to right, each column's
frames top to bottom, and inside a frame its title bar before its body.
"""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QWidget


def _takes_tab(widget: QWidget) -> bool:
    policy = widget.focusPolicy()
    return (
        (policy.value & Qt.FocusPolicy.TabFocus.value) == Qt.FocusPolicy.TabFocus.value
        and widget.isEnabled()
        and widget.focusProxy() is None
    )


def _same_row(first: QRect, other: QRect) -> bool:
    """``other`` sits beside ``first``: they share at least half the shorter one's height."""
    shared = min(first.bottom(), other.bottom()) - max(first.top(), other.top()) + 1
    return shared * 2 >= min(first.height(), other.height())


def _in_rows(children: list[QWidget]) -> list[QWidget]:
    """Siblings in reading order: rows top to bottom, each row left to right."""
    by_top = sorted(children, key=lambda child: (child.geometry().top(), child.geometry().left()))
    ordered: list[QWidget] = []
    row: list[QWidget] = []
    for child in by_top:
        if row and not _same_row(row[0].geometry(), child.geometry()):
            ordered += sorted(row, key=lambda member: member.geometry().left())
            row = []
        row.append(child)
    ordered += sorted(row, key=lambda member: member.geometry().left())
    return ordered


def _walk(container: QWidget) -> Iterator[QWidget]:
    shown = [
        child
        for child in container.children()
        if isinstance(child, QWidget) and not child.isWindow() and child.isVisible()
    ]
    for child in _in_rows(shown):
        yield child
        yield from _walk(child)


def reading_order(window: QWidget) -> list[QWidget]:
    """Every shown, enabled control of ``window`` that Tab can reach, in reading order."""
    return [widget for widget in _walk(window) if _takes_tab(widget)]


def move_focus(window: QWidget, current: QWidget | None, *, forward: bool) -> bool:
    """Focus the control after (or before) ``current``; the chain wraps. False if none.

    A ``current`` Tab does not stop at (a frame, a label) counts by its own place.
    """
    shown = list(_walk(window))
    chain = [widget for widget in shown if _takes_tab(widget)]
    if not chain:
        return False
    reachable = set(chain)
    place = shown.index(current) if current in shown else -1
    if forward:
        later = [widget for widget in shown[place + 1 :] if widget in reachable]
        target = later[0] if later else chain[0]
    else:
        earlier = [widget for widget in shown[:place] if widget in reachable] if place >= 0 else []
        target = earlier[-1] if earlier else chain[-1]
    reason = Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason
    target.setFocus(reason)
    return True
