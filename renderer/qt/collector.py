"""Python's cycle collector runs on the GUI thread only, while a window is open.

The embedded backend and the task runner run Python on other threads. When the
cycle collector happens to run on one of them and frees a cycle holding a Qt
object (a connection made with a lambda, a frame's closure), Qt takes its
connection lock while that thread holds the interpreter lock; the GUI thread,
holding the interpreter lock and waiting for Qt's, then never wakes. So while a
window is open, automatic collection is off and a timer on the GUI thread runs
the same generational collections when their thresholds are passed. Reference
counting, which frees almost everything, is untouched.

While a big note is read on a worker (:func:`defer`), collections wait: the
reading holds millions of young objects alive at once, and a collection would
walk them all on the GUI thread, for hundreds of milliseconds, to free none of
them. Once it ends they are freed by reference counting and the counts fall back.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

CHECK_INTERVAL_MS = 500
"""How often the GUI thread looks whether a collection is due."""
FULL_COLLECTION_GROWTH = 0.25
"""CPython's own: the oldest generation is collected once it grew by a quarter."""


class GuiThreadCollector(QObject):
    """Collects cycles on the GUI thread; :func:`hold` and :func:`release` count its users."""

    def __init__(self) -> None:
        super().__init__()
        self._thresholds = gc.get_threshold()
        self._users = 0
        self.deferrals = 0
        self._long_lived = 0
        """Objects in the oldest generation after its last collection here."""
        self._pending = 0
        """Objects moved into the oldest generation since."""
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self.collect_if_due)

    def hold(self) -> None:
        self._users += 1
        if self._users == 1:
            self._was_enabled = gc.isenabled()
            gc.disable()
            self._timer.start()

    def release(self) -> None:
        if self._users == 0:
            return
        self._users -= 1
        if self._users == 0:
            self._timer.stop()
            gc.collect()  # on this thread, before the collector may run anywhere again
            if self._was_enabled:
                gc.enable()

    def collect_if_due(self) -> None:
        """CPython's own rule, applied here: the oldest generation past its threshold.

        As CPython does, the oldest generation (a walk of the whole heap) is collected
        only once the objects moved into it since its last collection are a quarter of
        those it held then (:data:`FULL_COLLECTION_GROWTH`). Without that part of the
        rule a full collection ran every 70,000 allocations, however big the heap: in a
        long session, or with the embedded backend's objects, 100-170 ms on the GUI
        thread each time on a busy machine, a stall while a big preview draws.
        """
        if self.deferrals:
            return
        counts = gc.get_count()
        if (
            counts[2] > self._thresholds[2]
            and self._pending > self._long_lived * FULL_COLLECTION_GROWTH
        ):
            gc.collect(2)
            self._long_lived = len(gc.get_objects(generation=2))
            self._pending = 0
            return
        for generation in (1, 0):
            if counts[generation] > self._thresholds[generation]:
                young = sum(len(gc.get_objects(generation=g)) for g in range(generation + 1))
                found = gc.collect(generation)
                if generation == 1:  # its survivors move to the oldest generation
                    self._pending += max(0, young - found)
                return


_collector: GuiThreadCollector | None = None


def hold() -> None:
    """A window opens: from now on cycles are collected on this (the GUI) thread."""
    global _collector
    if _collector is None:
        _collector = GuiThreadCollector()
    _collector.hold()


def release() -> None:
    """A window closed; with none left, automatic collection is as it was."""
    if _collector is not None:
        _collector.release()


def defer() -> None:
    """Work that makes many short-lived objects starts: timed collections wait for it."""
    if _collector is not None:
        _collector.deferrals += 1


def resume() -> None:
    """Work :func:`defer` announced has ended."""
    if _collector is not None and _collector.deferrals:
        _collector.deferrals -= 1
