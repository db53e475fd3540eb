"""Closing a top-level window the normal way when the process receives a signal."""

from __future__ import annotations

import signal

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

SIGNAL_POLL_MS = 250
# Ctrl+C in a terminal, and the polite end a session manager, `kill` or a service sends:
# either way the window closes as Quit does (saves land, the layout is kept, pop-outs end).
QUIT_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)


def close_on_signal(window: QWidget, *signums: signal.Signals) -> QTimer:
    """Close ``window`` (saves land first) on any of ``signums``; stop the timer after exec.

    Python runs signal handlers only between its own bytecodes, so while Qt waits in
    its event loop a periodic no-op timer lets the handler run. The handler closes the
    window from the event loop, never at once: a signal taken before the loop runs
    would close the last window while nothing could quit on it, and the app would
    stay running with no window.
    """
    for signum in signums:
        signal.signal(signum, lambda *_: QTimer.singleShot(0, window, window.close))
    wake = QTimer()
    wake.timeout.connect(lambda: None)
    wake.start(SIGNAL_POLL_MS)
    return wake
