"""Find in a 5 MiB note: the longest GUI stall while the bar counts and moves (R84, R67).

A real :class:`~app.window.main_window.MainWindow` (embedded backend) with a 5 MiB note
loaded; Ctrl+F through the window's declared action, then queries typed into the
find field as a person types them: a rare word, a common one, and one letter
(about a million matches, the worst count); each counted to its end, then F3 and
Shift+F3 across the whole note (wrapping). The stall is the longest gap between
ticks of a 5 ms timer from each key until the count is shown (target 100 ms).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from benchmarks.bench_views import _longest_gap_ms, _mount, _start, _wait, note_text
from benchmarks.measure import Measurement

STALL_TARGET_MS = 100.0
MIB = 1024 * 1024
PATH = "notes/5MiB.md"
QUERIES = ("emphasis", "a line", "a")


def run() -> list[Measurement]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    application = QApplication.instance() or QApplication([])
    stalls: dict[str, float] = {}
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="bench-find-") as folder:
        session, window = _start(Path(folder), {PATH: note_text(5 * MIB)})
        try:
            frame = _mount(window, "inbox-1", PATH)
            frame.editor.setFocus()
            bar = frame.find_bar
            stalls["open"] = _longest_gap_ms(
                lambda: window.driver.trigger("edit.find"), lambda: bar.counter.done
            )
            for query in QUERIES:
                bar.find_field.clear()
                _wait(lambda: bar.counter.done)

                def type_query(typed: str = query) -> None:
                    QTest.keyClicks(bar.find_field, typed)

                stalls[f"count {query!r}"] = _longest_gap_ms(type_query, lambda: bar.counter.done)
                counts[query] = bar.counter.count
            frame.editor.moveCursor(QTextCursor.MoveOperation.End)
            bar.find_field.clear()
            QTest.keyClicks(bar.find_field, QUERIES[0])
            _wait(lambda: bar.counter.done)
            stalls["F3 wrapping"] = _longest_gap_ms(
                lambda: QTest.keyClick(bar.find_field, Qt.Key.Key_F3), lambda: True
            )

            def back_from_the_start() -> None:
                frame.editor.moveCursor(QTextCursor.MoveOperation.Start)
                QTest.keyClick(bar.find_field, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)

            stalls["Shift+F3 wrapping"] = _longest_gap_ms(back_from_the_start, lambda: True)
        finally:
            window.close()
            session.close()
    del application
    return [
        Measurement(
            name="longest GUI stall finding in a 5 MiB note (ms)",
            median=max(stalls.values()),
            unit="ms",
            target=STALL_TARGET_MS,
            samples=list(stalls.values()),
            details={
                **{f"{name}_ms": round(value, 1) for name, value in stalls.items()},
                **{f"matches {query!r}": count for query, count in counts.items()},
            },
        )
    ]
