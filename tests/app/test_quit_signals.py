"""SIGTERM (a logout, `kill`, a service stop) closes the window as Quit does (R45)."""

from __future__ import annotations

import json
import os
import signal

from app.shutdown import QUIT_SIGNALS, close_on_signal
from tests.app.conftest import AppFactory

WAIT_MS = 10_000


def test_sigterm_closes_the_window_and_keeps_the_layout_R45(make_app: AppFactory) -> None:
    assert signal.SIGTERM in QUIT_SIGNALS and signal.SIGINT in QUIT_SIGNALS
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    before = {signum: signal.getsignal(signum) for signum in QUIT_SIGNALS}
    wake = close_on_signal(app.window, *QUIT_SIGNALS)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        app.qtbot.waitUntil(lambda: not app.window.isVisible(), timeout=WAIT_MS)
    finally:
        wake.stop()
        for signum, handler in before.items():
            signal.signal(signum, handler)
    kept = json.loads((app.data_dir / "layout.json").read_text(encoding="utf-8"))
    notes = kept["workspaces"][kept["workspace"]]["notes"]
    assert [note["path"] for note in notes] == ["notes/a.md"]
