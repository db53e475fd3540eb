"""Waiting for something another thread or process does, as ``qtbot.waitUntil`` does."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

WAIT_SECONDS = 10.0


def wait_until(condition: Callable[[], bool], seconds: float = WAIT_SECONDS) -> bool:
    """Poll ``condition`` until it holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    pause = threading.Event()
    while not condition():
        if time.monotonic() > deadline:
            return False
        pause.wait(0.05)
    return True
