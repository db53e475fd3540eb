"""A note path in a given number of pixels: the folders give way before the file name (R46).

The title bars and the chip both show paths in narrow places. The file name is
what a person recognises, so it stays whole while there is room for it; the
folders are shortened in the middle. Only when even the file name does not fit
is the whole path shortened in the middle.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics


def shortest_path(path: str) -> str:
    """The least of a path worth showing: its first characters and its file name."""
    folder, _, name = path.rpartition("/")
    return f"{folder[:3]}…/{name}" if folder else path


def shorten_path(metrics: QFontMetrics, path: str, room: int) -> str:
    """``path`` in ``room`` pixels: its folders shortened in the middle, its file name whole."""
    if metrics.horizontalAdvance(path) <= room:
        return path
    folder, _, name = path.rpartition("/")
    name_width = metrics.horizontalAdvance("/" + name)
    if not folder or name_width >= room:
        return metrics.elidedText(path, Qt.TextElideMode.ElideMiddle, room)
    return metrics.elidedText(folder, Qt.TextElideMode.ElideMiddle, room - name_width) + "/" + name
