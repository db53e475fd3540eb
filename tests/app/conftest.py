"""Fixtures for the desktop app: a main-window factory over a real backend on loopback.

Each window gets its own embedded backend, a temporary data folder and workspace,
and a teardown that closes everything and fails on leaked windows, timers,
threads or processes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.__main__ import show_main_window
from app.session import AppSession, SessionOptions
from app.window.main_window import MainWindow
from renderer.ambient.turns import TurnRecord
from renderer.frames.inbox.frame import InboxFrame

WORKSPACE_NOTES: dict[str, str] = {
    "notes/a.md": "# A\nalpha line\n- [ ] first task\n- [x] done task\n",
    "notes/b.md": "# B\nbeta\n## Child\ntext\n",
}
LOAD_TIMEOUT_MS = 10_000
TURN_TIMEOUT_MS = 15_000
SWITCH_TIMEOUT_MS = 15_000


@dataclass
class AppUnderTest:
    """A running window and where its workspace lives on disk."""

    window: MainWindow
    session: AppSession
    workspace_dir: Path
    data_dir: Path
    qtbot: QtBot

    def mount(self, frame_id: str, path: str, view: str = "edit") -> InboxFrame:
        """Mount an Inbox frame and wait until its note is loaded."""
        frame = self.window.driver.mount_inbox(frame_id, path, view)
        if not frame.is_loaded:
            with self.qtbot.waitSignal(frame.loaded, timeout=LOAD_TIMEOUT_MS):
                pass
        return frame

    def mount_two(self) -> tuple[InboxFrame, InboxFrame]:
        """Mount notes/a.md as inbox-1 and notes/b.md as inbox-2, both loaded."""
        return self.mount("inbox-1", "notes/a.md"), self.mount("inbox-2", "notes/b.md")

    def stop_backend(self) -> None:
        """Stop the embedded backend for real: every later call finds nobody listening."""
        assert self.session.server is not None
        self.session.server.stop()

    def quit(self) -> None:
        """Close the window and end the session, as quitting the app does."""
        self.window.close()
        self.session.close()

    def switch_workspace(self, name: str) -> str:
        """Switch through the window and wait until it is done; the id it announced."""
        with self.qtbot.waitSignal(
            self.window.workspace_switched, timeout=SWITCH_TIMEOUT_MS
        ) as blocker:
            self.window.driver.switch_workspace(name)
        workspace = blocker.args[0]
        assert isinstance(workspace, str)
        return workspace

    def send(self, message: str = "summarise this", **options: bool) -> TurnRecord:
        """Send through the assistant and wait for the turn's record."""
        with self.qtbot.waitSignal(
            self.window.assistant.turn_finished, timeout=TURN_TIMEOUT_MS
        ) as blocker:
            self.window.assistant.send(message, **options)
        record = blocker.args[0]
        assert isinstance(record, TurnRecord)
        return record

    def send_typing_during_flush(self, frame: InboxFrame) -> TurnRecord:
        """Type " before", then send while " during" is typed once the pre-send flush started."""
        frame.type_text(" before", at="end")
        self.window.assistant.flush_started.connect(lambda: frame.type_text(" during", at="end"))
        return self.send()

    def saved_text(self, path: str) -> str:
        return (self.workspace_dir / path).read_text(encoding="utf-8")


AppFactory = Callable[..., AppUnderTest]


def _our_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread is not threading.main_thread()}


@pytest.fixture
def make_app(qtbot: QtBot, tmp_path: Path) -> Iterator[AppFactory]:
    """Build a main window over a fresh embedded backend; tear everything down after."""
    threads_before = _our_threads()
    built: list[AppUnderTest] = []

    def factory(
        notes: Mapping[str, str] = WORKSPACE_NOTES,
        *,
        save_delay_seconds: float = 0.0,
        demo: bool = False,
        demo_layout: bool | None = None,
        restart: AppUnderTest | None = None,
        keep_place: bool = False,
    ) -> AppUnderTest:
        """A new window; with ``restart`` (quit first) the app starts again on its folders."""
        index = len(built)
        if restart is not None:
            workspace_dir, data_dir = restart.workspace_dir, restart.data_dir
        else:
            workspace_dir = tmp_path / f"workspace-{index}"
            data_dir = tmp_path / f"data-{index}"
            for relative, text in notes.items():
                target = workspace_dir / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(text.encode("utf-8"))
            workspace_dir.mkdir(parents=True, exist_ok=True)
        session = AppSession.start(
            SessionOptions(
                backend_url=None,
                workspace_dir=None if demo else workspace_dir,
                data_dir=data_dir,
                save_delay_seconds=save_delay_seconds,
                demo=demo,
            )
        )
        window = MainWindow(session, demo_layout=demo_layout)
        if not keep_place:  # ``keep_place``: as the layout left it (R80)
            window.resize(1280, 800)
            window.show()
        else:
            show_main_window(window)  # as ``python -m app`` shows it
        under_test = AppUnderTest(window, session, workspace_dir, data_dir, qtbot)
        built.append(under_test)
        return under_test

    yield factory

    processes: list[QProcess] = []
    for under_test in built:
        processes.extend(handle.process for handle in under_test.session.popouts.handles)
        under_test.window.close()
        owners = (under_test.window, under_test.session.autosave, under_test.session.popouts)
        leaked_timers = [
            timer for owner in owners for timer in owner.findChildren(QTimer) if timer.isActive()
        ]
        under_test.session.close()
        under_test.window.deleteLater()
        assert not leaked_timers, f"timers still running after close: {leaked_timers}"
    for process in processes:
        assert process.state() == QProcess.ProcessState.NotRunning, "a pop-out outlived the host"
    qtbot.waitUntil(lambda: not [w for w in QApplication.topLevelWidgets() if w.isVisible()])
    leaked = {thread for thread in _our_threads() - threads_before if thread.is_alive()}
    # concurrent.futures keeps idle workers of module-level pools; only the app's own count.
    leaked = {thread for thread in leaked if not thread.name.startswith("ambient-flush")}
    assert not leaked, f"threads still alive after teardown: {sorted(t.name for t in leaked)}"
