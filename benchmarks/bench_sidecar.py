"""The sidecar's answers and its context updates, through the official MCP SDK's client (R60).

(a) ``get_active_note`` (a fresh capture through the GUI thread: resolve, flush,
read the editor, hash) against a bare ``tools/call`` of ``sidecar_info``, which
answers a constant on the same server: the round trip, wall clock, <= 1.5.
(b) From an activation in the window to the client holding the ``ide/contextUpdate``
that names the newly active note: the median of the counted updates, <= 100 ms
(the update is debounced by 50 ms).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.measure import Measurement, median, paired_ratios, pairs

ROUND_TRIP_TARGET = 1.5
CONTEXT_TARGET_MS = 100.0
CALLS_PER_SAMPLE = 5
WAIT_SECONDS = 30.0
NOTE = "# Weekly review\n" + "- [ ] a task line in a note, with a few words\n" * 200


class _Spin:
    """Runs the Qt event loop until a condition holds (what ``qtbot.waitUntil`` does)."""

    def waitUntil(self, callback: Callable[[], bool], *, timeout: int) -> None:
        from PySide6.QtCore import QEventLoop
        from PySide6.QtWidgets import QApplication

        deadline = time.monotonic() + timeout / 1000
        while not callback():
            if time.monotonic() > deadline:
                raise TimeoutError("the sidecar did not answer in time")
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 1)


def run() -> list[Measurement]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from app.scenario.sidecar_client import SdkClient
    from app.session import AppSession, SessionOptions
    from app.window.main_window import MainWindow

    application = QApplication.instance() or QApplication([])
    spin = _Spin()
    with tempfile.TemporaryDirectory(prefix="bench-sidecar-") as folder:
        workspace = Path(folder) / "workspace"
        (workspace / "notes").mkdir(parents=True)
        for name in ("a", "b"):
            (workspace / "notes" / f"{name}.md").write_text(NOTE, encoding="utf-8")
        before = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = folder  # the companion file stays in this folder
        session = AppSession.start(
            SessionOptions(
                backend_url=None,
                workspace_dir=workspace,
                data_dir=Path(folder) / "data",
                demo=False,
            )
        )
        window = MainWindow(session)
        window.show()
        client: SdkClient | None = None
        try:
            frames = [window.driver.mount_inbox(f"inbox-{n}", f"notes/{n}.md") for n in ("a", "b")]
            spin.waitUntil(lambda: all(frame.is_loaded for frame in frames), timeout=30_000)
            window.sharing.turn_on()
            server = window.sharing.server
            assert server is not None
            client = SdkClient(spin, server.url, server.token)
            return [_round_trip(client), _context_latency(client, window, spin)]
        finally:
            if client is not None:
                client.close()
            window.close()
            session.close()
            if before is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = before
            del application


def _round_trip(client: Any) -> Measurement:
    def capture() -> None:
        result = client.call("get_active_note")
        assert not result.is_error and result.structured_content["status"] == "ok"

    def constant() -> None:
        assert not client.call("sidecar_info").is_error

    capture()  # warm both paths once
    constant()
    ratios = paired_ratios(capture, constant, number=CALLS_PER_SAMPLE)
    return Measurement(
        name="get_active_note / a constant tool, MCP round trip",
        median=median(ratios),
        target=ROUND_TRIP_TARGET,
        samples=ratios,
    )


def _context_latency(client: Any, window: Any, spin: _Spin) -> Measurement:
    root = str(Path(window.sharing.notes.workspace_folder() or "."))
    latencies: list[float] = []
    for index in range(pairs()):
        frame_id, name = ("inbox-a", "a") if index % 2 else ("inbox-b", "b")
        target = os.path.join(root, "notes", f"{name}.md")
        seen = len(client.arrivals("ide/contextUpdate"))
        began = time.perf_counter()
        window.driver.activate_frame(frame_id)

        def arrived(target: str = target, seen: int = seen) -> float | None:
            for params, at in client.arrivals("ide/contextUpdate")[seen:]:
                files = params["workspaceState"]["openFiles"]
                if files and files[0]["path"] == target and files[0].get("isActive"):
                    return float(at)
            return None

        spin.waitUntil(lambda: arrived() is not None, timeout=int(WAIT_SECONDS * 1000))
        at = arrived()
        assert at is not None
        latencies.append((at - began) * 1000)
    return Measurement(
        name="activation to ide/contextUpdate at the client",
        median=median(latencies),
        unit="ms",
        target=CONTEXT_TARGET_MS,
        samples=latencies,
        details={"updates_counted": float(len(latencies))},
    )
