"""Turning the sidecar on and off (R58, R59): the menu choice, the server, the files, the count.

Off unless the person turns it on (Assistant ▸ Share the active note with other
tools, kept per user in ``sharing.json`` in the data folder, or
``--share-active-note`` for one run). On: a fresh token and a free loopback port,
the discovery files, and the window says so with the number of tools connected.
Off: the files go at once and the server disconnects every tool and stops on its
own thread; quitting (and SIGTERM, which quits) waits for that.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app.assistant.proposals import ProposalApplier
from app.session import AppSession
from app.sidecar import discovery
from app.sidecar.context import ContextFeed
from app.sidecar.diffs import DiffReviews
from app.sidecar.gui_calls import GuiCalls
from app.sidecar.notes import NoteAccess
from app.window.frame_registry import FrameRegistry
from bridge.private_files import (
    OwnFileRefused,
    parse_json,
    read_own_file,
    set_aside,
    write_atomically,
)

if TYPE_CHECKING:
    from app.sidecar.http import McpSidecarServer

SETTING_FILE: Final = "sharing.json"
MENU_TITLE: Final = "Share the active note with other tools"
SDK_MODULE: Final = "app.sidecar.http"
"""The server module; it imports the MCP SDK, which only a window that shares needs."""


class ActiveNoteSharing(QObject):
    """The sidecar of one window: at most one server at a time."""

    state_changed = Signal()
    """On, off, or the number of connected tools changed."""
    _streams = Signal(object)  # from the server thread: the session ids with open streams
    _opened = Signal(str)  # from the server thread: a tool's stream just opened
    _ended = Signal(object)  # from the server thread: that server has stopped
    _loaded = Signal()  # from the loading thread: the MCP SDK is imported
    problem = Signal(str)
    """A discovery file could not be written: what and why, for a banner (R76)."""

    def __init__(
        self,
        session: AppSession,
        registry: FrameRegistry,
        applier: ProposalApplier,
        window: QWidget,
    ) -> None:
        super().__init__(window)
        self._session = session
        self.gui = GuiCalls(self)
        self.notes = NoteAccess(session, registry, self)
        self.diffs = DiffReviews(self.notes, applier, self._notify, window)
        self.feed = ContextFeed(session.store, self.notes, self._send_context)
        self.server: McpSidecarServer | None = None
        self.connected = 0
        self._files: list[Path] = []
        self._stopping: list[McpSidecarServer] = []
        self._streams.connect(self._on_streams)
        self._opened.connect(lambda session_id: self.feed.send_now(session_id))
        self._ended.connect(self._on_ended)
        self._loaded.connect(self._on_loaded)
        self.loading = False
        """The menu asked for sharing and the MCP SDK is still being imported off this thread."""
        self._wanted = False
        self.problems: list[str] = []
        """Why a discovery file of this run is missing; the status tooltip lists them (R76)."""
        self.stale_removed = discovery.remove_stale_pointer(session.data_dir)
        """Discovery files of processes that no longer run, deleted at start (R59)."""
        self.stale_checked = False
        """True once the companion folder was cleaned (on a worker: anyone may fill it, R76)."""
        cleaning = session.runner.submit(
            discovery.remove_stale_companions,
            on_done=self._on_stale_removed,
            on_error=lambda _error: self._on_stale_removed([]),
        )
        if cleaning is None:
            self.stale_checked = True

    # -- the choice kept per user ----------------------------------------------------------

    @property
    def setting_path(self) -> Path:
        return self._session.data_dir / SETTING_FILE

    def remembered(self) -> bool:
        """The saved choice; anything unreadable counts as off, and is set aside (R92)."""
        try:
            body = parse_json(read_own_file(self.setting_path).decode("utf-8"))
        except FileNotFoundError:
            return False
        except OwnFileRefused as error:
            return self._set_setting_aside(error.reason)
        except (OSError, ValueError):
            return self._set_setting_aside("it is not this app's setting")
        if not isinstance(body, dict) or not isinstance(body.get("shareActiveNote"), bool):
            return self._set_setting_aside("it is not this app's setting")
        return body["shareActiveNote"] is True

    def _set_setting_aside(self, why: str) -> bool:
        """Move an unusable ``sharing.json`` aside and say so; sharing stays off."""
        moved = set_aside(self.setting_path)
        where = f"it was set aside as {moved.name}" if moved else "it could not be moved aside"
        self.problem.emit(
            f"The saved choice to share the active note could not be used: {why}; {where} "
            "in the app's data folder, and sharing stays off."
        )
        return False

    def choose(self, on: bool) -> None:
        """The menu: turn it on or off and keep the choice for the next start."""
        with contextlib.suppress(OSError):  # unsaved, the choice still applies to this run
            write_atomically(self.setting_path, json.dumps({"shareActiveNote": on}))
        self._wanted = on
        if not on:
            self.turn_off()
        elif SDK_MODULE in sys.modules:
            self.turn_on()
        elif not self.loading:
            # Importing the MCP SDK takes most of a second: never on the GUI thread (R67).
            self.loading = True
            self.state_changed.emit()
            threading.Thread(target=self._load_sdk, name="sidecar-load", daemon=True).start()

    def _load_sdk(self) -> None:
        try:
            importlib.import_module(SDK_MODULE)
        finally:
            with contextlib.suppress(RuntimeError):  # the window went while it loaded
                self._loaded.emit()

    def _on_loaded(self) -> None:
        self.loading = False
        if self._wanted:
            self.turn_on()
        self.state_changed.emit()

    # -- on and off ----------------------------------------------------------------------

    @property
    def is_on(self) -> bool:
        return self.server is not None

    @property
    def chosen(self) -> bool:
        """On, or about to be: the menu asked and the SDK is loading."""
        return self.is_on or (self.loading and self._wanted)

    @property
    def server_url(self) -> str | None:
        return self.server.url if self.server is not None else None

    @property
    def pointer_file(self) -> Path:
        return self._session.data_dir / discovery.POINTER_FILE

    def turn_on(self) -> None:
        if self.server is not None:
            return
        # The MCP SDK is imported only by a window that shares: it is most of a second.
        from app.sidecar.http import McpSidecarServer
        from app.sidecar.tools import TOOLS, SidecarTools

        self.gui.closed = False
        tools = SidecarTools(self.gui, self.notes, self.diffs)
        server = McpSidecarServer(
            TOOLS,
            tools.call,
            streams_changed=self._streams.emit,
            stream_opened=self._opened.emit,
        )
        server.start()
        self.server = server
        server.on_ended = lambda: self._ended.emit(server)
        self.write_listing()
        self.feed.start()
        self.state_changed.emit()

    def turn_off(self) -> None:
        """Delete the files now; the server disconnects every tool and stops on its thread."""
        self._wanted = False  # a menu choice still loading the SDK is taken back too
        server = self.server
        if server is None:
            return
        self.server = None
        self._remove_listing()
        self.feed.stop()
        self.diffs.close_all()
        self.gui.closed = True
        self._stopping.append(server)
        server.request_stop()
        self.connected = 0
        self.state_changed.emit()

    def shutdown(self) -> None:
        """At quit: off, and wait for the server threads to end (bounded)."""
        self.turn_off()
        for server in self._stopping:
            server.stop()
        self._stopping.clear()

    @property
    def stopped(self) -> bool:
        """True once no server of this window runs, not even one still stopping."""
        return self.server is None and all(s.ended.is_set() for s in self._stopping)

    def write_listing(self) -> None:
        """Write (or rewrite, after a workspace switch) the discovery files (R59)."""
        server = self.server
        if server is None:
            return
        self._remove_listing()
        folder = self.notes.workspace_folder()
        listing = discovery.Listing(
            port=server.port,
            token=server.token,
            pid=os.getpid(),
            workspace=self._session.workspace,
            workspace_path=str(folder) if folder is not None else "",
        )
        self._files, problems = discovery.write_listing(self._session.data_dir, listing)
        if problems != self.problems:
            self.problems = problems
            self.state_changed.emit()
        for problem in problems:
            self.problem.emit(problem)

    def _remove_listing(self) -> None:
        discovery.remove_own(self._files, os.getpid())
        self._files = []
        self.problems = []

    # -- from the server thread ---------------------------------------------------------

    def _on_stale_removed(self, removed: object) -> None:
        if isinstance(removed, list):
            self.stale_removed.extend(path for path in removed if isinstance(path, Path))
        self.stale_checked = True

    def _on_streams(self, open_sessions: object) -> None:
        if self.server is None:
            return
        count = len(open_sessions) if isinstance(open_sessions, set) else 0
        if count != self.connected:
            self.connected = count
            self.state_changed.emit()

    def _on_ended(self, server: object) -> None:
        self._stopping = [running for running in self._stopping if running is not server]
        self.state_changed.emit()

    def _send_context(self, context: dict[str, Any], session_id: str | None) -> None:
        if self.server is not None:
            self.server.notify("ide/contextUpdate", context, session_id)

    def _notify(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        if self.server is not None:
            self.server.notify(method, params, session_id)
