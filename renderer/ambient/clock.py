"""The clock the core reads, injected so time-bound rules (1.5 s) are testable without sleeping."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Monotonic seconds for bounds, wall time for ``capturedAt``."""

    def monotonic(self) -> float: ...

    def now(self) -> datetime: ...


class SystemClock:
    """The real clock."""

    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> datetime:
        return datetime.now(UTC)
