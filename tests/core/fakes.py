"""In-memory stand-ins for an Inbox editor and the clock, for driving the ambient core."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from bridge.pointer import Selection, View


class FakeEditor:
    """A live Inbox runtime over plain attributes: every read sees the value at that moment."""

    def __init__(
        self,
        frame_id: str,
        path: str = "notes/a.md",
        text: str = "",
        view: View = "edit",
        selection: Selection | None = None,
    ) -> None:
        self._frame_id = frame_id
        self.path = path
        self.text = text
        self.view: View = view
        self.selection = selection
        self.text_reads = 0
        self.events: list[str] = []

    @property
    def frame_id(self) -> str:
        return self._frame_id

    def current_path(self) -> str:
        return self.path

    def current_view(self) -> View:
        return self.view

    def read_text(self) -> str:
        self.text_reads += 1
        self.events.append("read_text")
        return self.text

    def read_selection(self) -> Selection | None:
        return self.selection

    def type(self, more: str) -> None:
        """Append at the end, as a keystroke would."""
        self.text += more
        self.events.append("typed")


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self.seconds = 1000.0
        self.wall = start or datetime(2026, 11, 29, 19, 8, 18, 123000, tzinfo=UTC)

    def monotonic(self) -> float:
        return self.seconds

    def now(self) -> datetime:
        return self.wall

    def advance(self, seconds: float) -> None:
        self.seconds += seconds
        self.wall += timedelta(seconds=seconds)


def join_new_threads(before: set[threading.Thread], timeout: float = 5.0) -> list[str]:
    """Join threads started since ``before``; the names of any still running after ``timeout``."""
    leftovers = [t for t in threading.enumerate() if t not in before]
    for thread in leftovers:
        thread.join(timeout)
    return [t.name for t in leftovers if t.is_alive()]
