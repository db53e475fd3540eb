"""``python -m app.popout.window``: one note in its own process, own store and own assistant (R29).

The host starts this with the device token in the environment (never on the
command line). The window says in one sentence what the main window's assistant
still has of this note: not "this note", only the saved copy, by name. On close,
and on SIGTERM from the host, pending saves are flushed (bounded by
:data:`app.popout.processes.CLOSE_SAVE_WAIT_MS`) before exit.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from PySide6.QtCore import QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QVBoxLayout, QWidget

from app.assistant.inline_menu import add_edit_menu
from app.popout.place import parse_beside, placement
from app.popout.processes import CLOSE_SAVE_WAIT_MS
from app.qt_messages import drop_offscreen_noise
from app.session import SessionError, connect_workspace
from app.shutdown import close_on_signal
from app.window.banner import Banner, BannerArea, save_failed_text_on_screen
from app.window.style import follow_system_scheme
from bridge.environment import DEVICE_TOKEN_ENV
from bridge.errors import BackendError
from bridge.views import DEFAULT_VIEW, View, view_names
from renderer.ambient.backend import BackendLink, WorkspaceLink
from renderer.ambient.recovery import RecoveryStore
from renderer.ambient.store import AmbientStore
from renderer.frames.assistant.frame import AssistantFrame
from renderer.frames.focus_keeper import FocusKeeper
from renderer.frames.inbox.frame import InboxFrame
from renderer.qt import collector
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.privacy import PrivacyMarks
from renderer.qt.tasks import TaskRunner

POPOUT_BANNER = (
    "This note is in its own window: for the main window's assistant it is no longer "
    "“this note” (it can still read the saved copy by name, without what is not saved yet). "
    "Ask the assistant below about it."
)
READY_LINE = "popout ready"


class PopoutWindow(QMainWindow):
    """A popped-out note with its own store, autosave and assistant."""

    def __init__(
        self,
        link: WorkspaceLink,
        frame_id: str,
        path: str,
        view: View,
        *,
        recovery: RecoveryStore | None = None,
    ) -> None:
        super().__init__()
        self.setWindowTitle(f"{path} — Ambient Notes (popped out)")
        follow_system_scheme()  # R82: light or dark as the system is, and as it changes
        self.resize(980, 680)
        self.link = link
        self.store = AmbientStore()
        self.runner = TaskRunner(max_workers=2)
        self.save_runner = TaskRunner(max_workers=2)  # stalled saves never hold up a turn
        self.autosave = AutosaveCoordinator(self.save_runner, recovery=recovery)
        # R86: the host's .aiexclude, read through the document API; every note counts as
        # private until it arrives, so the inline command here never sends a private note.
        self.privacy = PrivacyMarks(lambda: None, self.store, self.runner, lambda: self.link, self)
        self.store.privacy = self.privacy.rules
        self._closing = False
        self._may_close = False

        centre = QWidget(self)
        centre.setObjectName("centre")
        self.banner = Banner(POPOUT_BANNER, tone="info", parent=centre)
        self.banner.label.setObjectName("popoutBanner")
        self.banners = BannerArea(centre)
        self.frame = InboxFrame(
            frame_id,
            path,
            view,
            link=link,
            store=self.store,
            runner=self.runner,
            autosave=self.autosave,
            can_pop_out=False,
            privacy=self.privacy,
        )
        if self.frame.close_button is not None:
            self.frame.close_button.setVisible(False)
        self.assistant = AssistantFrame(
            store=self.store,
            runner=self.runner,
            autosave=self.autosave,
            link=lambda: self.link,
            conversation=f"popout-{uuid.uuid4().hex[:12]}",
            title="AI Assistant",  # the banner says it is this window's own
        )
        self.frame.activated.connect(self.store.activate)
        self.assistant.activated.connect(self.store.activate)
        members = {frame.frame_id: frame for frame in (self.frame, self.assistant)}
        # R81: here too the keys go into the frame last used, never where Qt moved them.
        self.focus = FocusKeeper(self.store, self, lambda: members, self.store.activate)
        self._lay_out(centre)
        self.ask_ai_action = add_edit_menu(self, lambda: self.frame)  # R68: here too
        self.autosave.save_failed.connect(self._on_save_failed)
        self.autosave.state_changed.connect(self._on_save_state)
        self.frame.mount()
        self.privacy.start()

    def _lay_out(self, centre: QWidget) -> None:
        """The banners over the note and its assistant, side by side."""
        splitter = QSplitter(centre)
        splitter.addWidget(self.frame)
        splitter.addWidget(self.assistant)
        splitter.setSizes([600, 380])
        layout = QVBoxLayout(centre)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        layout.addWidget(self.banner)
        layout.addWidget(self.banners)
        layout.addWidget(splitter, 1)
        self.setCentralWidget(centre)

    def _on_save_failed(self, _workspace: str, path: str, message: str) -> None:
        self.banners.show_message(
            save_failed_text_on_screen(path, message),
            tone="error",
            topic="save",
        )

    def _on_save_state(self, _workspace: str, _path: str, state: str) -> None:
        if state == "saved":
            self.banners.dismiss_topic("save")

    def shutdown_workers(self) -> None:
        """Wait for running work (saves land), then stop both pools."""
        self.privacy.stop()
        self.runner.shutdown()
        self.save_runner.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._may_close:
            self.focus.stop()
            self.frame.teardown()
            self.assistant.teardown()
            super().closeEvent(event)
            return
        event.ignore()
        if self._closing:
            return
        self._closing = True
        # Save what was typed before leaving; never wait on the network past a bound.
        self.frame.withdraw()
        flush = self.autosave.flush()
        flush.finished.connect(lambda _ok: self._finish_close())
        QTimer.singleShot(CLOSE_SAVE_WAIT_MS, self, self._finish_close)

    def _finish_close(self) -> None:
        if self._may_close:
            return
        self._may_close = True
        self.close()


def place_beside(window: QMainWindow, beside: str) -> None:
    """Open next to the host window (``X,Y,W,H``) when its screen has room; else offset."""
    try:
        host = parse_beside(beside)
    except ValueError as error:
        print(error, file=sys.stderr)  # the window opens where the window manager puts it
        return
    screen = QGuiApplication.screenAt(host.center()) or QGuiApplication.primaryScreen()
    if screen is None:
        return
    layout = window.layout()
    if layout is not None:
        # The layout enforces the least size it computed when it last ran, perhaps while
        # the note loaded and a wider banner showed: bring it up to date first.
        layout.activate()
    least = max(window.minimumSizeHint().width(), window.minimumWidth())
    window.setGeometry(placement(host, screen.availableGeometry(), window.size(), least))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app.popout.window")
    parser.add_argument("--backend", required=True, metavar="URL")
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--path", required=True)
    parser.add_argument("--frame-id", required=True)
    parser.add_argument("--view", default=DEFAULT_VIEW, choices=view_names())
    parser.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help=f"read the device token here when {DEVICE_TOKEN_ENV} is not set",
    )
    parser.add_argument(
        "--beside",
        metavar="X,Y,W,H",
        help="the host window's frame: open next to it when the screen has room",
    )
    parser.add_argument(
        "--recovery-dir",
        type=Path,
        metavar="DIR",
        help="keep the text of a save that fails here (the host's recovery folder)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    token = os.environ.get(DEVICE_TOKEN_ENV, "").strip()
    if not token and args.token_file is not None and args.token_file.is_file():
        token = args.token_file.read_text(encoding="utf-8").strip()
    if not token:
        print(f"No device token: set {DEVICE_TOKEN_ENV} or pass --token-file.", file=sys.stderr)
        return 2
    application = QApplication.instance() or QApplication(sys.argv[:1])
    if QGuiApplication.platformName() == "offscreen":
        drop_offscreen_noise()  # started by a QA replay: its hints warnings are noise
    collector.hold()  # this process's cycles are collected on its GUI thread only
    backend = BackendLink(args.backend, token)
    try:
        link = connect_workspace(backend, args.workspace)
    except (SessionError, BackendError) as error:
        print(f"The popped-out note could not open: {error}", file=sys.stderr)
        backend.close()
        return 1
    recovery = RecoveryStore(args.recovery_dir) if args.recovery_dir is not None else None
    window = PopoutWindow(link, args.frame_id, args.path, cast(View, args.view), recovery=recovery)
    # For the host only: a window built inside another process (QA's) says nothing.
    window.frame.loaded.connect(lambda: print(READY_LINE, flush=True))
    if args.beside is not None:
        place_beside(window, args.beside)
    window.show()
    # The host ends children with SIGTERM: close the normal way so the last edit is saved.
    wake = close_on_signal(window, signal.SIGTERM)
    try:
        code = application.exec()
    finally:
        wake.stop()
        window.autosave.keep_unsent()
        window.shutdown_workers()
        backend.close()
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
