"""What a user does in the window is recorded as a scenario that replays to the same pointers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.scenario.model import load_scenario
from app.scenario.recorder import ScenarioRecorder, snapshot_documents
from app.scenario.runner import run_scenario
from app.window.main_window import MainWindow
from bridge.pointer import AmbientPointer, decode_header
from renderer.ambient.turns import TurnRecord
from renderer.frames.inbox.frame import InboxFrame
from tests.app.conftest import AppFactory

DOCUMENTS = {
    "notes/a.md": "# A\nalpha 🙂\n",
    "notes/b.md": "# B\nbeta\n- [ ] one\n",
    "notes/c.md": "# C\ngamma\n",
}


@pytest.fixture
def recording(make_app: AppFactory) -> Iterator[tuple[MainWindow, ScenarioRecorder]]:
    app = make_app(DOCUMENTS, demo_layout=False)
    window = app.window
    documents = snapshot_documents(app.workspace_dir)
    recorder = ScenarioRecorder(window, documents=documents, name="recorded")
    try:
        yield window, recorder
    finally:
        recorder.detach()


def mount(qtbot: QtBot, window: MainWindow, frame_id: str, path: str) -> InboxFrame:
    frame = window.driver.mount_inbox(frame_id, path)
    qtbot.waitUntil(lambda: frame.is_loaded)
    return frame


def send(qtbot: QtBot, window: MainWindow, message: str, **options: Any) -> TurnRecord:
    with qtbot.waitSignal(window.assistant.turn_finished, timeout=30_000) as finished:
        window.assistant.send(message, **options)
    record = finished.args[0] if finished.args else None
    assert isinstance(record, TurnRecord)
    return record


def comparable(header: str | None) -> dict[str, Any] | None:
    if header is None:
        return None
    pointer = decode_header(header)
    assert isinstance(pointer, AmbientPointer)
    return pointer.model_dump(exclude={"capturedAt"})


def test_r2_r4_r8_r29_recorded_actions_replay_to_identical_pointers(
    qtbot: QtBot, recording: tuple[MainWindow, ScenarioRecorder], tmp_path: Path
) -> None:
    window, recorder = recording
    first = mount(qtbot, window, "inbox-1", "notes/a.md")
    second = mount(qtbot, window, "inbox-2", "notes/b.md")
    window.driver.mount_provider("calendar", "calendar")
    records: list[TurnRecord] = []

    # A real click activates a frame through the window's one activation path (R2).
    QTest.mouseClick(window.driver.frame("calendar").activation_target(), Qt.MouseButton.LeftButton)
    window.driver.activate_frame("inbox-1")
    first.type_text(" more", at="end")
    first.type_text("!", at=0)
    first.select(2, 6)
    window.driver.activate_frame("assistant")
    records.append(send(qtbot, window, "summarise this"))

    window.driver.activate_frame("inbox-2")
    second.set_view("todo")
    records.append(send(qtbot, window, "summarise this"))

    second.open_path("notes/c.md")
    qtbot.waitUntil(lambda: second.is_loaded)
    second.set_view("edit")
    records.append(send(qtbot, window, "what does this note say?"))
    records.append(send(qtbot, window, "summarise this", include_ambient=False))

    window.driver.activate_frame("inbox-1")
    first.pop_out()
    qtbot.waitUntil(lambda: "inbox-1" not in window.frames)
    records.append(send(qtbot, window, "summarise this"))
    window.driver.close_frame("calendar")
    window.driver.switch_workspace("elsewhere")
    qtbot.waitUntil(lambda: not window.is_switching_workspace)
    records.append(send(qtbot, window, "summarise this"))

    target = tmp_path / "recorded.yaml"
    count = recorder.write(target)
    steps = yaml.safe_load(target.read_text(encoding="utf-8"))["steps"]
    assert count == len(steps)
    verbs = [next(iter(step)) for step in steps]
    for verb in ("mount", "activate", "type", "select", "view", "open", "popout", "unmount"):
        assert verb in verbs, verb
    assert verbs.count("send") == len(records) == verbs.count("expect")
    assert {"switch-workspace": "elsewhere"} in steps
    assert {"activate": "calendar"} in steps
    assert {"unmount": "calendar"} in steps
    assert {"unmount": "inbox-1"} not in steps  # it was popped out, not closed

    replay = run_scenario(load_scenario(target))
    failures = [step.failure_text() for step in replay.steps if step.status != "passed"]
    assert not failures, failures
    recorded_pointers = [comparable(record.capture.header) for record in records]
    replayed_pointers = [
        None if sent.pointer is None else {**sent.pointer, "capturedAt": None}
        for sent in replay.sends
    ]
    for pointer in replayed_pointers:
        if pointer is not None:
            pointer.pop("capturedAt")
            pointer.setdefault("selection", None)
    assert replayed_pointers == recorded_pointers
    assert recorded_pointers[0] is not None and recorded_pointers[0]["frameId"] == "inbox-1"
    assert recorded_pointers[3] is None and recorded_pointers[5] is None


def test_typing_during_a_flush_is_recorded_under_the_send(
    qtbot: QtBot, recording: tuple[MainWindow, ScenarioRecorder]
) -> None:
    window, recorder = recording
    frame = mount(qtbot, window, "inbox-1", "notes/a.md")
    window.assistant.flush_started.connect(lambda: frame.type_text("zz"))
    send(qtbot, window, "summarise this")
    steps = recorder.scenario_data()["steps"]
    (send_step,) = [step["send"] for step in steps if "send" in step]
    assert send_step["duringFlush"] == [{"type": {"frame": "inbox-1", "text": "zz", "at": 13}}]


def test_declared_commands_are_recorded_by_their_ids_and_replay(
    qtbot: QtBot, recording: tuple[MainWindow, ScenarioRecorder]
) -> None:
    window, recorder = recording
    mount(qtbot, window, "inbox-1", "notes/a.md")
    second = mount(qtbot, window, "inbox-2", "notes/b.md")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.mouseClick(second.editor.viewport(), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.store.last_activated_frame == "inbox-2")
    modifiers = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    QTest.keyClick(second.editor, Qt.Key.Key_Up, modifiers)  # Frames ▸ Move frame up
    QTest.keyClick(second.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    steps = recorder.scenario_data()["steps"]
    assert {"command": "frames.move-up"} in steps
    assert steps[-1] == {"command": "file.save"}
    assert window.driver.note_frames_in_order() == [second, window.driver.frame("inbox-1")]


def test_a_deletion_is_reported_as_not_recorded(
    qtbot: QtBot, recording: tuple[MainWindow, ScenarioRecorder]
) -> None:
    window, recorder = recording
    frame = mount(qtbot, window, "inbox-1", "notes/a.md")
    frame.select(0, 2)
    frame.editor.textCursor().removeSelectedText()
    assert recorder.unrecorded == ["a deletion of 2 characters in inbox-1"]
    assert "Not replayed" in recorder.scenario_data()["description"]


def test_record_command_writes_what_was_done_in_the_window(
    qapp: QApplication, tmp_path: Path
) -> None:
    from PySide6.QtCore import QTimer

    from app.scenario.recorder import record_interactively

    workspace = tmp_path / "notes"
    (workspace / "inbox").mkdir(parents=True)
    (workspace / "inbox" / "today.md").write_text("# Today\n", encoding="utf-8")
    target = tmp_path / "out" / "session.yaml"
    done: list[str] = []

    def act() -> None:
        # The recording's window: the one shown (an earlier test's closed window may
        # still wait for its deletion).
        window = next(
            w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
        )
        frame = window.driver.mount_inbox("inbox-1", "inbox/today.md")

        def after_load() -> None:
            window.driver.activate_frame("inbox-1")
            frame.type_text("typed")
            window.close()
            done.append("closed")

        if frame.is_loaded:
            after_load()
        else:
            frame.loaded.connect(after_load)

    QTimer.singleShot(0, act)
    count = record_interactively(target, name="session", workspace=workspace)
    assert done == ["closed"]
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    assert data["workspace"] == {"inbox/today.md": "# Today\n"}
    assert count == len(data["steps"])
    assert {"mount": {"frame": "inbox-1", "path": "inbox/today.md", "view": "edit"}} in data[
        "steps"
    ]
    assert {"activate": "inbox-1"} in data["steps"]
    assert {"type": {"frame": "inbox-1", "text": "typed", "at": 8}} in data["steps"]
    load_scenario(target)  # what was written is a valid scenario
