"""One capture: resolve afresh, then read the live editor and build the pointer (R9, R11, R13, R15).

A capture is split in two so a GUI never waits on the network:
:func:`begin_capture` resolves on the owner thread when the send starts, and
:meth:`PendingCapture.complete` reads the editor on the owner thread once the
preparation is over. :mod:`renderer.ambient.preparation` runs the bounded
preparation in between; it is the only caller of :meth:`PendingCapture.complete`
in the product.
"""

from __future__ import annotations

import base64
from typing import NamedTuple

from pydantic import ValidationError

from bridge.contract import FLUSH_LIMIT_SECONDS, MAX_HEADER_BYTES
from bridge.drops import DropReason
from bridge.pointer import AmbientPointer, capture_pointer, encode_header
from bridge.views import EDIT
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.lines import LineRange, selection_lines
from renderer.ambient.runtime import InboxRuntime
from renderer.ambient.store import AmbientStore, Resolution


class CaptureResult(NamedTuple):
    """The outcome of one capture: the pointer and its header, or why there is none.

    ``pointer`` is set exactly when ``header`` is: it is what the backend will see.
    An ``oversize`` capture keeps the pointer it could not send in ``oversize_pointer``.
    ``selection_lines`` are the lines the sent selection covers, counted in the same
    read of the editor as the fingerprint (R48); None without a header or a selection.
    A named tuple, as every send makes one: a frozen dataclass takes twice as long.
    """

    pointer: AmbientPointer | None
    header: str | None
    dropped: DropReason | None
    oversize_pointer: AmbientPointer | None = None
    selection_lines: LineRange | None = None

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

    # Slots: every send makes one, and they are set and read faster than a dict's keys.
    __slots__ = ("_clock", "_epoch", "_resolution", "_store", "early_result", "started_at")

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

    def is_loaded(self) -> bool:
        """Whether the resolved frame shows its note's text now (False when there is none)."""
        runtime = self._live_runtime()
        return runtime is not None and runtime.is_loaded()

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
        if not runtime.is_loaded():
            # The editor does not hold the note yet: its bytes would be another note's or none.
            return CaptureResult.without_header("loading")
        # R11: read through the handle at this moment, after the flush, so keystrokes
        # typed while it ran are counted; nothing here holds the text beyond this call.
        text = runtime.read_text()
        view = runtime.current_view()
        path = resolution.path  # _live_runtime just checked the frame still shows it
        try:
            pointer = capture_pointer(
                text,
                path=path,
                view=view,
                frame_id=runtime.frame_id,
                selection=runtime.read_selection() if view == EDIT else None,
                flushed=flushed,
                moment=self._clock.now(),
            )
        except ValidationError:
            if _cannot_fit(path):
                return CaptureResult.without_header("oversize")
            return CaptureResult.without_header("invalid")
        header = encode_header(pointer)
        if header is None:
            return CaptureResult.without_header("oversize", pointer)  # R15: omit, never truncate
        return CaptureResult(pointer, header, None, None, selection_lines(text, pointer.selection))


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
    if store.is_private(resolution.path):
        # R86: a private note is never read for a pointer; nothing of it leaves the window.
        return PendingCapture(store, clock, None, CaptureResult.without_header("private"))
    return PendingCapture(store, clock, resolution, None)
