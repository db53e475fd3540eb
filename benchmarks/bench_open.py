"""Opening a 5 MiB note against a bare editor's own ``setPlainText`` of it (R67: within 1.2x).

The app's side: a real :class:`~app.window.main_window.MainWindow` (embedded backend), a
frame mounted on the note, the longest gap of a 5 ms timer from the mount until
the note is loaded (the GUI thread's longest stop on the way: Qt's own
``setPlainText`` is most of it). The floor: a bare, shown ``QPlainTextEdit`` given
the same text in one ``setPlainText``, timed, in the same process, pair by pair.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from benchmarks.bench_views import _longest_gap_ms, _start, _wait, note_text
from benchmarks.measure import Measurement, alternating_pairs, median, ratio

OPEN_TARGET = 1.2
PAIRS = 5
MIB = 1024 * 1024


def run() -> list[Measurement]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QPlainTextEdit

    application = QApplication.instance() or QApplication([])
    text = note_text(5 * MIB)
    with tempfile.TemporaryDirectory(prefix="bench-open-") as folder:
        # A note of its own for each round: a note still shown, or just closed, is not
        # loaded again but shares the document its frame holds (R53).
        paths = [f"notes/5MiB-{n}.md" for n in range(PAIRS)]
        session, window = _start(Path(folder), dict.fromkeys(paths, text))
        try:
            unopened = iter(paths)

            def app_open() -> float:
                frames = []
                path = next(unopened)
                stall = _longest_gap_ms(
                    lambda: frames.append(window.driver.mount_inbox("inbox-opened", path)),
                    lambda: bool(frames) and frames[0].is_loaded,
                )
                window.driver.close_frame(frames[0].frame_id)
                _wait(lambda: "inbox-opened" not in window.frames)
                return stall / 1000

            def bare_set_plain_text() -> float:
                editor = QPlainTextEdit()
                editor.resize(640, 800)
                editor.show()
                _wait(lambda: editor.isVisible())
                started = time.perf_counter()
                editor.setPlainText(text)
                seconds = time.perf_counter() - started
                editor.close()
                editor.deleteLater()
                return seconds

            app_seconds, floor_seconds = alternating_pairs(
                app_open, bare_set_plain_text, repeat=PAIRS
            )
        finally:
            window.close()
            session.close()
    del application
    ratios = [ratio(a, b) for a, b in zip(app_seconds, floor_seconds, strict=True)]
    return [
        Measurement(
            name="longest GUI stall opening a 5 MiB note / a bare editor's setPlainText of it",
            median=median(ratios),
            target=OPEN_TARGET,
            samples=ratios,
            details={
                "app_stall_ms": round(median(app_seconds) * 1000, 1),
                "set_plain_text_ms": round(median(floor_seconds) * 1000, 1),
            },
        )
    ]
