"""Background work for the GUI: run a callable off the GUI thread, get its outcome back on it.

Only the callable passed to :meth:`TaskRunner.submit` runs on a worker thread; it
must not touch widgets. ``on_done`` and ``on_error`` always run on the thread that
owns the runner (the GUI thread), from the event loop, never inside ``submit``.

A call site with nothing to show for a failure passes no ``on_error``: the
runner's default failure path (:func:`log_failure` unless another is given) takes
it, so no failure is ever dropped without a word, and none reaches the user as a
traceback.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot

from bridge.errors import BackendError

logger = logging.getLogger(__name__)

THREAD_NAME_PREFIX = "ambient-task"

Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


def _pass_on(waiting: Future[object], done: Future[object]) -> None:
    """What a held task's work returned, handed to the future :meth:`TaskRunner.submit` gave."""
    waiting.set_result(done.result())  # ``run`` catches every failure: there is a result


def log_failure(error: BaseException) -> None:
    """The default failure path: a backend refusal is noted, anything else logged as a defect."""
    if isinstance(error, BackendError):
        logger.info("Background work was refused: %s", error)
    else:
        logger.error("Background work failed", exc_info=error)


@dataclass
class _Outcome:
    on_done: Done | None
    on_error: Failed
    value: object = None
    error: BaseException | None = None


class TaskRunner(QObject):
    """A small thread pool whose callbacks hop back to the runner's thread through a signal."""

    _finished = Signal(object)

    def __init__(
        self,
        max_workers: int = 4,
        parent: QObject | None = None,
        *,
        on_failure: Failed = log_failure,
    ) -> None:
        super().__init__(parent)
        self._on_failure = on_failure
        self._pool = ThreadPoolExecutor(
            max_workers=max_workers, thread_name_prefix=THREAD_NAME_PREFIX
        )
        self._pending: set[Future[object]] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._held: list[tuple[Callable[[], object], Future[object]]] | None = None
        # Queued even when emitted from the owner thread, so callbacks never re-enter ``submit``.
        self._finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)

    def submit(
        self,
        work: Callable[[], object],
        on_done: Done | None = None,
        on_error: Failed | None = None,
        *,
        held: bool = True,
    ) -> Future[object] | None:
        """Run ``work`` on a worker thread; None when the runner is already shut down.

        Without ``on_error`` a failure takes the runner's default failure path. While
        the runner is held (:meth:`hold`), ``work`` waits its turn unless ``held`` is False.
        """
        if self._closed:
            return None
        failed = on_error or self._on_failure

        def run() -> object:
            outcome = _Outcome(on_done, failed)
            try:
                outcome.value = work()
            except BaseException as error:
                outcome.error = error
            self._finished.emit(outcome)
            return outcome.value

        if self._held is not None and held:
            future: Future[object] = Future()
            self._held.append((run, future))
        else:
            future = self._pool.submit(run)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._forget)
        return future

    def hold(self) -> None:
        """Keep work submitted from now on back, in order, until :meth:`release` (GUI thread).

        While the backend starts, work that calls it would wait on every worker; held
        here, it leaves them free for what needs no backend (a note read from its
        folder, issue 33), which is submitted with ``held=False``.
        """
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Run the held work, in the order it was submitted, and stop holding (GUI thread)."""
        held, self._held = self._held or [], None
        for run, future in held:
            if future.set_running_or_notify_cancel():  # not cancelled meanwhile
                self._pool.submit(run).add_done_callback(partial(_pass_on, future))

    @property
    def busy(self) -> bool:
        """True while some submitted work has not returned yet."""
        with self._lock:
            return bool(self._pending)

    def shutdown(self) -> None:
        """Refuse new work; wait for submitted work (saves must land; calls are time-bounded)."""
        self._closed = True
        self.release()
        self._pool.shutdown(wait=True, cancel_futures=False)

    def _forget(self, future: Future[object]) -> None:
        with self._lock:
            self._pending.discard(future)

    @Slot(object)
    def _on_finished(self, outcome: _Outcome) -> None:
        if self._closed:
            return
        if outcome.error is not None:
            outcome.on_error(outcome.error)
        elif outcome.on_done is not None:
            outcome.on_done(outcome.value)
