"""Notes with very long unbroken runs wrap anywhere, so laying them out stays linear (R63).

Qt's default wrapping looks for a word boundary first on every line it breaks; in a
run of characters with none (a 512 KiB line of letters, a note of NUL bytes) that
search starts again for each visual line, and laying out one such line took tens of
seconds on the GUI thread. A note with a run longer than :data:`LONG_RUN_CHARS` is
wrapped anywhere instead: the same text, laid out in one linear pass. Ordinary notes
keep wrapping at word boundaries.
"""

from __future__ import annotations

import re
from typing import Final

from PySide6.QtGui import QTextOption

LONG_RUN_CHARS: Final = 2048
# The lookbehind lets a match start only where a run starts, so each run is scanned
# once: linear in the text, where a plain \S{2048} would rescan every run 2048 times.
_LONG_RUN: Final = re.compile(rf"(?<!\S)\S{{{LONG_RUN_CHARS}}}")


def has_long_run(text: str) -> bool:
    """Whether ``text`` holds a run of at least ``LONG_RUN_CHARS`` non-space characters.

    Only lines at least that long are searched: finding line ends is a C loop, so an
    ordinary note of short lines costs little more than one pass of ``str.find``.
    """
    start = 0
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start >= LONG_RUN_CHARS and _LONG_RUN.search(text, start, stop):
            return True
        if end < 0:
            return False
        start = end + 1


def wrap_mode_for(text: str) -> QTextOption.WrapMode:
    """How a view of ``text`` should wrap its lines."""
    if has_long_run(text):
        return QTextOption.WrapMode.WrapAnywhere
    return QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
