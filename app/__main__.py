"""``python -m app``: the desktop app (``python -m app scenario …`` runs QA scenarios)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from bridge.errors import BackendError

if TYPE_CHECKING:
    from app.session import AppSession

READY_POLL_MS = 10
WINDOW_SHOWN = "window"
"""Printed with --quit-when-ready once the starting window is painted (start-up timing)."""
READY = "ready"
"""Printed with --quit-when-ready once the first note is shown."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app",
        description="Ambient Notes: notes with an assistant that knows which note is “this note”.",
        epilog="QA scenarios: python -m app scenario run FILE... (see --help there).",
    )
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="a folder to open as the workspace (with --backend: the workspace's name)",
    )
    parser.add_argument(
        "--backend", metavar="URL", help="use a running backend instead of an embedded one"
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="where the embedded backend keeps its data (default: the user data folder)",
    )
    parser.add_argument(
        "--model-base-url",
        metavar="URL",
        help="the embedded backend answers with the model at this OpenAI-compatible endpoint",
    )
    parser.add_argument("--model", metavar="NAME", help="the model id at --model-base-url")
    parser.add_argument(
        "--share-active-note",
        action="store_true",
        help="share which note is active with other tools over MCP for this run (R58)",
    )
    parser.add_argument(
        "--quit-after",
        type=float,
        metavar="SECONDS",
        help="quit on its own after this many seconds (for smoke tests)",
    )
    parser.add_argument(
        "--quit-when-ready",
        action="store_true",
        help="print 'window' once a window shows and 'ready' once the first note does, then quit"
        " (for start-up timing)",
    )
    return parser


def show_starting_window() -> QWidget:
    """A window at once, before the backend has loaded: the app is seen to start (R67)."""
    starting = QLabel("Opening Ambient Notes…")
    starting.setWindowTitle("Ambient Notes")
    starting.setMargin(40)
    starting.show()
    QApplication.processEvents()  # painted now: what follows keeps the thread busy a while
    return starting


def quit_when_ready(window: QWidget, first_note_shown: Callable[[], bool]) -> QTimer:
    """Print ``ready`` once ``first_note_shown()``, then close ``window``."""
    timer = QTimer(window)
    timer.setInterval(READY_POLL_MS)

    def check() -> None:
        if first_note_shown():
            timer.stop()
            try:
                print(READY, flush=True)
            finally:  # a reader that went away must not keep the app running
                window.close()

    timer.timeout.connect(check)
    timer.start()
    return timer


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["scenario"]:
        from app.scenario.cli import main as scenario_main

        return scenario_main(arguments[1:])
    args = build_parser().parse_args(arguments)
    if args.quit_after is not None and args.quit_after < 0:
        print("--quit-after must be zero or more seconds.", file=sys.stderr)
        return 2

    application = QApplication.instance() or QApplication(sys.argv[:1])
    application.setApplicationName("Ambient Notes")
    starting = show_starting_window()
    if args.quit_when_ready:
        print(WINDOW_SHOWN, flush=True)
    # The backend and the frames load after the window is up: they take most of start-up.
    from app.session import SessionError

    try:
        session = start_session(args)
    except (SessionError, BackendError, OSError) as error:
        starting.close()
        print(f"Ambient Notes could not start: {error}", file=sys.stderr)
        return 1
    try:
        return run_window(application, session, args, starting)
    finally:
        session.close()


def start_session(args: argparse.Namespace) -> AppSession:
    """The backend reached or started, and the workspace of the command line opened."""
    from app.demo import default_data_dir
    from app.layout_state import LayoutStore
    from app.session import AppSession

    # Embedded backend: --workspace is a folder served as the workspace. A remote backend
    # keeps its own folders, so there --workspace names the workspace (a path's last part).
    workspace_dir = Path(args.workspace) if args.workspace and args.backend is None else None
    workspace_name = Path(args.workspace).name if args.workspace and args.backend else None
    if not args.workspace:
        # R45: without --workspace the app opens the workspace it was quit in.
        workspace_name = LayoutStore(args.data_dir or default_data_dir()).last_workspace()
    return AppSession.start(
        backend_url=args.backend,
        workspace_dir=workspace_dir,
        data_dir=args.data_dir,
        workspace=workspace_name,
        model_base_url=args.model_base_url,
        model=args.model,
    )


def run_window(
    application: QCoreApplication,
    session: AppSession,
    args: argparse.Namespace,
    starting: QWidget,
) -> int:
    """Show the main window in place of the starting one and run until it closes."""
    from app.main_window import MainWindow
    from app.popout_place import fit_to_screen
    from app.shutdown import QUIT_SIGNALS, close_on_signal

    window = MainWindow(session, demo_layout=True)
    if not window.isMaximized():  # a maximised window kept (R80) fills its screen already
        fit_to_screen(window)  # R46: all of it on a 1280×800 screen
    window.show()
    # Ctrl+C or SIGTERM closes the window the normal way (saves land first, shared
    # files go); set before sharing is announced, so a signal after it is handled.
    wake = close_on_signal(window, *QUIT_SIGNALS)
    if args.share_active_note:
        window.sharing.turn_on()
        sharing = window.sharing
        print(f"sharing the active note at {sharing.server_url} ({sharing.pointer_file})")
    starting.close()
    if args.quit_when_ready:
        quit_when_ready(window, lambda: any(f.is_loaded for f in window.driver.inbox_frames()))
    if args.quit_after is not None:
        QTimer.singleShot(round(args.quit_after * 1000), window.close)
    code = application.exec()
    wake.stop()
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
