"""The per-send capture the app runs: afresh, bounded preparation, live read, discard (R8–R15).

Every test drives :func:`renderer.ambient.prepare_send`, the path the assistant
frame runs, with a fake clock, fake timers and a flush the test ends itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from bridge.contract import FLUSH_LIMIT_SECONDS, MAX_HEADER_BYTES
from bridge.drops import DROP_MESSAGES, DROP_REASONS, describe_drop
from bridge.pointer import Selection, decode_header
from renderer.ambient import AmbientStore, CaptureResult
from tests.renderer.ambient.fakes import FakeClock, FakeEditor, Send, send_flushed


def sha16(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def mounted(*editors: FakeEditor) -> AmbientStore:
    store = AmbientStore()
    for editor in editors:
        store.publish(editor)
    return store


# -- R8: what the pointer holds ---------------------------------------------


def test_r8_pointer_holds_the_metadata_of_the_live_note(clock: FakeClock) -> None:
    text = "# Today\nこのノート ✓\n"
    editor = FakeEditor("inbox-1", "inbox/today.md", text, "edit", Selection(anchor=2, head=7))
    result = send_flushed(mounted(editor), clock)
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
    result = send_flushed(mounted(editor), clock)
    assert result.pointer is not None
    assert result.pointer.view == view
    assert result.pointer.selection is None
    assert "selection" not in result.pointer.to_json()


def test_r8_selection_in_utf16_code_units_is_carried_as_the_editor_gives_it(
    clock: FakeClock,
) -> None:
    # "😀" is two UTF-16 code units: a selection after it starts at 2.
    editor = FakeEditor("f", text="😀ab", selection=Selection(anchor=2, head=4))
    result = send_flushed(mounted(editor), clock)
    assert result.pointer is not None and result.pointer.selection == Selection(anchor=2, head=4)
    assert result.pointer.bytes == 6


# -- R9: afresh for every send ------------------------------------------------


def test_r9_each_send_resolves_afresh(clock: FakeClock) -> None:
    a, b = FakeEditor("a", "notes/a.md", "A"), FakeEditor("b", "notes/b.md", "B")
    store = mounted(a, b)
    store.activate("a")
    first = send_flushed(store, clock)
    store.activate("b")
    second = send_flushed(store, clock)
    a.text = "A changed"
    store.activate("a")
    third = send_flushed(store, clock)
    assert first.pointer is not None and second.pointer is not None and third.pointer is not None
    assert (first.pointer.frameId, second.pointer.frameId) == ("a", "b")
    assert third.pointer.sha256 == sha16("A changed") != first.pointer.sha256


def test_r6_no_inbox_runtime_means_no_pointer_and_no_flush(clock: FakeClock) -> None:
    send = Send(AmbientStore(), clock)
    assert send.capture == CaptureResult(pointer=None, header=None, dropped="no-inbox")
    assert send.prepared.flushed is None and send.prepared.seconds == 0.0
    assert send.flush.starts == 0 and send.timers.requested == []


def test_excluded_send_reads_nothing_and_does_not_flush(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="secret")
    send = Send(mounted(editor), clock, include=False)
    assert send.capture.dropped == "excluded"
    assert send.capture.header is None and send.capture.pointer is None
    assert send.flush.starts == 0 and editor.text_reads == 0


# -- R10, R12: the bounded preparation ----------------------------------------


def test_r10_the_flush_runs_before_the_editor_is_read(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="x")
    send = Send(mounted(editor), clock, during=lambda: editor.events.append("flushing"))
    assert send.results == [] and editor.text_reads == 0  # nothing read while saves run
    editor.events.append("flushed")
    send.flush.finish(True)
    assert editor.events == ["flushing", "flushed", "read_text"]
    assert send.capture.pointer is not None and send.capture.pointer.flushed is True


def test_r10_r12_a_stalled_flush_is_cut_off_at_1_5_s_and_sent_unflushed(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="before")
    started = clock.monotonic()
    send = Send(mounted(editor), clock)
    assert send.timers.requested == [FLUSH_LIMIT_SECONDS]
    send.timers.advance(FLUSH_LIMIT_SECONDS - 0.001)
    assert send.results == [] and editor.text_reads == 0
    send.timers.advance(0.001)
    # R12: the pointer is still sent, marked not flushed, while the flush is still stuck.
    assert clock.monotonic() - started == pytest.approx(FLUSH_LIMIT_SECONDS)
    assert send.prepared.seconds == pytest.approx(FLUSH_LIMIT_SECONDS)
    assert send.prepared.flushed is False and send.prepared.timed_out is True
    assert send.capture.pointer is not None and send.capture.header is not None
    assert send.capture.pointer.flushed is False
    send.flush.finish(True)  # the save lands later: the send was already reported, once
    assert len(send.results) == 1 and send.timers.pending == 0


def test_r10_a_flush_that_ends_in_time_stops_the_timer(clock: FakeClock) -> None:
    send = Send(mounted(FakeEditor("a", text="x")), clock)
    send.timers.advance(FLUSH_LIMIT_SECONDS - 0.1)
    send.flush.finish(True)
    assert send.prepared.flushed is True and send.prepared.seconds == pytest.approx(
        FLUSH_LIMIT_SECONDS - 0.1
    )
    assert send.prepared.timed_out is False
    assert send.timers.pending == 0
    send.timers.advance(5)
    assert len(send.results) == 1


def test_r10_the_bound_covers_the_whole_operation_from_the_start(clock: FakeClock) -> None:
    # The load of the note and the flush share one 1.5 s bound, counted from the send.
    editor = FakeEditor("a", text="", loaded=False)
    store = mounted(editor)
    send = Send(store, clock)
    send.timers.advance(FLUSH_LIMIT_SECONDS - 0.5)
    send.flush.finish(True)  # the saves landed before the bound; the note is still loading
    assert send.results == []
    send.timers.advance(0.5)
    assert send.capture.dropped == "loading"
    assert send.prepared.seconds == pytest.approx(FLUSH_LIMIT_SECONDS)


def test_r12_a_flush_that_fails_counts_as_not_flushed(clock: FakeClock) -> None:
    result = send_flushed(mounted(FakeEditor("a", text="x")), clock, ok=False)
    assert result.pointer is not None and result.pointer.flushed is False
    assert result.header is not None


def test_a_failed_flush_is_not_a_timed_out_one(clock: FakeClock) -> None:
    send = Send(mounted(FakeEditor("a", text="x")), clock)
    send.flush.finish(False)  # the save failed at once: not "still saving after 1.5 s"
    assert send.prepared.flushed is False and send.prepared.timed_out is False


def test_r12_a_flush_in_time_counts_as_flushed(clock: FakeClock) -> None:
    result = send_flushed(mounted(FakeEditor("a", text="x")), clock)
    assert result.pointer is not None and result.pointer.flushed is True


def test_a_cancelled_preparation_reports_nothing(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="x")
    send = Send(mounted(editor), clock)
    send.preparation.cancel()
    assert send.timers.pending == 0
    send.flush.finish(True)
    send.timers.advance(5)
    assert send.results == [] and editor.text_reads == 0


# -- R11: the live editor after the flush ---------------------------------------


def test_r11_text_typed_during_the_flush_is_counted(clock: FakeClock) -> None:
    editor = FakeEditor("a", text="# Note\nalpha")
    result = send_flushed(
        mounted(editor), clock, during=lambda: editor.type(" and more typed during the flush")
    )
    expected = "# Note\nalpha and more typed during the flush"
    assert result.pointer is not None
    assert result.pointer.bytes == len(expected.encode("utf-8"))
    assert result.pointer.sha256 == sha16(expected)


def test_r11_the_editor_is_read_when_the_preparation_ends_not_when_it_begins(
    clock: FakeClock,
) -> None:
    editor = FakeEditor("a", text="one", selection=Selection(anchor=0, head=0))
    send = Send(mounted(editor), clock)
    editor.text = "one two"
    editor.selection = Selection(anchor=3, head=7)
    send.timers.advance(0.2)
    send.flush.finish(True)
    result = send.capture
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

    result = send_flushed(mounted(editor), clock, during=switch_view)
    assert result.dropped is None
    assert result.pointer is not None and result.pointer.view == "mindmap"
    assert result.pointer.selection is None


# -- Loading: a note that has not loaded is never read --------------------------


def load(store: AmbientStore, editor: FakeEditor, text: str) -> None:
    """The note's text arrives in the editor, as the Inbox frame's load does."""
    editor.text = text
    editor.loaded = True
    store.runtime_loaded(editor.frame_id)


def test_mount_then_send_waits_for_the_load_and_points_at_the_loaded_text(
    clock: FakeClock,
) -> None:
    editor = FakeEditor("inbox-1", "notes/a.md", "", loaded=False)
    store = mounted(editor)
    send = Send(store, clock)
    send.flush.finish(True)  # nothing to save: the flush ends first
    assert send.results == [] and editor.text_reads == 0
    send.timers.advance(0.3)
    load(store, editor, "# A\nalpha\n")
    pointer = send.capture.pointer
    assert pointer is not None and pointer.path == "notes/a.md"
    assert (pointer.bytes, pointer.sha256, pointer.flushed) == (10, sha16("# A\nalpha\n"), True)
    assert send.prepared.seconds == pytest.approx(0.3)
    assert send.timers.pending == 0


def test_mount_then_send_with_no_load_in_1_5_s_drops_the_context_as_loading(
    clock: FakeClock,
) -> None:
    editor = FakeEditor("inbox-1", "notes/a.md", "", loaded=False)
    store = mounted(editor)
    send = Send(store, clock)
    send.flush.finish(True)
    send.timers.advance(FLUSH_LIMIT_SECONDS)
    assert send.capture == CaptureResult(pointer=None, header=None, dropped="loading")
    assert editor.text_reads == 0  # never bytes 0 and the empty hash
    load(store, editor, "late")
    assert len(send.results) == 1


def test_open_then_send_never_carries_the_old_notes_bytes_under_the_new_path(
    clock: FakeClock,
) -> None:
    editor = FakeEditor("inbox-1", "notes/a.md", "# A\nalpha\n")
    store = mounted(editor)
    # open_path: the frame shows b.md at once, while a.md's text is still in the editor.
    editor.path, editor.loaded = "notes/b.md", False
    store.runtime_changed("inbox-1")
    send = Send(store, clock)
    send.flush.finish(True)
    assert send.results == [] and editor.text_reads == 0
    load(store, editor, "# B\nbeta\n")
    pointer = send.capture.pointer
    assert pointer is not None and pointer.path == "notes/b.md"
    assert (pointer.bytes, pointer.sha256) == (9, sha16("# B\nbeta\n"))


def test_a_load_before_the_flush_ends_still_waits_for_the_flush(clock: FakeClock) -> None:
    editor = FakeEditor("inbox-1", "notes/a.md", "", loaded=False)
    store = mounted(editor)
    send = Send(store, clock)
    load(store, editor, "alpha")
    assert send.results == []
    send.flush.finish(True)
    assert send.capture.pointer is not None and send.capture.pointer.bytes == 5


def test_another_frame_loading_does_not_end_the_wait(clock: FakeClock) -> None:
    waiting = FakeEditor("inbox-1", "notes/a.md", "", loaded=False)
    other = FakeEditor("inbox-2", "notes/b.md", "", loaded=False)
    store = mounted(other, waiting)
    store.activate("inbox-1")
    send = Send(store, clock)
    send.flush.finish(True)
    load(store, other, "beta")
    assert send.results == []
    send.timers.advance(FLUSH_LIMIT_SECONDS)
    assert send.capture.dropped == "loading" and waiting.text_reads == 0


def test_r13_a_switch_while_waiting_for_the_load_discards_without_reading(
    clock: FakeClock,
) -> None:
    waiting = FakeEditor("inbox-1", "notes/a.md", "", loaded=False)
    other = FakeEditor("inbox-2", "notes/b.md", "beta")
    store = mounted(other, waiting)
    store.activate("inbox-1")
    send = Send(store, clock)
    send.flush.finish(True)
    store.activate("inbox-2")  # the user moved on before a.md arrived
    load(store, waiting, "alpha")
    assert send.capture.dropped == "discarded"
    assert waiting.text_reads == 0 and other.text_reads == 0


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
    result = send_flushed(store, clock, during=lambda: change(store, a, b))
    assert result == CaptureResult(pointer=None, header=None, dropped="discarded")
    assert a.text_reads == 0 and b.text_reads == 0


@pytest.mark.parametrize(
    "change", [pytest.param(change, id=name) for name, change in change_scenarios()]
)
def test_r12_r13_a_change_while_a_stalled_flush_runs_discards_at_the_bound(
    clock: FakeClock, change: Callable[[AmbientStore, FakeEditor, FakeEditor], None]
) -> None:
    a = FakeEditor("a", "notes/a.md", "alpha")
    b = FakeEditor("b", "notes/b.md", "beta")
    store = mounted(a, b)
    store.activate("a")
    send = Send(store, clock)
    send.timers.advance(0.7)
    change(store, a, b)
    send.timers.advance(0.8)
    assert send.capture.dropped == "discarded" and send.prepared.flushed is False
    assert a.text_reads == 0 and b.text_reads == 0


def test_r13_r5_activating_the_assistant_during_the_flush_keeps_the_capture(
    clock: FakeClock,
) -> None:
    a, b = FakeEditor("a", "notes/a.md", "alpha"), FakeEditor("b", "notes/b.md", "beta")
    store = mounted(a, b)
    store.activate("a")
    result = send_flushed(store, clock, during=lambda: store.activate("assistant"))
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

    result = send_flushed(store, clock, during=away_and_back)
    assert result.pointer is not None and result.pointer.path == "notes/a.md"


# -- R15: omit, never truncate ---------------------------------------------------


def test_r15_an_oversized_pointer_sends_no_header(clock: FakeClock) -> None:
    deep = "/".join(["長いフォルダ名のノート"] * 40) + "/今日.md"
    editor = FakeEditor("inbox-1", deep, "body", selection=Selection(anchor=0, head=4))
    result = send_flushed(mounted(editor), clock)
    assert result.dropped == "oversize"
    assert result.header is None and result.pointer is None and result.header_bytes == 0
    assert result.oversize_pointer is not None and result.oversize_pointer.path == deep
    assert result.dropped is not None
    assert describe_drop(result.dropped) == DROP_MESSAGES["oversize"]


def test_r15_a_path_too_long_for_any_pointer_is_oversize(clock: FakeClock) -> None:
    editor = FakeEditor("inbox-1", "n/" * 2500 + "x.md", "body")
    result = send_flushed(mounted(editor), clock)
    assert result.dropped == "oversize" and result.header is None


def test_r15_a_pointer_just_under_the_limit_is_sent_whole(clock: FakeClock) -> None:
    # Grow the path until the header no longer fits: the last one that fits is sent whole.
    last: CaptureResult | None = None
    base = "folder123/" * 200
    for length in range(1000, 1600):
        if base[length - 1] == "/":
            continue
        editor = FakeEditor("inbox-1", base[:length], "body")
        result = send_flushed(mounted(editor), clock)
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
    result = send_flushed(mounted(editor), clock)
    assert result.dropped == "invalid" and result.header is None


def test_every_drop_reason_has_a_plain_message() -> None:
    assert set(DROP_MESSAGES) == set(DROP_REASONS)
    assert {"no-inbox", "oversize", "discarded", "excluded"} <= set(DROP_REASONS)
    for message in DROP_MESSAGES.values():
        assert message.endswith(".") and "_" not in message
