"""R45: each workspace keeps its frames, views, active frame and conversation; restarts restore."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.window.main_window import MainWindow
from app.workspace.layout_state import LAYOUT_FILE
from tests.app.conftest import LOAD_TIMEOUT_MS, AppFactory


def _layout(window: MainWindow) -> list[tuple[str, str, str]]:
    return [
        (frame.frame_id, frame.path, frame.view) for frame in window.driver.note_frames_in_order()
    ]


def test_switching_away_and_back_reopens_the_frames_views_active_frame_and_chat_R45(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    app.mount_two()
    window.driver.frame("inbox-2").set_view("mindmap")  # type: ignore[attr-defined]
    window.driver.activate_frame("inbox-2")
    demo_assistant = window.assistant
    demo_conversation = demo_assistant.conversation
    app.send("summarise this")

    app.switch_workspace("personal")
    assert window.driver.inbox_frames() == []
    assert window.assistant is not demo_assistant  # the chat shown belongs to "personal"
    assert window.assistant.records == [] and not demo_assistant.isVisible()
    shown = [banner.label.text() for banner in window.banners.banners]
    assert sum("has no" in text for text in shown) == 1

    app.switch_workspace(app.workspace_dir.name)
    app.qtbot.waitUntil(lambda: all(frame.is_loaded for frame in window.driver.inbox_frames()))
    assert _layout(window) == [
        ("inbox-1", "notes/a.md", "edit"),
        ("inbox-2", "notes/b.md", "mindmap"),
    ]
    assert window.store.last_activated_frame == "inbox-2"
    assert window.assistant is demo_assistant and len(demo_assistant.records) == 1
    assert window.assistant.conversation == demo_conversation
    # Banners replace, they do not stack: the "personal has no …" message is gone.
    assert not any("has no" in banner.label.text() for banner in window.banners.banners)


def test_quitting_and_starting_again_restores_the_last_session_R45(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    app.mount_two()
    window.driver.frame("inbox-1").set_view("todo")  # type: ignore[attr-defined]
    window.driver.activate_frame("inbox-2")
    conversation = window.assistant.conversation
    workspace_dir = app.workspace_dir
    app.quit()
    saved = json.loads((app.data_dir / LAYOUT_FILE).read_text(encoding="utf-8"))
    assert saved["workspace"] == workspace_dir.name

    again = make_app(restart=app).window
    for frame in again.driver.inbox_frames():
        if not frame.is_loaded:
            with app.qtbot.waitSignal(frame.loaded, timeout=LOAD_TIMEOUT_MS):
                pass
    assert _layout(again) == [
        ("inbox-1", "notes/a.md", "todo"),
        ("inbox-2", "notes/b.md", "edit"),
    ]
    assert again.store.last_activated_frame == "inbox-2"
    assert again.assistant.conversation == conversation


def test_a_broken_state_file_is_set_aside_with_a_plain_message_R45(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.quit()
    state = app.data_dir / LAYOUT_FILE
    state.write_text('{"version": 1, "workspaces": {"x": {"notes": [{"path"', encoding="utf-8")
    window = make_app(restart=app).window
    texts = [banner.label.text() for banner in window.banners.banners]
    assert any("could not be used" in text and "set aside" in text for text in texts)
    assert not any("Traceback" in text for text in texts)
    aside = list(app.data_dir.glob("layout.json.broken-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8").startswith('{"version"')
    assert window.driver.inbox_frames() == []


@pytest.mark.slow
def test_python_m_app_starts_in_the_workspace_it_was_quit_in_R45(tmp_path: Path) -> None:
    state = {
        "version": 1,
        "workspace": "personal",
        "workspaces": {
            "personal": {
                "notes": [{"id": "inbox-7", "path": "diary.md", "view": "preview"}],
                "providers": [],
                "active": "inbox-7",
                "conversation": "main-kept",
            }
        },
    }
    (tmp_path / LAYOUT_FILE).write_text(json.dumps(state), encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "app", "--data-dir", str(tmp_path), "--quit-after", "1"],
        cwd=Path(__file__).resolve().parents[2],
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    # Quitting wrote the layout of the workspace it had opened: "personal", not the demo.
    saved = json.loads((tmp_path / LAYOUT_FILE).read_text(encoding="utf-8"))
    assert saved["workspace"] == "personal"
    assert saved["workspaces"]["personal"]["notes"] == state["workspaces"]["personal"]["notes"]
    assert saved["workspaces"]["personal"]["conversation"] == "main-kept"


def test_a_first_visit_says_the_notes_it_lacks_stay_open_where_they_were_R45(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    app.mount_two()
    home = app.session.workspace
    app.switch_workspace("personal")  # new and empty: none of the two notes is there
    shown = [banner.label.text() for banner in window.banners.banners]
    assert shown == [
        f"Workspace “personal” has no notes/a.md, notes/b.md; they stay open in “{home}”."
    ]
    assert not any("closed" in text for text in shown)  # nothing was closed anywhere
    app.switch_workspace(home)
    assert [frame.path for frame in window.driver.inbox_frames()] == ["notes/a.md", "notes/b.md"]
