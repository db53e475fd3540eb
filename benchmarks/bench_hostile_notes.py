"""Hostile notes drawn in the real window: the GUI thread's longest stall (R91, target 100 ms).

The third audit's notes, at full size: each is one top-level block that Qt, handed
it whole, laid out for seconds to minutes. For each, a real
:class:`~app.main_window.MainWindow` (embedded backend) switches a loaded frame to
its preview, then to the todo view and the map; the longest gap of a 5 ms timer from
each switch until the view is drawn and laid out to its end is the stall. The same
timer's longest gap with the window idle is the floor, in the details.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from benchmarks.bench_views import _idle_stall, _longest_gap_ms, _mount, _start
from benchmarks.measure import Measurement

if TYPE_CHECKING:
    from renderer.frames.inbox import InboxFrame

STALL_TARGET_MS: Final = 100.0
DRAW_TIMEOUT_SECONDS: Final = 300.0


def _columns(count: int) -> str:
    return "|" + "a|" * count + "\n|" + "-|" * count + "\n|" + "1|" * count + "\n"


HOSTILE_NOTES: Final[dict[str, Callable[[], str]]] = {
    "50,000 nested quotes": lambda: "> " * 50_000 + "x",
    "a 100,000-row table": lambda: "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 100_000,
    "50,000 emphasis runs": lambda: "**_" * 50_000,
    "a 20,000-column table": lambda: _columns(20_000),
    "a 100 KB autolink": lambda: "https://example.com/" + "a" * 100_000,
    "50,000 entity starts": lambda: "&#" * 50_000,
    "a 1 MB one-line table": lambda: "| a | b |\n|---|---|\n| " + "x" * 1_000_000 + " | y |\n",
}
"""The audit's notes (issue 45), by what they are: the tests draw the same ones."""


def _drawn(frame: InboxFrame) -> bool:
    return not frame.renders.busy and not frame.preview.laying_out


def run() -> list[Measurement]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    application = QApplication.instance() or QApplication([])
    notes = {
        f"notes/hostile-{index}.md": make() for index, make in enumerate(HOSTILE_NOTES.values())
    }
    results: list[Measurement] = []
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as folder:
        session, window = _start(Path(folder), notes)
        try:
            idle = _idle_stall()
            for index, label in enumerate(HOSTILE_NOTES):
                frame = _mount(window, f"inbox-{index}", f"notes/hostile-{index}.md")
                stalls = []
                for view in ("preview", "todo", "mindmap"):
                    stalls.append(
                        _longest_gap_ms(
                            functools.partial(frame.set_view, view),
                            functools.partial(_drawn, frame),
                        )
                    )
                frame.set_view("edit")
                window.driver.close_frame(frame.frame_id)
                results.append(
                    Measurement(
                        name=f"longest GUI stall drawing {label} (ms)",
                        median=max(stalls),
                        unit="ms",
                        target=STALL_TARGET_MS,
                        samples=stalls,
                        details={"idle_stall_ms": round(idle, 1)},
                    )
                )
        finally:
            window.close()
            session.close()
    del application
    return results
