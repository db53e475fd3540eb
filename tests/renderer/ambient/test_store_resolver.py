"""Which note "this note" resolves to: the resolver table and the store's events (R1–R7)."""

from __future__ import annotations

import pytest
from psygnal import EmitLoopError

from bridge.views import View
from renderer.ambient import AmbientStore, Resolution
from tests.renderer.ambient.fakes import FakeEditor

# Each step is "mount FRAME [PATH]", "activate FRAME", "unmount FRAME", "republish FRAME"
# or "boundary". Frames that are never mounted (assistant, web) are other providers.
RESOLVER_TABLE: list[tuple[str, list[str], str | None]] = [
    ("R6 nothing mounted", [], None),
    ("R6 only providers activated", ["activate assistant", "activate web"], None),
    ("R6 the only Inbox frame unmounted", ["mount a", "activate a", "unmount a"], None),
    ("R3 one frame, never activated", ["mount a"], "a"),
    ("R3 one frame, only providers activated", ["mount a", "activate web"], "a"),
    ("R3 one frame activated before it mounted", ["activate a", "mount a"], "a"),
    ("R4 two never activated: latest mount", ["mount a", "mount b"], "b"),
    ("R4 the activated frame wins", ["mount a", "mount b", "activate a"], "a"),
    ("R4 latest activation wins", ["mount a", "mount b", "activate a", "activate b"], "b"),
    (
        "R4 activated ranks above a later, never-activated mount",
        ["mount a", "activate a", "mount b"],
        "a",
    ),
    (
        "R4 unmount of the most recent falls back to the next in order",
        ["mount a", "mount b", "mount c", "activate a", "activate c", "activate b", "unmount b"],
        "c",
    ),
    (
        "R4 fallback skips unmounted frames further down the order",
        [
            "mount a",
            "mount b",
            "mount c",
            "activate a",
            "activate b",
            "activate c",
            "unmount c",
            "unmount b",
        ],
        "a",
    ),
    (
        "R4 after the only activated frame unmounts, the latest mount wins",
        ["mount a", "mount b", "mount c", "activate a", "unmount a"],
        "c",
    ),
    (
        "R4 a remount under the same id starts as never activated",
        ["mount a", "mount b", "activate b", "activate a", "unmount a", "mount a"],
        "b",
    ),
    (
        "R4 republishing a handle is not a new mount",
        ["mount a", "mount b", "republish a"],
        "b",
    ),
    (
        "R4 the same note in two frames: the activated frame",
        ["mount a notes/x.md", "mount b notes/x.md", "activate b", "activate a"],
        "a",
    ),
    (
        "R4 the same note in two frames: the latest mount",
        ["mount a notes/x.md", "mount b notes/x.md"],
        "b",
    ),
    (
        "R5 the assistant between does not change the choice",
        ["mount a", "mount b", "activate a", "activate assistant"],
        "a",
    ),
    (
        "R5 providers between do not change the choice",
        ["mount a", "mount b", "activate b", "activate a", "activate web", "activate assistant"],
        "a",
    ),
    (
        "R5 the assistant activated before any Inbox frame",
        ["activate assistant", "mount a", "mount b", "activate a", "activate assistant"],
        "a",
    ),
    ("R7 a boundary clears everything", ["mount a", "activate a", "boundary"], None),
    (
        "R7 the boundary clears the activation history",
        ["mount a", "mount b", "activate a", "boundary", "mount a", "mount b"],
        "b",
    ),
    (
        "R7 activations after the boundary count again",
        ["mount a", "activate a", "boundary", "mount a", "mount b", "activate a"],
        "a",
    ),
]


def play(store: AmbientStore, steps: list[str]) -> dict[str, FakeEditor]:
    editors: dict[str, FakeEditor] = {}
    for step in steps:
        verb, frame, *rest = [*step.split(), ""]
        if verb == "mount":
            path = rest[0] if rest and rest[0] else f"notes/{frame}.md"
            editors[frame] = FakeEditor(frame, path)
            store.publish(editors[frame])
        elif verb == "republish":
            editors[frame] = FakeEditor(frame, editors[frame].path)
            store.publish(editors[frame])
        elif verb == "activate":
            store.activate(frame)
        elif verb == "unmount":
            store.withdraw(frame)
        elif verb == "boundary":
            store.cross_workspace_boundary()
        else:
            raise AssertionError(f"unknown step {step!r}")
    return editors


@pytest.mark.parametrize(
    ("steps", "expected"),
    [pytest.param(steps, expected, id=name) for name, steps, expected in RESOLVER_TABLE],
)
def test_r3_r4_r5_r6_r7_resolver_table(steps: list[str], expected: str | None) -> None:
    store = AmbientStore()
    editors = play(store, steps)
    runtime = store.resolve_runtime()
    assert (runtime.frame_id if runtime is not None else None) == expected
    if expected is not None:
        assert runtime is editors[expected]
        assert store.resolve() == Resolution(expected, editors[expected].path, "edit")
    else:
        assert store.resolve() is None


def test_r1_publish_and_resolution_never_read_the_text() -> None:
    store = AmbientStore()
    a, b = FakeEditor("a", text="alpha " * 1000), FakeEditor("b", text="beta")
    store.publish(a)
    store.publish(b)
    store.activate("a")
    store.resolve()
    store.withdraw("b")
    assert a.text_reads == 0 and b.text_reads == 0


def test_r1_publish_is_eager_and_unmount_removes() -> None:
    store = AmbientStore()
    store.publish(FakeEditor("a"))
    assert store.mounted_frame_ids == ("a",)
    store.withdraw("a")
    assert store.mounted_frame_ids == ()


