"""The real window talking to a backend process through a recording relay (R16, R86).

:func:`wired_app` starts the window on a fresh workspace of the backend, with the app's
own data folder; every byte the app sends to the backend is in ``relay.requests()``.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.session import AppSession, SessionOptions
from app.window.main_window import MainWindow
from renderer.ambient.turns import TurnRecord
from renderer.frames.inbox.frame import InboxFrame
from tests.bridge.wire import RecordingRelay
from tests.support.backend import RunningBackend, make_workspace

LOAD_TIMEOUT_MS = 10_000
TURN_TIMEOUT_MS = 15_000


@dataclass
class WiredApp:
    """The real window, talking to a backend process through a recording relay."""

    window: MainWindow
    session: AppSession
    relay: RecordingRelay
    qtbot: QtBot

    def mount(self, frame_id: str, path: str) -> InboxFrame:
        frame = self.window.driver.mount_inbox(frame_id, path, "edit")
        if not frame.is_loaded:
            with self.qtbot.waitSignal(frame.loaded, timeout=LOAD_TIMEOUT_MS):
                pass
        return frame

    def send(self, message: str) -> TurnRecord:
        with self.qtbot.waitSignal(
            self.window.assistant.turn_finished, timeout=TURN_TIMEOUT_MS
        ) as blocker:
            self.window.assistant.send(message)
        record = blocker.args[0]
        assert isinstance(record, TurnRecord)
        return record


@contextmanager
def wired_app(
    backend: RunningBackend, qtbot: QtBot, tmp_path: Path, notes: Mapping[str, str]
) -> Iterator[WiredApp]:
    """A window on a new workspace holding ``notes``; closed, with no thread left, after."""
    workspace = f"ws-{uuid.uuid4().hex[:12]}"
    make_workspace(backend.data_dir, workspace, notes)
    data_dir = tmp_path / "app-data"
    data_dir.mkdir()
    (data_dir / "device-token").write_text(backend.token, encoding="utf-8")
    before = set(threading.enumerate())
    with RecordingRelay(backend.url) as relay:
        session = AppSession.start(
            SessionOptions(
                backend_url=relay.url,
                workspace_dir=None,
                data_dir=data_dir,
                demo=False,
                workspace=workspace,
            )
        )
        window = MainWindow(session)
        window.show()
        try:
            yield WiredApp(window, session, relay, qtbot)
        finally:
            window.close()
            session.close()
            window.deleteLater()
    qtbot.waitUntil(lambda: not [w for w in QApplication.topLevelWidgets() if w.isVisible()])
    leaked = [t.name for t in set(threading.enumerate()) - before if t.is_alive()]
    assert leaked == []
