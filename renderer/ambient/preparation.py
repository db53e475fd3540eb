"""The whole bounded send preparation: resolve, flush, wait for the load, read, encode (R9–R15).

:func:`prepare_send` is the one capture path the app runs. On the owner thread
it resolves "this note" afresh (R9), starts the flush of every pending save
through the caller's :data:`StartFlush`, and sets one timer for the rest of
:data:`~bridge.contract.FLUSH_LIMIT_SECONDS` (R10). The capture
completes, on the owner thread, at the first of:

- the flush has ended and the resolved note has loaded: the pointer says
  whether the flush succeeded;
- the bound runs out (R12): the pointer is sent with ``flushed: false``, or,
  when the note still has not loaded, no header is sent and the drop reason is
  ``loading``.

Completing reads the live editor at that moment (R11), discards the capture if
the workspace, the frame or its path changed meanwhile (R7, R13) and omits a
header that would exceed 2,048 bytes (R15). The GUI supplies only adapters: a
way to call back after some seconds (:class:`Timers`) and a way to run the
flush off its thread and hear back on it (:data:`StartFlush`); it never races
the two itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bridge.contract import FLUSH_LIMIT_SECONDS
from renderer.ambient.capture import CaptureResult, PendingCapture, begin_capture
from renderer.ambient.clock import Clock
from renderer.ambient.store import AmbientStore

Cancel = Callable[[], None]
"""Stops a scheduled callback; calling it after the callback ran does nothing."""

FlushDone = Callable[[bool], None]
"""Told, on the owner thread, whether every save the flush waited for landed."""

StartFlush = Callable[[FlushDone], None]
"""Start flushing every pending save off the owner thread and return at once.

``done(ok)`` is called later, on the owner thread; a flush that never ends never calls it.
"""


class Timers(Protocol):
    """Schedules a callback on the owner thread (a Qt timer in the app, a fake clock in tests)."""

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancel: ...


@dataclass(frozen=True)
class PreparedSend:
    """What one send's preparation came to."""

    capture: CaptureResult
    flushed: bool | None
    """Whether the flush ended in time and succeeded; None when no preparation ran."""
    seconds: float
    """From the start of the send to the read of the editor (0 when no preparation ran)."""
    timed_out: bool = False
    """True when the bound ran out before the flush ended (R12): a save was still running."""


PreparedListener = Callable[[PreparedSend], None]


class SendPreparation:
    """One send being prepared; :meth:`cancel` forgets it (the frame is closing)."""

    def __init__(
        self,
        pending: PendingCapture,
        store: AmbientStore,
        clock: Clock,
        on_prepared: PreparedListener,
    ) -> None:
        self._pending = pending
        self._store = store
        self._clock = clock
        self._on_prepared = on_prepared
        self._flush_ok: bool | None = None
        self._settled = False
        self._cancel_timer: Cancel | None = None
        self._listening_to_loads = False

    def _start(self, timers: Timers, start_flush: StartFlush, limit: float) -> None:
        early = self._pending.early_result
        if early is not None:
            self._settle_with(early, None, 0.0)
            return
        self._cancel_timer = timers.call_later(self._pending.remaining(limit), self._on_bound)
        # The store holds this method weakly (psygnal); the bound timer above holds it strongly.
        self._store.frame_loaded.connect(self._on_loaded)
        self._listening_to_loads = True
        start_flush(self._on_flushed)

    def cancel(self) -> None:
        """Stop the timer and ignore whatever comes back later; nothing is reported."""
        self._settled = True
        self._release()

    def _on_flushed(self, ok: bool) -> None:
        if self._settled:
            return
        self._flush_ok = ok
        if self._pending.is_loaded() or self._pending.is_stale():
            self._complete(ok)

    def _on_loaded(self, _frame_id: str) -> None:
        if self._settled or self._flush_ok is None:
            return
        if self._pending.is_loaded() or self._pending.is_stale():
            self._complete(self._flush_ok)

    def _on_bound(self) -> None:
        # R12: the bound ran out; a flush still running counts as not flushed. A note still
        # loading is dropped as "loading" by complete(), never read.
        if not self._settled:
            self._complete(self._flush_ok is True, timed_out=self._flush_ok is None)

    def _complete(self, flushed: bool, *, timed_out: bool = False) -> None:
        seconds = self._clock.monotonic() - self._pending.started_at
        self._settle_with(self._pending.complete(flushed), flushed, seconds, timed_out)

    def _settle_with(
        self,
        capture: CaptureResult,
        flushed: bool | None,
        seconds: float,
        timed_out: bool = False,
    ) -> None:
        if self._settled:
            return
        self._settled = True
        self._release()
        self._on_prepared(
            PreparedSend(capture=capture, flushed=flushed, seconds=seconds, timed_out=timed_out)
        )

    def _release(self) -> None:
        if self._cancel_timer is not None:
            self._cancel_timer()
            self._cancel_timer = None
        if self._listening_to_loads:
            self._store.frame_loaded.disconnect(self._on_loaded)
            self._listening_to_loads = False


def prepare_send(
    store: AmbientStore,
    *,
    clock: Clock,
    timers: Timers,
    start_flush: StartFlush,
    on_prepared: PreparedListener,
    include: bool = True,
    limit: float = FLUSH_LIMIT_SECONDS,
) -> SendPreparation:
    """Prepare one send; ``on_prepared`` is called once, on the owner thread.

    An excluded send, or one with no Inbox note mounted, is reported at once,
    without flushing or reading anything (R6). Call on the thread that owns
    ``store``; nothing here blocks.
    """
    pending = begin_capture(store, clock, include=include)
    preparation = SendPreparation(pending, store, clock, on_prepared)
    preparation._start(timers, start_flush, limit)
    return preparation
