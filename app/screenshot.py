"""``python -m app.screenshot FILE.png``: render the demo window after one turn, for the README.

Runs offscreen against a throwaway embedded backend and demo workspace, so the
user's own data folder is never touched. With ``--model-base-url`` and ``--model``
the embedded backend answers with that model (contract 7); ``--first-tool`` makes
the model's first request of the turn name that tool, so a very small model gives
a repeatable picture of a tool call (the app itself always lets the model choose).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

SETTLE_TIMEOUT_MS = 90_000  # a small local model on a busy CPU takes a while to load


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.screenshot")
    parser.add_argument("output", type=Path, help="the PNG to write")
    parser.add_argument("--message", default="what's still open here?")
    parser.add_argument("--model-base-url", metavar="URL")
    parser.add_argument("--model", metavar="NAME")
    parser.add_argument("--first-tool", default="auto", metavar="NAME")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow
    from app.session import AppSession
    from bridge.environment import MODEL_BASE_URL_ENV, MODEL_ENV
    from renderer.frames.turn_view import TurnView

    if args.model_base_url and args.model:
        os.environ[MODEL_BASE_URL_ENV] = args.model_base_url
        os.environ[MODEL_ENV] = args.model

    application = QApplication.instance() or QApplication(sys.argv[:1])

    def settle(ready: Callable[[], bool]) -> None:
        loop = QEventLoop()
        poll = QTimer()
        poll.timeout.connect(lambda: loop.quit() if ready() else None)
        poll.start(20)
        QTimer.singleShot(SETTLE_TIMEOUT_MS, loop.quit)
        loop.exec()
        poll.stop()

    with tempfile.TemporaryDirectory(prefix="ambient-screenshot-") as folder:
        session = AppSession.start(
            backend_url=None,
            workspace_dir=None,
            data_dir=Path(folder),
            model_first_tool_choice=args.first_tool,
        )
        try:
            window = MainWindow(session)
            window.resize(1360, 820)
            window.show()
            frames = window.inbox_frames()
            settle(lambda: all(frame.is_loaded for frame in frames))
            frames[1].set_view("mindmap")
            window.activate_frame(frames[0].frame_id)
            frames[0].select(0, 7)
            window.assistant.send(args.message)
            settle(lambda: bool(window.assistant.records))
            turns = window.assistant.transcript.findChildren(TurnView)
            if turns:
                turns[-1].details_button.setChecked(True)
            settle(lambda: True)
            args.output.parent.mkdir(parents=True, exist_ok=True)
            saved = window.grab().save(str(args.output))
            window.close()
        finally:
            session.close()
    del application
    if not saved:
        print(f"Could not write {args.output}.", file=sys.stderr)
        return 1
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
