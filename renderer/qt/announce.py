"""What a screen reader says without the focus moving: an answer starting and ending (R85).

Qt (6.8 and later) hands an announcement to the platform's accessibility bridge
(AT-SPI on Linux); it reaches a screen reader only while one is listening. The
:class:`Announcer` also emits each announcement, so the window and the tests see
exactly what was said, and how often.
"""

from __future__ import annotations

import re
from typing import Final

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

ANSWERING: Final = "Answering…"
_SENTENCE_END: Final = re.compile(r"(?<=[.!?])\s|(?<=[。！？])")
_MARKUP: Final = re.compile(r"[*_`#>|]+")
SPOKEN_LIMIT: Final = 240
"""At most this many characters of a sentence are announced."""


def first_sentence(markdown: str) -> str:
    """The first sentence of a reply, without its Markdown marks (what is read aloud)."""
    text = " ".join(_MARKUP.sub("", markdown).split())
    found = _SENTENCE_END.search(text)
    sentence = text[: found.start()] if found else text
    return sentence[:SPOKEN_LIMIT].strip()


class Announcer(QObject):
    """Announces on behalf of ``source`` (the widget a screen reader ties the words to)."""

    announced = Signal(str)

    def __init__(self, parent: QObject, *, source: QObject | None = None) -> None:
        super().__init__(parent)
        self.source = source if source is not None else parent

    def announce(self, message: str) -> None:
        if not message:
            return
        event = QAccessibleAnnouncementEvent(self.source, message)
        QAccessible.updateAccessibility(event)
        self.announced.emit(message)
