"""The GUI's :class:`renderer.ambient.preparation.Timers`: single-shot Qt timers."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer

from renderer.ambient.preparation import Cancel


class QtTimers:
    """Calls back from the event loop of ``owner``'s thread; each timer dies with its callback."""

    def __init__(self, owner: QObject) -> None:
        self._owner = owner

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancel:
        timer = QTimer(self._owner)
        timer.setSingleShot(True)
        timer.setTimerType(Qt.TimerType.PreciseTimer)  # coarse timers may fire 5% early

        ended = False

        def end() -> bool:
            nonlocal ended
            if ended:
                return False
            ended = True
            timer.stop()
            timer.deleteLater()
            return True

        def fire() -> None:
            if end():
                callback()

        def cancel() -> None:
            end()

        timer.timeout.connect(fire)
        timer.start(max(0, round(seconds * 1000)))
        return cancel
