"""Idle memory after start-up against a bare editor window process (issue 40: within 2.2x).

Each side runs in a process of its own, the demo workspace open and its first note
shown (and the app's embedded backend answering), then left idle a moment. Memory
is the proportional set size (PSS) from ``/proc/PID/smaps_rollup``: a page shared
by several processes is split between them, so summing PSS counts each page once.
The app's side is every process it runs: the window's and the backend's own
(contract 1), added together, since both are what the app costs a person's machine.

The details also give a floor that is not gated: the bare editor window with the
backend's mandated stack (FastAPI with pydantic and Starlette, SQLAlchemy, uvicorn)
imported into its process and nothing else. No app with an in-process backend on that
stack can idle below it, so it says how much of the gap is the stack's own (issue 33).

    python -m benchmarks.bench_idle app DATA_DIR | editor FILE | stack FILE   (one side)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from app.workspace.demo import DEMO_FRAMES, DEMO_WORKSPACE
from benchmarks.measure import (
    SETTLE_MS,
    Measurement,
    alternating_pairs,
    child_figure,
    median,
    process_tree_bytes,
    ratio,
)

IDLE_TARGET = 2.2
PAIRS = 3
STACK_SAMPLES = 2
STACK_MODULES = ("fastapi", "starlette", "pydantic", "sqlalchemy", "uvicorn")
"""What the embedded backend must load: the stack contract 1 and R42 mandate."""
MIB = 1024 * 1024
POLL_MS = 50
TIMEOUT_SECONDS = 300


def run() -> list[Measurement]:
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as folder:
        data_dir = Path(folder) / "data"
        _side("app", str(data_dir))  # the first start makes the data folder
        note = data_dir / "workspaces" / DEMO_WORKSPACE / DEMO_FRAMES[0][1]
        app_bytes, editor_bytes = alternating_pairs(
            lambda: float(_side("app", str(data_dir))),
            lambda: float(_side("editor", str(note))),
            repeat=PAIRS,
        )
        stack_bytes = [float(_side("stack", str(note))) for _ in range(STACK_SAMPLES)]
    ratios = [ratio(a, b) for a, b in zip(app_bytes, editor_bytes, strict=True)]
    stack_floor = ratio(median(stack_bytes), median(editor_bytes))
    return [
        Measurement(
            name="idle memory of the app's processes (PSS) / a bare editor window process",
            median=median(ratios),
            target=IDLE_TARGET,
            samples=ratios,
            details={
                "app_mib": round(median(app_bytes) / MIB, 1),
                "bare_editor_mib": round(median(editor_bytes) / MIB, 1),
                # Not gated: the bare editor plus the backend stack's imports (see above).
                "stack_floor_mib": round(median(stack_bytes) / MIB, 1),
                "stack_floor_ratio": round(stack_floor, 2),
            },
        )
    ]


def _side(mode: str, argument: str) -> int:
    command = [sys.executable, "-m", "benchmarks.bench_idle", mode, argument]
    return int(child_figure(command, TIMEOUT_SECONDS))


def _app(data_dir: str) -> int:
    """``python -m app`` itself in this process; memory read once at rest.

    At rest: the first note loaded and the embedded backend answering (it starts after
    the first paint, and on a loaded machine took longer than the settling time: read
    earlier, the app would be measured half started), then :data:`SETTLE_MS` idle.
    """
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app.__main__ import main
    from app.window.main_window import MainWindow

    application = QApplication([])
    measured: list[int] = []

    def sample() -> None:
        windows = [w for w in application.topLevelWidgets() if isinstance(w, MainWindow)]
        at_rest = bool(windows) and not windows[0].session.starting
        if not at_rest or not any(f.is_loaded for f in windows[0].driver.inbox_frames()):
            QTimer.singleShot(POLL_MS, sample)
            return

        def read() -> None:
            measured.append(process_tree_bytes(os.getpid()))
            windows[0].close()

        QTimer.singleShot(SETTLE_MS, read)

    QTimer.singleShot(POLL_MS, sample)
    code = main(["--data-dir", data_dir])
    if code != 0 or not measured:
        raise SystemExit(f"the app exited {code} before its memory was read")
    return measured[0]


def _stack(note: str) -> int:
    """The bare editor window with the backend's stack imported too: the floor of its kind."""
    import importlib

    import PySide6.QtWidgets  # noqa: F401  (first, as in the app)

    from renderer.qt.module_sources import check_sources_uncached

    check_sources_uncached()  # as the app does: the sources are not the stack's cost
    for name in STACK_MODULES:
        importlib.import_module(name)
    return _editor(note)


def _editor(note: str) -> int:
    """A bare editor window showing the same note, idle as long."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QPlainTextEdit

    application = QApplication([])
    editor = QPlainTextEdit()
    editor.setPlainText(Path(note).read_text(encoding="utf-8"))
    editor.resize(1280, 800)
    editor.show()
    measured: list[int] = []

    def read() -> None:
        measured.append(process_tree_bytes(os.getpid()))
        editor.close()

    QTimer.singleShot(SETTLE_MS, read)
    application.exec()
    return measured[0]


if __name__ == "__main__":
    modes = {"app": _app, "editor": _editor, "stack": _stack}
    if len(sys.argv) != 3 or sys.argv[1] not in modes:
        raise SystemExit(f"usage: python -m benchmarks.bench_idle {'|'.join(modes)} ARGUMENT")
    print(modes[sys.argv[1]](sys.argv[2]))
