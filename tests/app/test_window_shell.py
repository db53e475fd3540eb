"""The shell around the frames: screenshot, `python -m app` start and quit, the pop-out window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QPlainTextEdit,
    QProgressBar,
    QTextBrowser,
)

from app.popout.window import POPOUT_BANNER, PopoutWindow
from app.session import AppSession, SessionError, SessionOptions
from bridge.environment import DEVICE_TOKEN_ENV
from tests.app.conftest import AppFactory

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CLI_TIMEOUT_SECONDS = 60


def _run_app(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``python -m app ARGUMENTS`` offscreen, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "app", *arguments],
        cwd=PROJECT_ROOT,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_SECONDS,
        check=False,
    )


def _distinct_colours(image: QImage, step: int = 7) -> int:
    colours = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            colours.add(image.pixel(x, y))
    return len(colours)


def test_the_demo_window_renders_to_a_png_that_is_not_blank(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(demo=True)
    window = app.window
    frames = window.driver.inbox_frames()
    assert [frame.path for frame in frames] == ["inbox/today.md", "projects/launch-plan.md"]
    assert "workspace" in window.frames and "assistant" in window.frames
    app.qtbot.waitUntil(lambda: all(frame.is_loaded for frame in frames))
    target = tmp_path / "window.png"
    assert window.grab().save(str(target))
    image = QImage(str(target))
    assert image.width() >= 800 and image.height() >= 500
    assert _distinct_colours(image) > 20


def test_a_folder_workspace_opens_with_the_browser_and_its_first_notes(
    make_app: AppFactory,
) -> None:
    app = make_app(demo_layout=True)
    window = app.window
    app.qtbot.waitUntil(lambda: len(window.driver.inbox_frames()) == 2)
    assert [frame.path for frame in window.driver.inbox_frames()] == ["notes/a.md", "notes/b.md"]
    assert "workspace" in window.frames
    app.qtbot.waitUntil(lambda: all(frame.is_loaded for frame in window.driver.inbox_frames()))


def test_every_control_has_an_accessible_name(make_app: AppFactory) -> None:
    app = make_app(demo=True)
    app.send()  # a turn adds its details toggle to the transcript
    kinds = (QAbstractButton, QPlainTextEdit, QAbstractItemView, QTextBrowser, QProgressBar)
    controls = [
        widget
        for kind in kinds
        for widget in app.window.findChildren(kind)
        if not widget.objectName().startswith("qt_")  # Qt's own internals (menu overflow)
    ]
    assert len(controls) > 20
    unnamed = [widget for widget in controls if not widget.accessibleName().strip()]
    assert not unnamed, [type(widget).__name__ for widget in unnamed]


@pytest.mark.slow
def test_python_m_app_starts_offscreen_and_quits_cleanly(tmp_path: Path) -> None:
    completed = _run_app("--data-dir", str(tmp_path), "--quit-after", "1")
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    # The demo notes were copied into the data folder; the shipped assets stay untouched.
    assert (tmp_path / "workspaces" / "demo" / "inbox" / "today.md").is_file()


def test_a_bad_workspace_folder_is_a_plain_error_not_a_traceback(tmp_path: Path) -> None:
    completed = _run_app(
        "--data-dir", str(tmp_path), "--workspace", str(tmp_path / "missing"), "--quit-after", "0"
    )
    assert completed.returncode == 1
    assert "does not exist" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_the_popped_out_window_has_its_own_store_and_assistant_R29(
    make_app: AppFactory,
) -> None:
    app = make_app()
    popout = PopoutWindow(app.session.link, "inbox-9", "notes/b.md", "preview")
    try:
        popout.show()
        app.qtbot.waitUntil(lambda: popout.frame.is_loaded)
        assert popout.banner.label.text() == POPOUT_BANNER
        assert popout.store is not app.window.store
        assert app.window.store.resolve() is None
        assert popout.assistant.chip.text() == "This note: notes/b.md · preview · inbox-9"
        app.qtbot.waitUntil(lambda: popout.assistant.title_bar.title.width() > 0)
        assert "…" not in popout.assistant.title_bar.title.text()  # its name reads in full
        with app.qtbot.waitSignal(popout.assistant.turn_finished, timeout=15_000) as blocker:
            popout.assistant.send("summarise this")
        pointer = blocker.args[0].capture.pointer
        assert pointer is not None and pointer.path == "notes/b.md"
        popout.frame.type_text(" typed in the popped-out window")
        typed = popout.frame.editor.toPlainText()
    finally:
        popout.close()
        app.qtbot.waitUntil(lambda: not popout.isVisible())
        popout.shutdown_workers()
        popout.deleteLater()
    assert app.saved_text("notes/b.md") == typed  # closing saved the last edit first


def test_a_session_can_use_a_running_backend_with_the_token_from_the_environment(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = make_app()
    assert host.session.server is not None
    monkeypatch.setenv(DEVICE_TOKEN_ENV, host.session.server.device_token)
    remote = AppSession.start(
        SessionOptions(
            backend_url=host.session.backend_url,
            workspace_dir=None,
            data_dir=tmp_path / "remote-data",
            demo=False,
            workspace=host.session.workspace,
        )
    )
    try:
        assert remote.server is None and not remote.demo
        documents = remote.link.call(lambda client, session: client.list_documents(session))
        assert [info.path for info in documents] == ["notes/a.md", "notes/b.md"]
    finally:
        remote.close()
    monkeypatch.delenv(DEVICE_TOKEN_ENV)
    with pytest.raises(SessionError, match=DEVICE_TOKEN_ENV):
        AppSession.start(
            SessionOptions(
                backend_url=host.session.backend_url,
                workspace_dir=None,
                data_dir=tmp_path / "no-token",
                demo=False,
            )
        )
