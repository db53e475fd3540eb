"""In-memory stand-ins for an Inbox editor, the clock, the timers and the flush.

They are the adapters the GUI gives the core, made of plain values: the core
under test is the code the app runs (:func:`renderer.ambient.prepare_send`).
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bridge.contract import FLUSH_LIMIT_SECONDS
from bridge.pointer import Selection
from bridge.views import View
from renderer.ambient import (
    AmbientStore,
    Cancel,
    CaptureResult,
    FlushDone,
    PreparedSend,
    SendPreparation,
    prepare_send,
)
from renderer.ambient.lines import SelectedSpan


class FakeEditor:
    """A live Inbox runtime over plain attributes: every read sees the value at that moment."""

    def __init__(
        self,
        frame_id: str,
        path: str = "notes/a.md",
        text: str = "",
        view: View = "edit",
        selection: Selection | None = None,
        *,
        loaded: bool = True,
    ) -> None:
        self._frame_id = frame_id
        self.loaded = loaded
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

    def is_loaded(self) -> bool:
        return self.loaded

    def read_text(self) -> str:
        self.text_reads += 1
        self.events.append("read_text")
        return self.text

    def read_selection(self) -> Selection | None:
        return self.selection

    def read_selected_span(self) -> SelectedSpan | None:
        """As the editor reads it: from the start of the selection's first line to its end."""
        if self.selection is None or self.selection.anchor == self.selection.head:
            return None
        units = self.text.encode("utf-16-le", errors="surrogatepass")
        start, end = sorted((self.selection.anchor, self.selection.head))
        before = units[: 2 * start].decode("utf-16-le", errors="surrogatepass")
        base = len(before) - len(before.rpartition("\n")[2])
        base_units = len(before[:base].encode("utf-16-le", errors="surrogatepass")) // 2
        text = units[2 * base_units : 2 * end].decode("utf-16-le", errors="replace")
        return SelectedSpan(
            text,
            before.count("\n"),
            self.selection.anchor - base_units,
            self.selection.head - base_units,
        )

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


class FakeTimers:
    """Timers on a :class:`FakeClock`: :meth:`advance` moves the clock and fires what is due."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.requested: list[float] = []
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._order = itertools.count()

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancel:
        self.requested.append(seconds)
        number = next(self._order)
        heapq.heappush(self._due, (self.clock.monotonic() + seconds, number, callback))
        return lambda: self._cancelled.add(number)

    @property
    def pending(self) -> int:
        """Timers set and neither fired nor cancelled."""
        return sum(1 for _, number, _ in self._due if number not in self._cancelled)

    def advance(self, seconds: float) -> None:
        until = self.clock.monotonic() + seconds
        while self._due and self._due[0][0] <= until:
            at, number, callback = heapq.heappop(self._due)
            self.clock.advance(at - self.clock.monotonic())
            if number not in self._cancelled:
                callback()
        self.clock.advance(until - self.clock.monotonic())


class ManualFlush:
    """The flush adapter: started by the core, ended by the test (or never, as a stalled save)."""

    def __init__(self, during: Callable[[], None] | None = None) -> None:
        self.during = during
        self.starts = 0
        self._done: FlushDone | None = None

    def __call__(self, done: FlushDone) -> None:
        self.starts += 1
        self._done = done
        if self.during is not None:
            self.during()  # what the user does while the saves are in flight

    def finish(self, ok: bool = True) -> None:
        assert self._done is not None, "the flush never started"
        self._done(ok)


class Send:
    """One send through :func:`prepare_send` with fake adapters; ``result`` once prepared."""

    def __init__(
        self,
        store: AmbientStore,
        clock: FakeClock,
        *,
        during: Callable[[], None] | None = None,
        include: bool = True,
        limit: float = FLUSH_LIMIT_SECONDS,
    ) -> None:
        self.clock = clock
        self.timers = FakeTimers(clock)
        self.flush = ManualFlush(during)
        self.results: list[PreparedSend] = []
        self.preparation: SendPreparation = prepare_send(
            store,
            clock=clock,
            timers=self.timers,
            start_flush=self.flush,
            on_prepared=self.results.append,
            include=include,
            limit=limit,
        )

    @property
    def prepared(self) -> PreparedSend:
        assert len(self.results) == 1, f"prepared {len(self.results)} times"
        return self.results[0]

    @property
    def capture(self) -> CaptureResult:
        return self.prepared.capture


def send_flushed(
    store: AmbientStore,
    clock: FakeClock | None = None,
    *,
    during: Callable[[], None] | None = None,
    ok: bool = True,
    include: bool = True,
) -> CaptureResult:
    """A send whose flush ends in time (``ok`` says whether it succeeded); its capture."""
    send = Send(store, clock or FakeClock(), during=during, include=include)
    if not send.results:
        send.flush.finish(ok)
    return send.capture


def join_new_threads(before: set[threading.Thread], timeout: float = 5.0) -> list[str]:
    """Join threads started since ``before``; the names of any still running after ``timeout``."""
    leftovers = [t for t in threading.enumerate() if t not in before]
    for thread in leftovers:
        thread.join(timeout)
    return [t.name for t in leftovers if t.is_alive()]
