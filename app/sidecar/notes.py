"""What the sidecar learns about the notes, on the GUI thread, through the assistant's own paths.

:meth:`NoteAccess.capture` is the send's bounded preparation (R9–R13): it resolves
"this note" afresh, flushes pending saves within 1.5 s and reads the live editor,
through :func:`renderer.ambient.preparation.prepare_send` with the same adapters the
assistant frame uses. Saved copies and listings are read through the workspace's
key session on the app's workers (R16, R22, R28). Nothing here waits: each
operation answers through ``reply``, on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from PySide6.QtCore import QObject

from app.session import AppSession
from app.window.frame_registry import FrameRegistry
from bridge.client import BackendClient, WireKeySession
from bridge.drops import DropReason
from bridge.paths import check_workspace_path
from bridge.pointer import AmbientPointer
from bridge.privacy import NOTE_PRIVATE
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.clock import SystemClock
from renderer.ambient.preparation import FlushDone, PreparedSend, prepare_send
from renderer.qt.timers import QtTimers

Reply = Callable[[object], None]


@dataclass(frozen=True)
class CapturedNote:
    """One fresh capture: the pointer (or why there is none) and where to read its saved copy."""

    pointer: AmbientPointer | None
    dropped: DropReason | None
    link: WorkspaceLink
    absolute_path: str | None


class NoteAccess:
    """The host's notes as the sidecar sees them: its own store only, never a pop-out's (R29)."""

    def __init__(self, session: AppSession, registry: FrameRegistry, owner: QObject) -> None:
        self._session = session
        self.registry = registry
        self._timers = QtTimers(owner)
        self._clock = SystemClock()

    @property
    def workspace(self) -> str:
        return self._session.workspace

    def workspace_folder(self) -> Path | None:
        """The open workspace's folder on this machine; None with a remote backend."""
        return self._session.workspace_folder()

    def is_private(self, path: str) -> bool:
        """R86: whether ``.aiexclude`` keeps ``path`` from the assistant and connected tools."""
        return self._session.store.is_private(path)

    def absolute(self, path: str) -> str | None:
        folder = self.workspace_folder()
        return str(folder.joinpath(*PurePosixPath(path).parts)) if folder is not None else None

    def relative(self, file_path: str) -> str:
        """The workspace path of ``file_path`` (absolute in the folder, or relative).

        ValueError, in the document API's words (contract 3), for anything outside, and
        for a private note (R86).
        """
        folder = self.workspace_folder()
        candidate = file_path
        if file_path.startswith("/") and folder is not None:
            try:
                candidate = Path(file_path).relative_to(folder).as_posix()
            except ValueError:
                candidate = file_path  # outside the folder: the path rules refuse it below
        path = check_workspace_path(candidate)
        if self.is_private(path):
            raise ValueError(NOTE_PRIVATE)  # R86: no review of it, and not its text
        return path

    # -- operations (GUI thread; each answers through ``reply``) ------------------------

    def capture(self, reply: Reply) -> None:
        """The bounded send preparation, exactly as a send runs it (R9–R13)."""
        link = self._session.link

        def prepared(result: PreparedSend) -> None:
            capture = result.capture
            pointer = capture.pointer or capture.oversize_pointer  # no header here: R15 is moot
            absolute = self.absolute(pointer.path) if pointer is not None else None
            reply(CapturedNote(pointer, capture.dropped, link, absolute))

        prepare_send(
            self._session.store,
            clock=self._clock,
            timers=self._timers,
            start_flush=self._start_flush,
            on_prepared=prepared,
        )

    def _start_flush(self, done: FlushDone) -> None:
        self._session.autosave.flush().finished.connect(done)

    def read_saved(self, link: WorkspaceLink, path: str, reply: Reply) -> None:
        """The saved copy of ``path`` (str), or the BackendError that refused it."""
        self.on_worker(lambda client, key: client.get_document(key, path), reply, link)

    def list_notes(self, prefix: str | None, reply: Reply) -> None:
        """The workspace listing (list of DocumentEntry), or the BackendError that refused it."""
        self.on_worker(lambda client, key: client.list_documents(key, prefix), reply)

    def on_worker(
        self,
        action: Callable[[BackendClient, WireKeySession], object],
        reply: Reply,
        link: WorkspaceLink | None = None,
    ) -> None:
        """Run ``action`` with the key session on a worker; its value or error to ``reply``."""
        chosen = link or self._session.link
        submitted = self._session.runner.submit(
            lambda: chosen.call(action), on_done=reply, on_error=reply
        )
        if submitted is None:
            reply(RuntimeError("The app is closing."))
