"""Start-up and the memory of a big note's four views (R67), each in processes of its own.

1. Start-up: ``python -m app --quit-when-ready`` (the demo workspace, its data
   folder already made by an earlier start) against a bare Qt window shown by the same
   interpreter, wall time from spawning the process. Two targets of 6x: to the first
   note shown (its ``ready`` line), and to the app's first window shown (its
   ``window`` line, R67's "shows its window"). And a target of 2x (issue 40): to the
   first note's text painted against a bare editor showing the same file (read,
   ``QPlainTextEdit.setPlainText``, shown and painted), from spawn too.
2. Memory: the resident memory a 5 MiB note adds once it has been shown in all
   four views of one Inbox frame (edit, preview, todo, mindmap), against a bare
   editor plus a bare preview (``QTextBrowser.setHtml``, its lazy layout let
   finish) of the same note in a process of their own; target 1.5x.

    python -m benchmarks.bench_startup memory-app|memory-floor   (one side, prints bytes)
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.__main__ import READY, WINDOW_SHOWN
from app.workspace.demo import DEMO_FRAMES, DEMO_WORKSPACE
from benchmarks.measure import (
    Measurement,
    alternating_pairs,
    median,
    offscreen_environment,
    pairs,
    ratio,
)

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTextBrowser

STARTUP_TARGET = 6.0
FIRST_NOTE_TARGET = 2.0
MEMORY_TARGET = 1.5
STARTUP_PAIRS = 5
MEMORY_PAIRS = 2
MIB = 1024 * 1024
NOTE_BYTES = 5 * MIB
TIMEOUT_SECONDS = 300

BARE_WINDOW = f"""
from PySide6.QtWidgets import QApplication, QMainWindow
application = QApplication([])
window = QMainWindow()
window.resize(1280, 800)
window.show()
application.processEvents()
print({READY!r}, flush=True)
"""

BARE_EDITOR = f"""
import sys
from pathlib import Path
from PySide6.QtWidgets import QApplication, QPlainTextEdit
application = QApplication([])
editor = QPlainTextEdit()
editor.setPlainText(Path(sys.argv[1]).read_text(encoding="utf-8"))
editor.resize(1280, 800)
editor.show()
application.processEvents()
print({READY!r}, flush=True)
"""


def run() -> list[Measurement]:
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        data_dir = Path(folder) / "data"
        _time_until_ready(_app_command(data_dir))  # the first start makes the data folder
        note = data_dir / "workspaces" / DEMO_WORKSPACE / DEMO_FRAMES[0][1]
        app_seconds, window_seconds, bare_seconds, editor_seconds = _rounds(
            lambda: _time_until_ready(_app_command(data_dir)),
            lambda: _time_until_ready([sys.executable, "-c", BARE_WINDOW])[1],
            lambda: _time_until_ready([sys.executable, "-c", BARE_EDITOR, str(note)])[1],
            repeat=min(pairs(), STARTUP_PAIRS),
        )
    startup = [ratio(a, b) for a, b in zip(app_seconds, bare_seconds, strict=True)]
    window = [ratio(a, b) for a, b in zip(window_seconds, bare_seconds, strict=True)]
    first_note = [ratio(a, b) for a, b in zip(app_seconds, editor_seconds, strict=True)]
    app_bytes, floor_bytes = alternating_pairs(
        lambda: float(_child("memory-app")),
        lambda: float(_child("memory-floor")),
        repeat=MEMORY_PAIRS,
    )
    memory = [ratio(a, b) for a, b in zip(app_bytes, floor_bytes, strict=True)]
    return [
        Measurement(
            name="start-up to the first note shown / a bare Qt window",
            median=median(startup),
            target=STARTUP_TARGET,
            samples=startup,
            details={
                "app_seconds": round(median(app_seconds), 3),
                "bare_window_seconds": round(median(bare_seconds), 3),
            },
        ),
        Measurement(
            name="first note shown / a bare editor showing the same file, from spawn",
            median=median(first_note),
            target=FIRST_NOTE_TARGET,
            samples=first_note,
            details={
                "app_seconds": round(median(app_seconds), 3),
                "bare_editor_seconds": round(median(editor_seconds), 3),
            },
        ),
        Measurement(
            name="start-up to the app's first window shown / a bare Qt window",
            median=median(window),
            target=STARTUP_TARGET,
            samples=window,
            details={"window_seconds": round(median(window_seconds), 3)},
        ),
        Measurement(
            name="memory of a 5 MiB note in four views / bare editor + bare preview",
            median=median(memory),
            target=MEMORY_TARGET,
            samples=memory,
            details={
                "app_mib": round(median(app_bytes) / MIB, 1),
                "floor_mib": round(median(floor_bytes) / MIB, 1),
            },
        ),
    ]


def _rounds(
    app: Callable[[], tuple[float, float]],
    bare_window: Callable[[], float],
    bare_editor: Callable[[], float],
    *,
    repeat: int,
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Seconds to the app's note, to its window, to a bare window and to a bare editor.

    One round runs each side once; the order turns round by round (as
    :func:`alternating_pairs` does), so no side always runs first or on a warm cache.
    """
    notes: list[float] = []
    windows: list[float] = []
    bare: list[float] = []
    editors: list[float] = []

    def app_start() -> None:
        shown, ready = app()
        windows.append(shown)
        notes.append(ready)

    sides: list[Callable[[], None]] = [
        app_start,
        lambda: bare.append(bare_window()),
        lambda: editors.append(bare_editor()),
    ]
    for index in range(repeat):
        turn = index % len(sides)
        for side in sides[turn:] + sides[:turn]:
            side()
    return notes, windows, bare, editors


