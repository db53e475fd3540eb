"""The Qt-free ambient core: which note "this note" is, and the per-send capture (R1–R13).

Nothing here imports Qt. Editor handles, the clock and the flush are injected,
so every rule is testable without a window.
"""

from renderer.ambient.capture import (
    FLUSH_LIMIT_SECONDS,
    CaptureResult,
    DropReason,
    PendingCapture,
    begin_capture,
    capture_pointer,
)
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.runtime import InboxRuntime
from renderer.ambient.store import AmbientStore, Resolution

__all__ = [
    "FLUSH_LIMIT_SECONDS",
    "AmbientStore",
    "CaptureResult",
    "Clock",
    "DropReason",
    "InboxRuntime",
    "PendingCapture",
    "Resolution",
    "SystemClock",
    "begin_capture",
    "capture_pointer",
]
