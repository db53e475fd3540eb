"""Typing cost in a 1 MiB note with the ambient machinery attached, and the GUI's longest stall.

1. Characters per second typed (real key events) into a 1 MiB note in a mounted,
   published Inbox frame with the assistant's chip subscribed, against the same
   editor alone: the ratio should stay at or under 1.05. Timed in CPU time of the whole
   process (``CPU_CLOCK``), so work the frame hands to other threads still counts and
   the time the cores spend on other processes does not.
2. The longest gap between ticks of a 10 ms timer while a send waits on a flush
   whose saves the backend delays by 4 s (R12): the GUI thread must not stall.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.measure import CPU_CLOCK, Measurement, alternating_pairs, median, ratio

if TYPE_CHECKING:
    from app.window.main_window import MainWindow

TYPING_TARGET_RATIO = 1.05
STALL_TARGET_MS = 50.0
NOTE_BYTES = 1024 * 1024
CHARS_PER_SAMPLE = 120
SAVE_DELAY_SECONDS = 4.0
STALL_SENDS = 3
TICK_MS = 10


def _note_text() -> str:
    line = "- [ ] a line of a long note, with some words in it to wrap and render\n"
    heading = "## Section\n"
    block = heading + line * 20
    return (block * (NOTE_BYTES // len(block) + 1))[:NOTE_BYTES]


def run() -> list[Measurement]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    application = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory(prefix="bench-typing-") as folder:
        typing = _typing_overhead(Path(folder) / "typing")
        stall = _stall_during_stalled_flush(Path(folder) / "stall")
    del application
    return [typing, stall]


def _start(root: Path, save_delay: float) -> tuple[object, object]:
    from app.session import AppSession, SessionOptions
    from app.window.main_window import MainWindow

    workspace = root / "workspace"
    (workspace / "notes").mkdir(parents=True)
    (workspace / "notes" / "big.md").write_text(_note_text(), encoding="utf-8")
    session = AppSession.start(
        SessionOptions(
            backend_url=None,
            workspace_dir=workspace,
            data_dir=root / "data",
            save_delay_seconds=save_delay,
            demo=False,
        )
    )
    window = MainWindow(session)
    window.resize(1280, 800)
    window.show()
    return session, window


def _wait(condition: object, timeout: float = 30.0) -> None:
    from PySide6.QtWidgets import QApplication

    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise RuntimeError("the benchmark's app did not get ready in time")
        QApplication.processEvents()


def _typing_overhead(root: Path) -> Measurement:
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QPlainTextEdit

    from app.session import AppSession
    from app.window.main_window import MainWindow

    session, window = _start(root, 0.0)
    assert isinstance(session, AppSession) and isinstance(window, MainWindow)
    try:
        frame = window.driver.mount_inbox("inbox-1", "notes/big.md")
        _wait(lambda: frame.is_loaded)
        window.driver.activate_frame("inbox-1")
        assert window.assistant.chip.text().startswith("This note: notes/big.md")
        # The floor: the same editor, styled and sized alike, in the same window, attached to
        # nothing (no frame, no store, no autosave).
        bare = QPlainTextEdit()
        bare.setObjectName(frame.editor.objectName())
        bare.setFont(frame.editor.font())
        bare.setPlainText(_note_text())
        window.inbox_column.addWidget(bare)
        size = frame.editor.size()
        for editor in (frame.editor, bare):
            editor.setFixedSize(size)
        _wait(lambda: bare.isVisible())
        text = ("typing speed " * (CHARS_PER_SAMPLE // 13 + 1))[:CHARS_PER_SAMPLE]
        lines = {id(frame.editor): 40, id(bare): 40}

        def type_into(editor: QPlainTextEdit) -> float:
            # Each sample types on a line of its own, so line length never grows between samples.
            line = lines[id(editor)] = lines[id(editor)] + 2
            cursor = editor.textCursor()
            cursor.setPosition(editor.document().findBlockByNumber(line).position())
            editor.setTextCursor(cursor)
            started = CPU_CLOCK()
            QTest.keyClicks(editor, text)
            return CPU_CLOCK() - started

        for editor in (frame.editor, bare):  # warm both: the first layout of a 1 MiB note
            type_into(editor)
        subject_seconds, floor_seconds = alternating_pairs(
            lambda: type_into(frame.editor), lambda: type_into(bare)
        )
        ratios = [ratio(s, f) for s, f in zip(subject_seconds, floor_seconds, strict=True)]
        bare.setParent(None)
        bare.deleteLater()
    finally:
        window.close()
        session.close()
    return Measurement(
        name="typing into a 1 MiB note: published frame + chip vs bare editor",
        median=median(ratios),
        target=TYPING_TARGET_RATIO,
        samples=ratios,
        details={
            "chars_per_cpu_second_with_frame": round(CHARS_PER_SAMPLE / median(subject_seconds)),
            "chars_per_cpu_second_bare_editor": round(CHARS_PER_SAMPLE / median(floor_seconds)),
        },
    )


def _stall_during_stalled_flush(root: Path) -> Measurement:
    from app.session import AppSession
    from app.window.main_window import MainWindow

    session, window = _start(root, SAVE_DELAY_SECONDS)
    assert isinstance(session, AppSession) and isinstance(window, MainWindow)
    stalls: list[float] = []
    flushed: list[str] = []
    try:
        frame = window.driver.mount_inbox("inbox-1", "notes/big.md")
        _wait(lambda: frame.is_loaded)
        for round_number in range(STALL_SENDS):
            frame.type_text(f" edit {round_number}", at="end")
            stall_ms, was_flushed = _one_stalled_send(window)
            stalls.append(stall_ms)
            flushed.append(str(was_flushed))
    finally:
        window.close()
        session.close()
    return Measurement(
        name="longest event-loop stall during a stalled-flush send (ms)",
        median=median(stalls),
        unit="ms",
        target=STALL_TARGET_MS,
        samples=stalls,
        details={"flushed": ",".join(flushed)},
    )


def _one_stalled_send(window: MainWindow) -> tuple[float, bool | None]:
    """Send once while a 10 ms timer ticks; the longest gap between ticks, in ms."""
    from PySide6.QtCore import QTimer

    ticks: list[float] = []
    ticker = QTimer()
    ticker.setInterval(TICK_MS)
    ticker.timeout.connect(lambda: ticks.append(time.perf_counter()))
    ticker.start()
    records = window.assistant.records
    before = len(records)
    window.assistant.send("summarise this")
    _wait(lambda: len(records) > before)
    ticker.stop()
    gaps = [later - earlier for earlier, later in itertools.pairwise(ticks)]
    return (max(gaps) * 1000 if gaps else float("inf")), records[-1].flushed
