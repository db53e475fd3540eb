"""The per-send capture: resolve afresh, bounded flush, read the live editor, build the pointer.

R9–R15. A capture is split in two so a GUI never waits on the network:
:func:`begin_capture` resolves on the owner thread, the caller runs the
preparation (flush) elsewhere under :data:`FLUSH_LIMIT_SECONDS`, and
:meth:`PendingCapture.complete` reads the editor back on the owner thread.
:func:`capture_pointer` strings the three together for callers that may block.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from bridge.pointer import (
    MAX_HEADER_BYTES,
    AmbientPointer,
    encode_header,
    fingerprint,
    format_captured_at,
)
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.runtime import InboxRuntime
from renderer.ambient.store import AmbientStore, Resolution

FLUSH_LIMIT_SECONDS = 1.5  # R10: the whole preparation operation, not each save

DropReason = Literal["no-inbox", "oversize", "discarded", "excluded", "invalid"]
"""Why a send carries no header. The first four are the contract's words; ``invalid``
covers a path or frame id the pointer model refuses (one the document API could
never serve), so a malformed handle never crashes a send."""

DROP_REASONS: tuple[DropReason, ...] = ("no-inbox", "oversize", "discarded", "excluded", "invalid")

DROP_MESSAGES: Mapping[DropReason, str] = {
    "no-inbox": "No Inbox note is open, so no note context was sent.",
    "oversize": (
        f"The note pointer would be larger than {MAX_HEADER_BYTES:,} bytes, "
        "so no note context was sent."
    ),
    "discarded": (
        "The open note or the workspace changed while the message was being prepared, "
        "so no note context was sent."
    ),
    "excluded": "Note context was turned off for this message.",
    "invalid": "The open note's path can't be named to the assistant, so no note context was sent.",
}

Flush = Callable[[], object]
"""Flush every pending Inbox save; blocks until done. Runs off the owner thread."""

FutureWaiter = Callable[["Future[object]", float], bool]
"""Wait at most ``timeout`` seconds for a future; True when it finished in time."""


def describe_drop(reason: DropReason) -> str:
    """A sentence a UI can show as is for why no note context was sent."""
    return DROP_MESSAGES[reason]


@dataclass(frozen=True)
class CaptureResult:
    """The outcome of one capture: the pointer and its header, or why there is none.

    ``pointer`` is set exactly when ``header`` is: it is what the backend will see.
    An ``oversize`` capture keeps the pointer it could not send in ``oversize_pointer``.
    """

    pointer: AmbientPointer | None
    header: str | None
    dropped: DropReason | None
    oversize_pointer: AmbientPointer | None = None

    @property
    def header_bytes(self) -> int:
        """Size of the encoded header value (0 when no header is sent); it is ASCII."""
        return len(self.header) if self.header is not None else 0

    @classmethod
    def without_header(
        cls, reason: DropReason, oversize_pointer: AmbientPointer | None = None
    ) -> CaptureResult:
        return cls(pointer=None, header=None, dropped=reason, oversize_pointer=oversize_pointer)


class PendingCapture:
    """A capture begun on the owner thread, waiting for its preparation to end."""

    def __init__(
        self,
        store: AmbientStore,
        clock: Clock,
        resolution: Resolution | None,
        early_result: CaptureResult | None,
    ) -> None:
        self._store = store
        self._clock = clock
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

    def remaining(self, limit: float = FLUSH_LIMIT_SECONDS) -> float:
        """Seconds left of the whole-operation bound (R10), counted from the start."""
        return max(0.0, limit - (self._clock.monotonic() - self.started_at))

    def is_stale(self) -> bool:
        """R13: the workspace changed, or "this note" now means another frame or path."""
        return self._live_runtime() is None

    def _live_runtime(self) -> InboxRuntime | None:
        """The runtime to read now, or None when the capture must be discarded (R7, R13)."""
        if self._store.epoch != self._epoch or self._resolution is None:
            return None
        current = self._store.resolve_runtime()
        if current is None or current.frame_id != self._resolution.frame_id:
            return None
        if current.current_path() != self._resolution.path:
            return None
        return current

    def complete(self, flushed: bool) -> CaptureResult:
        """Read the live editor now (R11) and build the pointer; call on the owner thread."""
        if self.early_result is not None:
            return self.early_result
        runtime, resolution = self._live_runtime(), self._resolution
        if runtime is None or resolution is None:
            return CaptureResult.without_header("discarded")
        # R11: read through the handle at this moment, after the flush, so keystrokes
        # typed while it ran are counted; nothing here holds the text beyond this call.
        size, digest = fingerprint(runtime.read_text())
        view = runtime.current_view()
        path = resolution.path  # _live_runtime just checked the frame still shows it
        try:
            pointer = AmbientPointer(
                path=path,
                view=view,
                frameId=runtime.frame_id,
                selection=runtime.read_selection() if view == "edit" else None,
                bytes=size,
                sha256=digest,
                flushed=flushed,
                capturedAt=format_captured_at(self._clock.now()),
            )
        except ValidationError:
            if _cannot_fit(path):
                return CaptureResult.without_header("oversize")
            return CaptureResult.without_header("invalid")
        header = encode_header(pointer)
        if header is None:
            return CaptureResult.without_header("oversize", pointer)  # R15: omit, never truncate
        return CaptureResult(pointer=pointer, header=header, dropped=None)


def _cannot_fit(path: str) -> bool:
    """True when the path alone, encoded, already exceeds the header limit (R15)."""
    raw = path.encode("utf-8", errors="surrogatepass")
    return len(base64.urlsafe_b64encode(raw)) > MAX_HEADER_BYTES


def begin_capture(
    store: AmbientStore, clock: Clock | None = None, *, include: bool = True
) -> PendingCapture:
    """Resolve "this note" afresh for one send (R9); call on the owner thread."""
    clock = clock or SystemClock()
    if not include:
        return PendingCapture(store, clock, None, CaptureResult.without_header("excluded"))
    resolution = store.resolve()
    if resolution is None:
        return PendingCapture(store, clock, None, CaptureResult.without_header("no-inbox"))
    return PendingCapture(store, clock, resolution, None)


def wait_for_future(future: Future[object], timeout: float) -> bool:
    """The real waiter: block at most ``timeout`` seconds; True when ``future`` is done."""
    done, _ = wait_futures([future], timeout=timeout)
    return future in done


def start_preparation(flush: Flush) -> Future[object]:
    """Start ``flush`` on its own daemon thread and return its future at once.

    One thread per preparation, so a flush stuck on a stalled backend never
    queues the next send's flush behind it, and never holds up interpreter exit.
    """
    future: Future[object] = Future()

    def run() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = flush()
        except BaseException as error:  # reported through the future, never lost in a thread
            future.set_exception(error)
        else:
            future.set_result(result)

    threading.Thread(target=run, name="ambient-flush", daemon=True).start()
    return future


def run_bounded_preparation(
    flush: Flush,
    *,
    limit: float = FLUSH_LIMIT_SECONDS,
    wait: FutureWaiter = wait_for_future,
) -> bool:
    """Run ``flush`` on a worker thread and wait at most ``limit`` seconds (R10, R12).

    Returns True when the flush finished in time and did not fail. A flush that
    overruns keeps going in the background; the caller carries on regardless.
    """
    future = start_preparation(flush)
    if not wait(future, limit):
        return False
    return future.done() and future.exception() is None


def capture_pointer(
    store: AmbientStore,
    flush: Flush,
    clock: Clock | None = None,
    *,
    include: bool = True,
    limit: float = FLUSH_LIMIT_SECONDS,
    wait: FutureWaiter = wait_for_future,
) -> CaptureResult:
    """Blocking capture for callers that own no GUI: begin, bounded flush, complete.

    Runs on the thread that owns ``store``; it blocks at most ``limit`` seconds
    on the flush, so it must not run on a GUI thread.
    """
    pending = begin_capture(store, clock, include=include)
    if pending.early_result is not None:
        return pending.early_result
    flushed = run_bounded_preparation(flush, limit=pending.remaining(limit), wait=wait)
    return pending.complete(flushed)
