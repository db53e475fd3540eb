"""The per-send capture: resolve afresh, bounded flush, read the live editor, build the pointer.

R9–R15. A capture is split in two so a GUI never waits on the network:
:func:`begin_capture` resolves on the owner thread, the caller runs the
preparation (flush) elsewhere under :data:`FLUSH_LIMIT_SECONDS`, and
:meth:`PendingCapture.complete` reads the editor back on the owner thread.
:func:`capture_pointer` strings the three together for callers that may block.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from typing import Literal

from bridge.pointer import AmbientPointer, encode_header, fingerprint, format_captured_at
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.runtime import InboxRuntime
from renderer.ambient.store import AmbientStore, Resolution

FLUSH_LIMIT_SECONDS = 1.5  # R10: the whole preparation operation, not each save

DropReason = Literal["no-inbox", "oversize", "discarded", "excluded"]
DROP_REASONS: tuple[DropReason, ...] = ("no-inbox", "oversize", "discarded", "excluded")

Flush = Callable[[], object]
"""Flush every pending Inbox save; blocks until done. Runs off the owner thread."""

FutureWaiter = Callable[["Future[object]", float], bool]
"""Wait at most ``timeout`` seconds for a future; True when it finished in time."""


@dataclass(frozen=True)
class CaptureResult:
    """The outcome of one capture: a pointer and its header, or why there is none."""

    pointer: AmbientPointer | None
    header: str | None
    dropped: DropReason | None

    @property
    def header_bytes(self) -> int:
        """Size of the encoded header value (0 when no header is sent)."""
        return len(self.header) if self.header is not None else 0

    @classmethod
    def without_header(
        cls, reason: DropReason, pointer: AmbientPointer | None = None
    ) -> CaptureResult:
        return cls(pointer=pointer, header=None, dropped=reason)


class PendingCapture:
    """A capture begun on the owner thread, waiting for its preparation to end."""

    def __init__(
        self,
        store: AmbientStore,
        clock: Clock,
        runtime: InboxRuntime | None,
        resolution: Resolution | None,
        early_result: CaptureResult | None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._runtime = runtime
        self._resolution = resolution
        self._epoch = store.epoch
        self.started_at = clock.monotonic()
        self.early_result = early_result

    @property
    def needs_preparation(self) -> bool:
        """False when the outcome is already known (excluded, or no Inbox mounted)."""
        return self.early_result is None

    @property
    def resolution(self) -> Resolution | None:
        """The note resolved when the capture began."""
        return self._resolution

    def is_stale(self) -> bool:
        """R13: the workspace changed, or "this note" now means another frame or path."""
        if self._store.epoch != self._epoch or self._resolution is None:
            return True
        current = self._store.resolve_runtime()
        if current is None or current is not self._runtime:
            return True
        return current.current_path() != self._resolution.path

    def complete(self, flushed: bool) -> CaptureResult:
        """Read the live editor now (R11) and build the pointer; call on the owner thread."""
        if self.early_result is not None:
            return self.early_result
        if self._runtime is None or self.is_stale():
            return CaptureResult.without_header("discarded")
        runtime = self._runtime
        size, digest = fingerprint(runtime.read_text())
        view = runtime.current_view()
        pointer = AmbientPointer(
            path=runtime.current_path(),
            view=view,
            frameId=runtime.frame_id,
            selection=runtime.read_selection() if view == "edit" else None,
            bytes=size,
            sha256=digest,
            flushed=flushed,
            capturedAt=format_captured_at(self._clock.now()),
        )
        header = encode_header(pointer)
        if header is None:
            return CaptureResult.without_header("oversize", pointer)  # R15: omit, never truncate
        return CaptureResult(pointer=pointer, header=header, dropped=None)


def begin_capture(
    store: AmbientStore, clock: Clock | None = None, *, include: bool = True
) -> PendingCapture:
    """Resolve "this note" afresh for one send (R9); call on the owner thread."""
    clock = clock or SystemClock()
    if not include:
        return PendingCapture(store, clock, None, None, CaptureResult.without_header("excluded"))
    runtime = store.resolve_runtime()
    if runtime is None:
        return PendingCapture(store, clock, None, None, CaptureResult.without_header("no-inbox"))
    resolution = Resolution(runtime.frame_id, runtime.current_path(), runtime.current_view())
    return PendingCapture(store, clock, runtime, resolution, None)


def _wait_real(future: Future[object], timeout: float) -> bool:
    done, _ = wait_futures([future], timeout=timeout)
    return future in done


_flush_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ambient-flush")


def run_bounded_preparation(
    flush: Flush,
    *,
    limit: float = FLUSH_LIMIT_SECONDS,
    wait: FutureWaiter = _wait_real,
) -> bool:
    """Run ``flush`` on a worker thread and wait at most ``limit`` seconds (R10, R12).

    Returns True when the flush finished in time and did not fail. A flush that
    overruns keeps going in the background; the caller carries on regardless.
    """
    future: Future[object] = _flush_pool.submit(flush)
    if not wait(future, limit):
        return False
    return future.exception() is None


def capture_pointer(
    store: AmbientStore,
    flush: Flush,
    clock: Clock | None = None,
    *,
    include: bool = True,
    limit: float = FLUSH_LIMIT_SECONDS,
    wait: FutureWaiter = _wait_real,
) -> CaptureResult:
    """Blocking capture for callers that own no GUI: begin, bounded flush, complete."""
    pending = begin_capture(store, clock, include=include)
    if pending.early_result is not None:
        return pending.early_result
    flushed = run_bounded_preparation(flush, limit=limit, wait=wait)
    return pending.complete(flushed)
