"""``python -m app``: the desktop app (``python -m app scenario …`` runs QA scenarios)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from renderer.qt.module_sources import check_sources_uncached

# Before the app's own modules load: PySide6 would keep the source of each in memory.
check_sources_uncached()
# pydantic looks through every installed package's entry points for plugins when it
# builds its first model (20 ms or more before the first paint); the app uses none.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from bridge.errors import BackendError  # noqa: E402

if TYPE_CHECKING:
    from app.session import AppSession
    from app.window.main_window import MainWindow
    from renderer.frames.inbox.frame import InboxFrame

WINDOW_SHOWN = "window"
"""Printed with --quit-when-ready once the starting window is painted (start-up timing)."""
READY = "ready"
"""Printed with --quit-when-ready once the first note's text is painted."""
BACKEND_START_LATEST_MS = 1000
"""The embedded backend starts once the first note is painted, and no later than this."""


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


def when_first_note_shown(window: MainWindow, then: Callable[[], None]) -> None:
    """Call ``then()`` once an Inbox frame's text is painted, or soon with no note open."""
    frames = window.driver.inbox_frames()
    called = False

    def shown(frame: InboxFrame | None) -> None:
        nonlocal called
        if called:
            return
        called = True
        if frame is not None:
            frame.repaint()  # painted now, not at the event loop's next turn
        then()

    loaded = [frame for frame in frames if frame.is_loaded]
    if not frames or loaded:
        first = loaded[0] if loaded else None
        QTimer.singleShot(0, window, lambda: shown(first))
        return
    for frame in frames:
        frame.loaded.connect(partial(shown, frame))


def quit_when_ready(window: QWidget) -> Callable[[], None]:
    """What prints ``ready`` once the first note is shown, then closes ``window``."""

    def ready() -> None:
        try:
            print(READY, flush=True)
        finally:  # a reader that went away must not keep the app running
            window.close()

    return ready


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
    # No window before the main one (issue 38: a small blank window flashed for half a
    # second): the main window is the first, and the backend loads after it is up.
    from app.session import SessionError

    try:
        session = start_session(args)
    except (SessionError, BackendError, OSError) as error:
        print(f"Ambient Notes could not start: {error}", file=sys.stderr)
        return 1
    try:
        return run_window(application, session, args)
    finally:
        session.close()


def start_session(args: argparse.Namespace) -> AppSession:
    """The backend reached (a remote one) or about to start, the command line's workspace chosen.

    An embedded backend is started by :func:`run_window` once the first note shows.
    """
    from app.session import AppSession, SessionOptions
    from app.workspace.demo import default_data_dir
    from app.workspace.layout_state import LayoutStore

    # Embedded backend: --workspace is a folder served as the workspace. A remote backend
    # keeps its own folders, so there --workspace names the workspace (a path's last part).
    workspace_dir = Path(args.workspace) if args.workspace and args.backend is None else None
    workspace_name = Path(args.workspace).name if args.workspace and args.backend else None
    if not args.workspace:
        # R45: without --workspace the app opens the workspace it was quit in.
        workspace_name = LayoutStore(args.data_dir or default_data_dir()).last_workspace()
    return AppSession.begin(
        SessionOptions(
            backend_url=args.backend,
            workspace_dir=workspace_dir,
            data_dir=args.data_dir,
            workspace=workspace_name,
            model_base_url=args.model_base_url,
            model=args.model,
        )
    )


def run_window(
    application: QCoreApplication,
    session: AppSession,
    args: argparse.Namespace,
) -> int:
    """Show the main window and run until it closes."""
    from app.shutdown import QUIT_SIGNALS, close_on_signal
    from app.window.main_window import MainWindow

    window = MainWindow(session, demo_layout=True)
    show_main_window(window)
    if args.quit_when_ready:
        print(WINDOW_SHOWN, flush=True)
    # Ctrl+C or SIGTERM closes the window the normal way (saves land first, shared
    # files go); set before sharing is announced, so a signal after it is handled.
    wake = close_on_signal(window, *QUIT_SIGNALS)
    if args.share_active_note:
        window.sharing.turn_on()
        sharing = window.sharing
        print(f"sharing the active note at {sharing.server_url} ({sharing.pointer_file})")
    failed = watch_backend_start(window, session)
    ready = quit_when_ready(window) if args.quit_when_ready else None

    def first_note_shown() -> None:
        # Issue 33: the backend's imports and start come after the note, not before it.
        session.start_backend()
        if ready is not None:
            ready()

    when_first_note_shown(window, first_note_shown)
    QTimer.singleShot(BACKEND_START_LATEST_MS, window, session.start_backend)
    if args.quit_after is not None:
        QTimer.singleShot(round(args.quit_after * 1000), window.close)
    code = application.exec()
    wake.stop()
    return 1 if failed else int(code)


def show_main_window(window: QWidget) -> None:
    """Show the main window where it was kept (R80), all of it on its screen (R46)."""
    from app.popout.place import fit_to_screen

    if not window.isMaximized():  # a maximised window kept (R80) fills its screen already
        fit_to_screen(window)
    window.show()


def watch_backend_start(window: QWidget, session: AppSession) -> list[BaseException]:
    """Close ``window`` saying why if the embedded backend does not start; the failure kept."""
    failed: list[BaseException] = []

    def finished() -> None:
        error = session.start_failure
        if error is not None:
            failed.append(error)
            print(f"Ambient Notes could not start: {error}", file=sys.stderr)
            window.close()

    session.started.finished.connect(finished)
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
