"""A 5 MiB note's preview, fully drawn, against one ``setHtml`` of its HTML (R67: within 3x).

The app's side: a real :class:`~app.window.main_window.MainWindow` (embedded backend), the
note loaded in its frame, then the switch to its preview until it is drawn (the
reading in the reading process, the drawing in slices), wall time; the longest gap
of a 5 ms timer meanwhile, and while Qt lays the shown document out, is the preview's
longest stall (target 100 ms); the view lays the document out after it is shown,
as Qt does after ``setHtml``. The floor:
the same note's HTML (:func:`bridge.markdown.render_html`, read beforehand) given to
a bare ``QTextBrowser`` in one ``setHtml`` call, in the same process, pair by pair.
Each app round types one character first, so the preview is drawn anew.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from benchmarks.bench_views import _longest_gap_ms, _mount, _start, _wait, _wait_saved, note_text
from benchmarks.measure import Measurement, alternating_pairs, median, ratio

PREVIEW_TARGET = 3.0
STALL_TARGET_MS = 100.0
PAIRS = 3
MIB = 1024 * 1024
PATH = "notes/5MiB.md"


def run() -> list[Measurement]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication, QTextBrowser

    from bridge.markdown import render_html

    application = QApplication.instance() or QApplication([])
    text = note_text(5 * MIB)
    html = render_html(text)
    stalls: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-preview-") as folder:
        session, window = _start(Path(folder), {PATH: text})
        try:
            frame = _mount(window, "inbox-1", PATH)
            rounds = iter(range(PAIRS * 2))

            def app_preview() -> float:
                frame.set_view("edit")
                frame.type_text(f" {next(rounds)}", at="end")  # new text: drawn anew
                _wait_saved(frame)
                drawn: list[float] = []

                def shown_and_laid_out() -> bool:
                    if not drawn and not frame.renders.busy:
                        drawn.append(time.perf_counter())
                    return bool(drawn) and not frame.preview.laying_out

                started = time.perf_counter()
                # The stall counts the layout of the shown document to its end too, as a
                # person lives through it; the time ends where one setHtml's does, at the
                # drawn document, which is laid out after it either way.
                stalls.append(
                    _longest_gap_ms(lambda: frame.set_view("preview"), shown_and_laid_out)
                )
                return drawn[0] - started

            def one_set_html() -> float:
                browser = QTextBrowser()
                browser.resize(640, 800)
                browser.show()
                _wait(lambda: browser.isVisible())
                started = time.perf_counter()
                browser.setHtml(html)
                seconds = time.perf_counter() - started
                browser.close()
                browser.deleteLater()
                # Deleted now: waiting runs processEvents, which never deletes, and a
                # browser left alive lays its 5 MiB out from Qt's timer through the app's
                # next round, 50-130 ms at a time (a stall that was not the app's).
                QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
                return seconds

            app_seconds, floor_seconds = alternating_pairs(app_preview, one_set_html, repeat=PAIRS)
            frame.set_view("edit")
        finally:
            window.close()
            session.close()
    del application
    ratios = [ratio(a, b) for a, b in zip(app_seconds, floor_seconds, strict=True)]
    return [
        Measurement(
            name="5 MiB preview fully drawn / one setHtml of its HTML",
            median=median(ratios),
            target=PREVIEW_TARGET,
            samples=ratios,
            details={
                "app_seconds": round(median(app_seconds), 2),
                "set_html_seconds": round(median(floor_seconds), 2),
            },
        ),
        Measurement(
            name="longest GUI stall drawing a 5 MiB preview (ms)",
            median=max(stalls),
            unit="ms",
            target=STALL_TARGET_MS,
            samples=stalls,
        ),
    ]
