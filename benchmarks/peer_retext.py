"""ReText's side of ``make bench-peer``: run by the peer environment's Python, never the project's.

ReText 8.1.0 (PyQt6) is started through its own ``main()``, as its ``retext FILE``
command does, with three things added from outside and nothing of its own changed:

- its window is given the size the app's window has (``--size``) as it is made, so
  both paint the same area;
- an application-wide event filter sees each paint of the editor's viewport; the first
  one after the file's text is in the editor is "text painted", and ``ready`` is
  printed once that paint is over (the next turn of the event loop, where the app
  prints its own ``ready`` after ``repaint()`` returns);
- in the ``preview`` mode, the preview is switched on as its menu item does
  (Ctrl+E's action) and the seconds until its ``setHtml`` returned and the preview was
  painted are printed (ReText's own 500 ms wait before it converts counts: a person
  waits it too).

    python benchmarks/peer_retext.py start|idle|preview FILE --size 1360x820

``start`` prints ``ready`` and closes the window; ``idle`` prints the PSS of ReText's
processes (its converter process and multiprocessing's resource tracker included)
after :data:`benchmarks.measure.SETTLE_MS`; ``preview`` prints seconds.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # for benchmarks.measure: the standard library only

from benchmarks.measure import SETTLE_MS, process_tree_bytes  # noqa: E402

USAGE = "usage: peer_retext.py start|idle|preview FILE --size WIDTHxHEIGHT"


def main(arguments: list[str]) -> None:
    if len(arguments) != 4 or arguments[0] not in ("start", "idle", "preview"):
        raise SystemExit(USAGE)
    mode, note, _, size = arguments
    width, height = (int(part) for part in size.split("x"))

    from PyQt6.QtCore import QEvent, QObject, QTimer
    from PyQt6.QtWidgets import QApplication, QTextEdit, QWidget
    from ReText import __main__ as retext
    from ReText import tab as retext_tab
    from ReText.editor import ReTextEdit

    state: dict[str, Any] = {"painted": False, "window": None}

    def on_painted() -> None:
        window = state["window"]
        if mode == "start":
            print("ready", flush=True)
            window.close()
        elif mode == "idle":
            QTimer.singleShot(SETTLE_MS, lambda: measure_idle(window))
        else:
            QTimer.singleShot(0, lambda: start_preview(window))

    def measure_idle(window: Any) -> None:
        import os

        print(process_tree_bytes(os.getpid()), flush=True)
        window.close()

    def start_preview(window: Any) -> None:
        state["preview_started"] = time.perf_counter()
        window.actionPreview.trigger()

    class PaintWatch(QObject):  # type: ignore[misc]
        def eventFilter(self, watched: Any, event: Any) -> bool:
            if (
                not state["painted"]
                and event.type() == QEvent.Type.Paint
                and isinstance(watched, QWidget)
                and isinstance(watched.parentWidget(), ReTextEdit)
                and watched is watched.parentWidget().viewport()
                and not watched.parentWidget().document().isEmpty()
            ):
                state["painted"] = True
                QTimer.singleShot(0, on_painted)  # after this paint is done
            return False

    watch = PaintWatch()
    original_window = retext.ReTextWindow

    class SizedWindow(original_window):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.resize(width, height)
            state["window"] = self
            QApplication.instance().installEventFilter(watch)

    original_update = retext_tab.ReTextTab.updatePreviewBox

    def update_preview_box(tab: Any) -> None:
        original_update(tab)
        started = state.get("preview_started")
        if started is None or not isinstance(tab.previewBox, QTextEdit):
            return
        tab.previewBox.viewport().repaint()
        print(time.perf_counter() - started, flush=True)
        state["preview_started"] = None
        # Closed from the event loop, not from inside ReText's own slot.
        QTimer.singleShot(0, state["window"].close)

    retext.ReTextWindow = SizedWindow
    retext_tab.ReTextTab.updatePreviewBox = update_preview_box
    sys.argv = [sys.argv[0], "--new-window", note]
    retext.main()


if __name__ == "__main__":
    main(sys.argv[1:])
