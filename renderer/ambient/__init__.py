"""The Qt-free ambient core: which note "this note" is, and the per-send capture (R1–R13).

Nothing here imports Qt. Editor handles, the clock and the flush are injected,
so every rule is testable without a window.
"""

from renderer.ambient.capture import (
    DROP_MESSAGES,
    DROP_REASONS,
    FLUSH_LIMIT_SECONDS,
    CaptureResult,
    DropReason,
    Flush,
    FutureWaiter,
    PendingCapture,
    begin_capture,
    capture_pointer,
    describe_drop,
    run_bounded_preparation,
    start_preparation,
    wait_for_future,
)
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.runtime import InboxRuntime
from renderer.ambient.store import AmbientStore, Resolution, ResolutionListener

__all__ = [
    "DROP_MESSAGES",
    "DROP_REASONS",
    "FLUSH_LIMIT_SECONDS",
    "AmbientStore",
    "CaptureResult",
    "Clock",
    "DropReason",
    "Flush",
    "FutureWaiter",
    "InboxRuntime",
    "PendingCapture",
    "Resolution",
    "ResolutionListener",
    "SystemClock",
    "begin_capture",
    "capture_pointer",
    "describe_drop",
    "run_bounded_preparation",
    "start_preparation",
    "wait_for_future",
]
