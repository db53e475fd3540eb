"""A replay acts as a person does (R88): the same clicks and keys, so Qt's focus does the same.

A live session is driven with QTest input only (a click on a frame's title, keys into
the focused editor, the frame's own ✕ and ↗ buttons) and recorded; its recording and the
same steps written by hand are replayed, and every send carries the same pointer. The
close is the case that tells: Qt moves the keyboard focus from the closed editor to the
next one, which activates that frame, live and in the replay alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.scenario.model import load_scenario
from app.scenario.recorder import ScenarioRecorder, snapshot_documents
from app.scenario.runner import run_scenario
from app.window.main_window import MainWindow
from bridge.pointer import AmbientPointer, decode_header
from renderer.ambient.turns import TurnRecord
from renderer.frames.inbox.frame import InboxFrame
from tests.app.conftest import AppFactory

NOTES = {
    "notes/launch-plan.md": "# Launch plan\nShip on Monday.\n",
    "notes/reading-list.md": "# Reading list\n- [ ] The Overstory\n",
    "notes/today.md": "# Today\nCall the printer.\n",
    "notes/untouched.md": "# Never opened\n",
}
FRAMES = (
    ("inbox-1", "notes/launch-plan.md"),
    ("inbox-2", "notes/reading-list.md"),
    ("inbox-3", "notes/today.md"),
)

# The same session as steps: what the live test below does with QTest.
STEPS: list[dict[str, Any]] = [
    *({"mount": {"frame": frame_id, "path": path}} for frame_id, path in FRAMES),
    {"activate": "inbox-2"},
    {"type": {"frame": "inbox-2", "text": "- [ ] Dune\n"}},
    {"activate": "inbox-3"},
    {"activate": "inbox-1"},
    {"type": {"frame": "inbox-1", "text": " Go!"}},
    {"unmount": "inbox-1"},
    {"send": "summarise this"},
    {"activate": "inbox-3"},
    {"popout": "inbox-3"},
    {"send": "summarise this"},
]


@pytest.fixture
def live(make_app: AppFactory) -> Iterator[tuple[MainWindow, ScenarioRecorder]]:
    app = make_app(NOTES, demo_layout=False)
    recorder = ScenarioRecorder(
        app.window, documents=snapshot_documents(app.workspace_dir), name="live"
    )
    try:
        yield app.window, recorder
    finally:
        recorder.detach()


def _front(qtbot: QtBot, widget: QWidget) -> None:
    window = widget.window()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def _click(qtbot: QtBot, widget: QWidget) -> None:
    _front(qtbot, widget)
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)


def _type(qtbot: QtBot, frame: InboxFrame, text: str) -> None:
    """Click into the editor, Ctrl+End, then the keys, as a person types at the end."""
    _click(qtbot, frame.editor.viewport())
    QTest.keyClick(frame.editor, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    for character in text:
        if character == "\n":
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
        else:
            QTest.keyClicks(QApplication.focusWidget(), character)


def _send(qtbot: QtBot, window: MainWindow, message: str) -> TurnRecord:
    with qtbot.waitSignal(window.assistant.turn_finished, timeout=30_000) as finished:
        window.assistant.send(message)
    record = finished.args[0]
    assert isinstance(record, TurnRecord)
    return record


def _pointer(header: str | None) -> dict[str, Any] | None:
    if header is None:
        return None
    pointer = decode_header(header)
    assert isinstance(pointer, AmbientPointer)
    return pointer.model_dump(exclude={"capturedAt", "sha256", "bytes"})


def _replayed(file: Path) -> list[dict[str, Any] | None]:
    result = run_scenario(load_scenario(file))
    failures = [step.failure_text() for step in result.steps if step.status == "failed"]
    assert not failures, failures
    pointers: list[dict[str, Any] | None] = []
    for sent in result.sends:
        if sent.pointer is None:
            pointers.append(None)
            continue
        pointer = {
            key: value
            for key, value in sent.pointer.items()
            if key not in ("capturedAt", "sha256", "bytes")
        }
        pointer.setdefault("selection", None)
        pointers.append(pointer)
    return pointers


def test_r88_a_live_session_and_its_replay_carry_the_same_pointers_through_close_and_popout(
    qtbot: QtBot, live: tuple[MainWindow, ScenarioRecorder], tmp_path: Path
) -> None:
    window, recorder = live
    frames: dict[str, InboxFrame] = {}
    for frame_id, path in FRAMES:
        frames[frame_id] = window.driver.mount_inbox(frame_id, path)
        qtbot.waitUntil(lambda frame=frames[frame_id]: frame.is_loaded)

    _click(qtbot, frames["inbox-2"].title_bar.title)
    _type(qtbot, frames["inbox-2"], "- [ ] Dune\n")
    _click(qtbot, frames["inbox-3"].title_bar.title)
    _click(qtbot, frames["inbox-1"].title_bar.title)
    _type(qtbot, frames["inbox-1"], " Go!")
    close = frames["inbox-1"].close_button
    assert close is not None
    _click(qtbot, close)
    qtbot.waitUntil(lambda: "inbox-1" not in window.frames)
    # R81: the keys and "this note" go back to the note used before the closed one
    # (inbox-3), not to the editor Qt would focus next (inbox-2).
    after_close = _send(qtbot, window, "summarise this")
    _click(qtbot, frames["inbox-3"].title_bar.title)
    _click(qtbot, frames["inbox-3"].popout_button)
    qtbot.waitUntil(lambda: "inbox-3" not in window.frames)
    after_popout = _send(qtbot, window, "summarise this")
    live_pointers = [_pointer(after_close.capture.header), _pointer(after_popout.capture.header)]
    assert live_pointers[0] is not None and live_pointers[0]["frameId"] == "inbox-3"

    recorded = tmp_path / "recorded.yaml"
    recorder.write(recorded)
    data = yaml.safe_load(recorded.read_text(encoding="utf-8"))
    steps = data["steps"]
    at_close = steps.index({"unmount": "inbox-1"})
    # The activation Qt's focus made after the close is the replay's to bring about again.
    assert "send" in steps[at_close + 1], steps
    assert {"popout": "inbox-3"} in steps
    expects = [step["expect"] for step in steps if "expect" in step]
    assert all(
        "sha256" not in expect["pointer"] and "bytes" not in expect["pointer"]
        for expect in expects
        if expect.get("pointer")
    )
    assert "notes/untouched.md" not in data["workspace"]
    assert _replayed(recorded) == live_pointers

    written = tmp_path / "written.yaml"
    scenario = {"name": "the same steps by hand", "workspace": NOTES, "steps": STEPS}
    written.write_text(yaml.safe_dump(scenario, allow_unicode=True), encoding="utf-8")
    assert _replayed(written) == live_pointers