def test_r2_activation_of_any_frame_is_recorded() -> None:
    store = AmbientStore()
    store.publish(FakeEditor("a"))
    store.activate("a")
    store.activate("assistant")
    assert store.last_activated_frame == "assistant"
    assert store.activation_history == ("a", "assistant")
    store.activate("a")
    assert store.activation_history == ("assistant", "a")


def test_r7_boundary_bumps_the_epoch_and_clears_history() -> None:
    store = AmbientStore()
    store.publish(FakeEditor("a"))
    store.activate("a")
    before = store.epoch
    store.cross_workspace_boundary()
    assert store.epoch == before + 1
    assert store.activation_history == ()
    assert store.last_activated_frame is None
    assert store.mounted_frame_ids == ()


def test_withdrawing_an_unknown_frame_is_harmless() -> None:
    store = AmbientStore()
    store.publish(FakeEditor("a"))
    store.activate("web")
    store.withdraw("web")
    store.withdraw("never")
    assert store.resolve_runtime() is not None
    assert store.activation_history == ("web",)


class Recorder:
    def __init__(self) -> None:
        self.seen: list[Resolution | None] = []

    def __call__(self, resolution: Resolution | None) -> None:
        self.seen.append(resolution)


def test_r3_r4_events_fire_when_the_resolved_frame_changes() -> None:
    store = AmbientStore()
    events = Recorder()
    store.resolution_changed.connect(events)
    store.publish(FakeEditor("a", "notes/a.md"))
    store.publish(FakeEditor("b", "notes/b.md"))
    store.activate("a")
    store.activate("a")  # no change, no event
    assert events.seen == [
        Resolution("a", "notes/a.md", "edit"),
        Resolution("b", "notes/b.md", "edit"),
        Resolution("a", "notes/a.md", "edit"),
    ]


def test_r5_provider_activation_sends_no_event() -> None:
    store = AmbientStore()
    store.publish(FakeEditor("a"))
    events = Recorder()
    store.resolution_changed.connect(events)
    store.activate("assistant")
    store.activate("web")
    assert events.seen == []


@pytest.mark.parametrize(("path", "view"), [("notes/other.md", "edit"), ("notes/a.md", "mindmap")])
def test_events_fire_when_the_resolved_frame_shows_another_path_or_view(
    path: str, view: View
) -> None:
    store = AmbientStore()
    editor = FakeEditor("a", "notes/a.md")
    store.publish(editor)
    events = Recorder()
    store.resolution_changed.connect(events)
    store.runtime_changed("a")  # nothing changed yet
    editor.path, editor.view = path, view
    store.runtime_changed("a")
    assert events.seen == [Resolution("a", path, view)]


def test_a_change_in_a_frame_that_does_not_resolve_sends_no_event() -> None:
    store = AmbientStore()
    a, b = FakeEditor("a"), FakeEditor("b")
    store.publish(a)
    store.publish(b)
    store.activate("b")
    events = Recorder()
    store.resolution_changed.connect(events)
    a.view = "todo"
    store.runtime_changed("a")
    assert events.seen == []


def test_r6_r7_events_report_no_note_after_unmount_and_boundary() -> None:
    store = AmbientStore()
    events = Recorder()
    store.resolution_changed.connect(events)
    store.publish(FakeEditor("a"))
    store.withdraw("a")
    store.publish(FakeEditor("b"))
    store.cross_workspace_boundary()
    assert events.seen == [
        Resolution("a", "notes/a.md", "edit"),
        None,
        Resolution("b", "notes/a.md", "edit"),
        None,
    ]


def test_unsubscribe_stops_events() -> None:
    store = AmbientStore()
    events = Recorder()
    store.resolution_changed.connect(events)
    store.resolution_changed.disconnect(events)
    store.resolution_changed.disconnect(events)  # twice is harmless
    store.publish(FakeEditor("a"))
    assert events.seen == []


def test_listeners_hear_each_event_in_the_order_they_connected() -> None:
    store = AmbientStore()
    heard: list[str] = []
    store.frame_activated.connect(lambda frame_id: heard.append(f"first {frame_id}"))
    store.resolution_changed.connect(lambda _resolution: heard.append("resolution"))
    store.frame_activated.connect(lambda frame_id: heard.append(f"second {frame_id}"))
    store.publish(FakeEditor("a"))
    store.activate("b")
    # The resolution is told before the activation: it changed first (R4).
    store.activate("a")
    assert heard == ["resolution", "first b", "second b", "first a", "second a"]


def test_a_listener_that_disconnects_another_during_an_emit_lets_it_hear_that_emit() -> None:
    store = AmbientStore()
    heard: list[str] = []
    later = Recorder()

    def stop_the_later_one(resolution: Resolution | None) -> None:
        heard.append("first")
        store.resolution_changed.disconnect(later)

    store.resolution_changed.connect(stop_the_later_one)
    store.resolution_changed.connect(later)
    store.publish(FakeEditor("a"))
    store.publish(FakeEditor("b"))
    assert heard == ["first", "first"]
    assert later.seen == [Resolution("a", "notes/a.md", "edit")]


def test_a_listener_that_raises_stops_the_emit_and_the_error_reaches_the_caller() -> None:
    store = AmbientStore()
    later = Recorder()

    def broken(_resolution: Resolution | None) -> None:
        raise RuntimeError("a broken listener")

    store.resolution_changed.connect(broken)
    store.resolution_changed.connect(later)
    with pytest.raises(EmitLoopError) as raised:
        store.publish(FakeEditor("a"))
    assert isinstance(raised.value.__cause__, RuntimeError)
    assert later.seen == []
    # The store itself moved on: the frame is mounted and resolves.
    assert store.resolve() == Resolution("a", "notes/a.md", "edit")
