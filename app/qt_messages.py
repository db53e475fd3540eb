"""Qt's own warnings that say nothing to the person reading the output.

The offscreen platform (QA replays, pop-outs started by a replay) warns about window
hints it ignores each time a window is shown; those lines are dropped, every other
message still goes to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

OFFSCREEN_NOISE = frozenset(
    {
        "This plugin does not support propagateSizeHints()",
        "This plugin does not support raise()",
    }
)


def _relay(_kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
    if message not in OFFSCREEN_NOISE:
        print(message, file=sys.stderr)


def drop_offscreen_noise() -> Callable[..., Any] | None:
    """Install the filter; returns the handler it replaced (to put back)."""
    return qInstallMessageHandler(_relay)


def restore(previous: Callable[..., Any] | None) -> None:
    qInstallMessageHandler(previous)