def _app_command(data_dir: Path) -> list[str]:
    return [sys.executable, "-m", "app", "--data-dir", str(data_dir), "--quit-when-ready"]


def _time_until_ready(
    command: list[str], environment: dict[str, str] | None = None
) -> tuple[float, float]:
    """Seconds from spawning ``command`` to its ``window`` line and to its ``ready`` line.

    A command that prints no ``window`` line (the bare window) counts its ``ready``
    for both. It exits on its own after ``ready``.
    """
    started = time.perf_counter()
    shown: float | None = None
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=offscreen_environment() if environment is None else environment,
    ) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == WINDOW_SHOWN and shown is None:
                shown = time.perf_counter() - started
            elif line.strip() == READY:
                seconds = time.perf_counter() - started
                break
        else:
            raise RuntimeError(f"{command[1:3]} exited without showing a note")
        child.stdout.read()
        if child.wait(timeout=TIMEOUT_SECONDS) != 0:
            raise RuntimeError(f"{command[1:3]} failed")
    return (seconds if shown is None else shown), seconds


def _child(mode: str) -> int:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_startup", mode],
        capture_output=True,
        text=True,
        env=offscreen_environment(),
        timeout=TIMEOUT_SECONDS * 2,
        check=True,
    )
    return int(completed.stdout.split()[-1])


def _note() -> str:
    line = "- [ ] a line of a long note, with some words in it to wrap and render\n"
    block = "## Section\n\n" + line * 20 + "\nSome prose between the lists, *with emphasis*.\n\n"
    return (block * (NOTE_BYTES // len(block) + 1))[:NOTE_BYTES]


def _resident_bytes() -> int:
    gc.collect()
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _settle(seconds: float = 0.5) -> None:
    from PySide6.QtWidgets import QApplication

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        QApplication.processEvents()


def _laid_out(preview: QTextBrowser) -> None:
    """Wait for Qt's lazy layout of the whole document (it holds most of a preview's memory).

    The app's preview lays out each piece as it is drawn; a bare one set with
    ``setHtml`` goes on laying out in the background for seconds, and counts only
    when done: its scroll range stops growing.
    """
    bar = preview.verticalScrollBar()
    deadline = time.monotonic() + TIMEOUT_SECONDS
    last = -1
    while bar.maximum() != last and time.monotonic() < deadline:
        last = bar.maximum()
        _settle(1.0)


def _memory_app() -> int:
    """Bytes a 5 MiB note adds to the app once drawn in its four views."""
    from PySide6.QtWidgets import QApplication

    from app.session import AppSession, SessionOptions
    from app.window.main_window import MainWindow
    from benchmarks.bench_views import _wait

    application = QApplication([])
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        workspace = Path(folder) / "workspace"
        (workspace / "notes").mkdir(parents=True)
        (workspace / "notes" / "big.md").write_text(_note(), encoding="utf-8")
        session = AppSession.start(
            SessionOptions(
                backend_url=None,
                workspace_dir=workspace,
                data_dir=Path(folder) / "data",
                demo=False,
            )
        )
        window = MainWindow(session)
        window.resize(1280, 800)
        window.show()
        try:
            _settle()
            before = _resident_bytes()
            frame = window.driver.mount_inbox("inbox-1", "notes/big.md")
            _wait(lambda: frame.is_loaded)
            for view in ("preview", "todo", "mindmap", "edit"):
                frame.set_view(view)
                _wait(lambda: not frame.renders.busy)
            _settle()
            added = _resident_bytes() - before
        finally:
            window.close()
            session.close()
    del application
    return added


def _memory_floor() -> int:
    """Bytes a bare editor and a bare preview of the same note add."""
    from PySide6.QtWidgets import QApplication, QMainWindow, QPlainTextEdit, QTextBrowser

    from bridge.markdown import render_html

    application = QApplication([])
    window = QMainWindow()
    window.resize(1280, 800)
    window.show()
    text = _note()
    _settle()
    before = _resident_bytes()
    editor = QPlainTextEdit()
    editor.setPlainText(text)
    preview = QTextBrowser()
    preview.setHtml(render_html(text))
    for widget in (editor, preview):
        widget.resize(640, 800)
        widget.show()
    _laid_out(preview)
    _settle()
    added = _resident_bytes() - before
    del application
    return added


if __name__ == "__main__":
    modes = {"memory-app": _memory_app, "memory-floor": _memory_floor}
    if len(sys.argv) != 2 or sys.argv[1] not in modes:
        raise SystemExit(f"usage: python -m benchmarks.bench_startup {'|'.join(modes)}")
    print(modes[sys.argv[1]]())
