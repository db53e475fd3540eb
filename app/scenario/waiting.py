"""Waits on the Qt event loop for a condition, woken by signals, bounded by a time-out.

The runner never sleeps: it spins a local event loop so the app keeps working
(loads, saves, turns, timers) until the condition holds or the time is up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from PySide6.QtCore import QEventLoop, QTimer, SignalInstance

# A condition that no signal announces (a process exiting) is re-checked this often.
_RECHECK_MS = 25


class StepError(Exception):
    """A step could not be carried out; the scenario stops here."""


class WaitTimeout(Exception):
    """The condition did not hold in time; the message says what was awaited."""


@contextlib.contextmanager
def connected(signal: SignalInstance, slot: Callable[..., Any]) -> Iterator[None]:
    """``slot`` hears ``signal`` while the block runs, and no longer."""
    signal.connect(slot)
    try:
        yield
    finally:
        # The sender may have been deleted meanwhile.
        with contextlib.suppress(RuntimeError, TypeError):
            signal.disconnect(slot)


def wait_until(
    condition: Callable[[], bool],
    *,
    timeout: float,
    what: str,
    wake_on: Sequence[SignalInstance] = (),
) -> None:
    """Run the event loop until ``condition()`` holds; :class:`WaitTimeout` after ``timeout`` s."""
    if condition():
        return
    loop = QEventLoop()
    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    recheck = QTimer()
    recheck.setInterval(_RECHECK_MS)

    def check(*_args: Any) -> None:
        if condition():
            loop.quit()

    recheck.timeout.connect(check)
    with contextlib.ExitStack() as wakers:
        for signal in wake_on:
            wakers.enter_context(connected(signal, check))
        deadline.start(max(1, int(timeout * 1000)))
        recheck.start()
        try:
            loop.exec()
        finally:
            deadline.stop()
            recheck.stop()
    if not condition():
        raise WaitTimeout(f"timed out after {timeout:g} s waiting for {what}")
