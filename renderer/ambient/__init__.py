"""The Qt-free ambient core: which note "this note" is, and the per-send capture (R1–R13).

Nothing here imports Qt. Editor handles, the clock, the timers and the flush
are injected, so every rule is testable without a window, on the path the app runs.
"""

from renderer.ambient.capture import CaptureResult, PendingCapture, begin_capture
from renderer.ambient.clock import Clock, SystemClock
from renderer.ambient.lines import LineRange, selection_lines
from renderer.ambient.preparation import (
    Cancel,
    FlushDone,
    PreparedSend,
    SendPreparation,
    StartFlush,
    Timers,
    prepare_send,
)
from renderer.ambient.runtime import InboxRuntime
from renderer.ambient.store import AmbientStore, Resolution

__all__ = [
    "AmbientStore",
    "Cancel",
    "CaptureResult",
    "Clock",
    "FlushDone",
    "InboxRuntime",
    "LineRange",
    "PendingCapture",
    "PreparedSend",
    "Resolution",
    "SendPreparation",
    "StartFlush",
    "SystemClock",
    "Timers",
    "begin_capture",
    "prepare_send",
    "selection_lines",
]
