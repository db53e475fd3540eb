"""The per-send capture: afresh, bounded flush, live read, discard on change (R8–R15)."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future

import pytest

from bridge.pointer import MAX_HEADER_BYTES, Selection, decode_header
from renderer.ambient import (
    DROP_MESSAGES,
    DROP_REASONS,
    FLUSH_LIMIT_SECONDS,
    AmbientStore,
    CaptureResult,
    begin_capture,
    capture_pointer,
    describe_drop,
    run_bounded_preparation,
    wait_for_future,
)
from tests.core.fakes import FakeClock, FakeEditor


def no_flush() -> None:
    return None


def sha16(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class StalledFlush:
    """A flush that blocks until released, like a save stuck on a slow backend."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()

    def __call__(self) -> None:
        self.started.set()
        self.release.wait()
        self.finished.set()


class BoundWaiter:
    """Stands in for waiting on the flush: lets the fake clock run out the bound at once."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.timeouts: list[float] = []
        self.futures: list[Future[object]] = []

    def __call__(self, future: Future[object], timeout: float) -> bool:
        self.timeouts.append(timeout)
        self.futures.append(future)
        self.clock.advance(timeout)
        return future.done()


@pytest.fixture
def stalled() -> Iterator[StalledFlush]:
    flush = StalledFlush()
    yield flush
    flush.release.set()  # let the flush thread end so no test leaks it
    if flush.started.is_set():
        assert flush.finished.wait(5)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def mounted(*editors: FakeEditor) -> AmbientStore:
    store = AmbientStore()
    for editor in editors:
        store.publish(editor)
    return store


def during_flush(action: Callable[[], None]) -> Callable[[], None]:
    """A flush that completes in time after doing ``action`` (the user acts meanwhile)."""

    def flush() -> None:
        action()

    return flush


# -- R8: what the pointer holds ---------------------------------------------


def test_r8_pointer_holds_the_metadata_of_the_live_note(clock: FakeClock) -> None:
    text = "# Today\nこのノート ✓\n"
    editor = FakeEditor("inbox-1", "inbox/today.md", text, "edit", Selection(anchor=2, head=7))
    result = capture_pointer(mounted(editor), no_flush, clock)
    assert result.dropped is None and result.pointer is not None and result.header is not None
    pointer = result.pointer
    assert pointer.path == "inbox/today.md"
    assert pointer.view == "edit"
    assert pointer.frameId == "inbox-1"
    assert pointer.selection == Selection(anchor=2, head=7)
    assert pointer.bytes == len(text.encode("utf-8"))
    assert pointer.sha256 == sha16(text)
    assert pointer.flushed is True
    assert pointer.capturedAt == "2026-11-29T19:08:18.123Z"
    assert decode_header(result.header) == pointer
    assert result.header_bytes == len(result.header.encode("ascii"))
    assert "Today" not in pointer.to_json() and "ノート" not in pointer.to_json()


@pytest.mark.parametrize("view", ["preview", "todo", "mindmap"])
def test_r8_views_other_than_edit_send_no_selection(clock: FakeClock, view: str) -> None:
    editor = FakeEditor("f", text="x", selection=Selection(anchor=0, head=1))
    editor.view = view  # type: ignore[assignment]
    result = capture_pointer(mounted(editor), no_flush, clock)
    assert result.pointer is not None
    assert result.pointer.view == view
    assert result.pointer.selection is None
    assert "selection" not in result.pointer.to_json()


def test_r8_selection_in_utf16_code_units_is_carried_as_the_editor_gives_it(
    clock: FakeClock,
) -> None:
    # "😀" is two UTF-16 code units: a selection after it starts at 2.
    editor = FakeEditor("f", text="😀ab", selection=Selection(anchor=2, head=4))
    result = capture_pointer(mounted(editor), no_flush, clock)
    assert result.pointer is not None and result.pointer.selection == Selection(anchor=2, head=4)
    assert result.pointer.bytes == 6


# -- R9: afresh for every send ------------------------------------------------


def test_r9_each_send_resolves_afresh(clock: FakeClock) -> None:
    a, b = FakeEditor("a", "notes/a.md", "A"), FakeEditor("b", "notes/b.md", "B")
    store = mounted(a, b)
    store.activate("a")
    first = capture_pointer(store, no_flush, clock)
    store.activate("b")
    second = capture_pointer(store, no_flush, clock)
    a.text = "A changed"
    store.activate("a")
    third = capture_pointer(store, no_flush, clock)
    assert first.pointer is not None and second.pointer is not None and third.pointer is not None
    assert (first.pointer.frameId, second.pointer.frameId) == ("a", "b")
    assert third.pointer.sha256 == sha16("A changed") != first.pointer.sha256


def test_r6_no_inbox_runtime_means_no_pointer_and_no_flush(clock: FakeClock) -> None:
    calls: list[str] = []
    result = capture_pointer(AmbientStore(), lambda: calls.append("flush"), clock)
    assert result == CaptureResult(pointer=None, header=None, dropped="no-inbox")
    assert calls == []


def test_excluded_send_reads_nothing_and_does_not_flush(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="secret")
    calls: list[str] = []
    result = capture_pointer(mounted(editor), lambda: calls.append("flush"), clock, include=False)
    assert result.dropped == "excluded" and result.header is None and result.pointer is None
    assert calls == [] and editor.text_reads == 0


# -- R10, R12: the bounded preparation ----------------------------------------


def test_r10_the_flush_runs_before_the_editor_is_read(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="x")
    result = capture_pointer(mounted(editor), lambda: editor.events.append("flushed"), clock)
    assert editor.events == ["flushed", "read_text"]
    assert result.pointer is not None and result.pointer.flushed is True


def test_r10_r12_the_wait_is_bounded_by_the_limit(clock: FakeClock, stalled: StalledFlush) -> None:
    editor = FakeEditor("a", text="before")
    waiter = BoundWaiter(clock)
    started = clock.monotonic()
    result = capture_pointer(mounted(editor), stalled, clock, wait=waiter)
    assert waiter.timeouts == [FLUSH_LIMIT_SECONDS]
    assert clock.monotonic() - started == pytest.approx(FLUSH_LIMIT_SECONDS)
    # R12: the pointer is still sent, marked not flushed, while the flush is still stuck.
    assert result.pointer is not None and result.header is not None
    assert result.pointer.flushed is False
    assert not stalled.finished.is_set()
    assert not waiter.futures[0].done()


def test_r10_the_limit_covers_the_whole_operation_from_the_start(
    clock: FakeClock, stalled: StalledFlush
) -> None:
    editor = FakeEditor("a", text="x")
    store = mounted(editor)
    pending = begin_capture(store, clock)
    clock.advance(0.5)  # time already spent since the send began counts against the bound
    waiter = BoundWaiter(clock)
    flushed = run_bounded_preparation(stalled, limit=pending.remaining(), wait=waiter)
    assert waiter.timeouts == [pytest.approx(FLUSH_LIMIT_SECONDS - 0.5)]
    assert flushed is False
    clock.advance(5)
    assert pending.remaining() == 0.0


def test_r12_a_stalled_flush_does_not_hold_the_caller_past_the_bound(
    stalled: StalledFlush,
) -> None:
    limit = 0.05
    began = time.monotonic()
    flushed = run_bounded_preparation(stalled, limit=limit, wait=wait_for_future)
    elapsed = time.monotonic() - began
    assert flushed is False
    assert stalled.started.is_set() and not stalled.finished.is_set()
    assert elapsed < limit + 1.0


def test_r12_a_flush_that_fails_counts_as_not_flushed(clock: FakeClock) -> None:
    def failing_flush() -> None:
        raise OSError("the save failed")

    result = capture_pointer(mounted(FakeEditor("a", text="x")), failing_flush, clock)
    assert result.pointer is not None and result.pointer.flushed is False
    assert result.header is not None


def test_r12_a_flush_in_time_counts_as_flushed(clock: FakeClock) -> None:
    result = capture_pointer(mounted(FakeEditor("a", text="x")), no_flush, clock)
    assert result.pointer is not None and result.pointer.flushed is True


def test_r12_stalled_flushes_do_not_queue_behind_each_other(clock: FakeClock) -> None:
    stuck = [StalledFlush() for _ in range(3)]
    try:
        for flush in stuck:
            run_bounded_preparation(flush, limit=0.0, wait=BoundWaiter(clock))
        # Every flush got its own thread at once, none waits for an earlier stuck one.
        for flush in stuck:
            assert flush.started.wait(5)
    finally:
        for flush in stuck:
            flush.release.set()
        for flush in stuck:
            assert flush.finished.wait(5)


# -- R11: the live editor after the flush ---------------------------------------


def test_r11_text_typed_during_the_flush_is_counted(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="# Note\nalpha")
    flush = during_flush(lambda: editor.type(" and more typed during the flush"))
    result = capture_pointer(mounted(editor), flush, clock)
    expected = "# Note\nalpha and more typed during the flush"
    assert result.pointer is not None
    assert result.pointer.bytes == len(expected.encode("utf-8"))
    assert result.pointer.sha256 == sha16(expected)


def test_r11_the_split_capture_reads_at_complete_not_at_begin(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="one", selection=Selection(anchor=0, head=0))
    store = mounted(editor)
    pending = begin_capture(store, clock)
    assert pending.needs_preparation
    editor.text = "one two"
    editor.selection = Selection(anchor=3, head=7)
    editor.view = "edit"
    clock.advance(0.2)
    result = pending.complete(True)
    assert result.pointer is not None
    assert result.pointer.sha256 == sha16("one two")
    assert result.pointer.selection == Selection(anchor=3, head=7)
    assert result.pointer.capturedAt == "2026-11-29T19:08:18.323Z"
    assert editor.text_reads == 1


def test_r11_a_view_change_during_the_flush_is_reported_not_discarded(
    clock: FakeClock,
) -> None:
    editor = FakeEditor("a", text="x", selection=Selection(anchor=0, head=1))

    def switch_view() -> None:
        editor.view = "mindmap"

    result = capture_pointer(mounted(editor), during_flush(switch_view), clock)
    assert result.dropped is None
    assert result.pointer is not None and result.pointer.view == "mindmap"
    assert result.pointer.selection is None


# -- R7, R13: discarded when things change in flight ----------------------------


def change_scenarios() -> list[tuple[str, Callable[[AmbientStore, FakeEditor, FakeEditor], None]]]:
    def boundary(store: AmbientStore, a: FakeEditor, b: FakeEditor) -> None:
        store.cross_workspace_boundary()

    def boundary_then_same_frames(store: AmbientStore, a: FakeEditor, b: FakeEditor) -> None:
        store.cross_workspace_boundary()
        store.publish(a)
        store.activate("a")

    def other_frame(store: AmbientStore, a: FakeEditor, b: FakeEditor) -> None:
        store.activate("b")

    def other_path(store: AmbientStore, a: FakeEditor, b: FakeEditor) -> None:
        a.path = "notes/elsewhere.md"
        store.runtime_changed("a")

    def unmounted(store: AmbientStore, a: FakeEditor, b: FakeEditor) -> None:
        store.withdraw("a")
        store.withdraw("b")

    def unmounted_falls_back(store: AmbientStore, a: FakeEditor, b: FakeEditor) -> None:
        store.withdraw("a")

    return [
        ("R7 workspace boundary", boundary),
        ("R7 boundary, even when the same frame comes back", boundary_then_same_frames),
        ("R13 another frame resolves", other_frame),
        ("R13 the frame shows another path", other_path),
        ("R13 the note unmounted", unmounted),
        ("R13 the note unmounted, another frame resolves", unmounted_falls_back),
    ]


@pytest.mark.parametrize(
    "change", [pytest.param(change, id=name) for name, change in change_scenarios()]
)
def test_r7_r13_a_change_during_the_flush_discards_the_capture(
    clock: FakeClock, change: Callable[[AmbientStore, FakeEditor, FakeEditor], None]
) -> None:
    a = FakeEditor("a", "notes/a.md", "alpha")
    b = FakeEditor("b", "notes/b.md", "beta")
    store = mounted(a, b)
    store.activate("a")
    result = capture_pointer(store, during_flush(lambda: change(store, a, b)), clock)
    assert result == CaptureResult(pointer=None, header=None, dropped="discarded")
    assert a.text_reads == 0 and b.text_reads == 0


@pytest.mark.parametrize(
    "change", [pytest.param(change, id=name) for name, change in change_scenarios()]
)
def test_r13_the_split_capture_is_stale_after_a_change(
    clock: FakeClock, change: Callable[[AmbientStore, FakeEditor, FakeEditor], None]
) -> None:
    a = FakeEditor("a", "notes/a.md", "alpha")
    b = FakeEditor("b", "notes/b.md", "beta")
    store = mounted(a, b)
    store.activate("a")
    pending = begin_capture(store, clock)
    assert not pending.is_stale()
    change(store, a, b)
    assert pending.is_stale()
    assert pending.complete(False).dropped == "discarded"


def test_r13_r5_activating_the_assistant_during_the_flush_keeps_the_capture(
    clock: FakeClock,
) -> None:
    a, b = FakeEditor("a", "notes/a.md", "alpha"), FakeEditor("b", "notes/b.md", "beta")
    store = mounted(a, b)
    store.activate("a")
    result = capture_pointer(store, during_flush(lambda: store.activate("assistant")), clock)
    assert result.dropped is None and result.pointer is not None
    assert result.pointer.frameId == "a"


def test_r13_a_frame_that_goes_back_to_its_note_is_not_discarded(clock: FakeClock) -> None:
    a = FakeEditor("a", "notes/a.md", "alpha")
    store = mounted(a)

    def away_and_back() -> None:
        a.path = "notes/b.md"
        store.runtime_changed("a")
        a.path = "notes/a.md"
        store.runtime_changed("a")

    result = capture_pointer(store, during_flush(away_and_back), clock)
    assert result.pointer is not None and result.pointer.path == "notes/a.md"


# -- R15: omit, never truncate ---------------------------------------------------


def test_r15_an_oversized_pointer_sends_no_header(clock: FakeClock) -> None:
    deep = "/".join(["長いフォルダ名のノート"] * 40) + "/今日.md"
    editor = FakeEditor("inbox-1", deep, "body", selection=Selection(anchor=0, head=4))
    result = capture_pointer(mounted(editor), no_flush, clock)
    assert result.dropped == "oversize"
    assert result.header is None and result.pointer is None and result.header_bytes == 0
    assert result.oversize_pointer is not None and result.oversize_pointer.path == deep
    assert result.dropped is not None
    assert describe_drop(result.dropped) == DROP_MESSAGES["oversize"]


def test_r15_a_path_too_long_for_any_pointer_is_oversize(clock: FakeClock) -> None:
    editor = FakeEditor("inbox-1", "n/" * 2500 + "x.md", "body")
    result = capture_pointer(mounted(editor), no_flush, clock)
    assert result.dropped == "oversize" and result.header is None


def test_r15_a_pointer_just_under_the_limit_is_sent_whole(clock: FakeClock) -> None:
    # Grow the path until the header no longer fits: the last one that fits is sent whole.
    last: CaptureResult | None = None
    base = "folder123/" * 200
    for length in range(1000, 1600):
        if base[length - 1] == "/":
            continue
        editor = FakeEditor("inbox-1", base[:length], "body")
        result = capture_pointer(mounted(editor), no_flush, clock)
        if result.header is None:
            assert result.dropped == "oversize"
            break
        last = result
    else:
        raise AssertionError("the path never outgrew the header")
    assert last is not None and last.header is not None
    assert MAX_HEADER_BYTES - 4 <= last.header_bytes <= MAX_HEADER_BYTES
    assert decode_header(last.header) == last.pointer


def test_a_path_the_pointer_refuses_is_dropped_not_raised(clock: FakeClock) -> None:
    editor = FakeEditor("a", "../outside.md", "body")
    result = capture_pointer(mounted(editor), no_flush, clock)
    assert result.dropped == "invalid" and result.header is None


def test_every_drop_reason_has_a_plain_message() -> None:
    assert set(DROP_MESSAGES) == set(DROP_REASONS)
    assert {"no-inbox", "oversize", "discarded", "excluded"} <= set(DROP_REASONS)
    for message in DROP_MESSAGES.values():
        assert message.endswith(".") and "_" not in message
