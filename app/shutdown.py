"""Closing a top-level window the normal way when the process receives a signal."""

from __future__ import annotations

import signal

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

SIGNAL_POLL_MS = 250


def close_on_signal(window: QWidget, signum: signal.Signals) -> QTimer:
    """Close ``window`` (its saves land first) when ``signum`` arrives; stop the timer after exec.

    Python runs signal handlers only between its own bytecodes, so while Qt waits in
    its event loop a periodic no-op timer lets the handler run.
    """
    signal.signal(signum, lambda *_: window.close())
    wake = QTimer()
    wake.timeout.connect(lambda: None)
    wake.start(SIGNAL_POLL_MS)
    return wake
