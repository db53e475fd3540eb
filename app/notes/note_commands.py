"""New note (Ctrl+N, R47): create the note through the document API, then open it.

The note is written empty off the GUI thread (the same worker plumbing as every
backend call); a path that already holds a note is opened as it is, never
overwritten. The outcome comes back on :class:`NoteCreation`'s signals.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.session import AppSession
from app.window.banner import Banners
from app.window.frame_registry import FrameRegistry
from bridge.errors import BackendError
from bridge.paths import WorkspacePathError, check_workspace_path
from renderer.frames.inbox.frame import InboxFrame

NoteOpener = Callable[[str, str | None], InboxFrame]
"""Opens a workspace path in an Inbox frame (named as given), or focuses the one showing it."""


class NoteCreation(QObject):
    """One New note request: ``opened`` with the Inbox frame, or ``failed`` with why."""

    opened = Signal(object)
    failed = Signal(str)

    def __init__(self, path: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.existed = False
        self.frame: InboxFrame | None = None
        self.error: str | None = None

    def _fail(self, message: str) -> None:
        self.error = message
        self.failed.emit(message)


NOTE_SUFFIX = ".md"


def note_path(typed: str) -> str:
    """The path a typed name stands for: a name without an extension is a Markdown note."""
    path = typed.strip()
    name = path.rpartition("/")[2]
    if name and "." not in name.lstrip("."):
        return path + NOTE_SUFFIX
    return path


class NoteCommands:
    """File ▸ New note… over the open workspace: the note is created, then opened."""

    def __init__(
        self,
        session: AppSession,
        registry: FrameRegistry,
        banners: Banners,
        open_note: NoteOpener,
        parent: QObject,
    ) -> None:
        self._session = session
        self._registry = registry
        self._banners = banners
        self._open_note = open_note
        self._parent = parent

    def create_note(self, path: str, frame_id: str | None = None) -> NoteCreation:
        """Create ``path`` (empty) in the open workspace and open it in an Inbox frame.

        ``ideas`` becomes ``ideas.md``: every view of a note reads it as Markdown.
        """
        path = note_path(path)
        creation = NoteCreation(path, self._parent)
        try:
            check_workspace_path(path)
        except WorkspacePathError as error:
            message = f"“{path}” cannot be a note's path: {error}"
            self._banners.show_message(message, tone="error", topic="new-note")
            creation.error = message
            return creation  # nothing was started; the caller reads ``error``
        self._start(creation, frame_id)
        return creation

    def _start(self, creation: NoteCreation, frame_id: str | None) -> None:
        session = self._session
        banners = self._banners
        path = creation.path
        link = session.link

        def write() -> bool:
            listed = link.call(lambda client, key: client.list_documents(key, prefix=path))
            if any(info.path == path for info in listed):
                return False
            link.call(lambda client, key: client.put_document(key, path, ""))
            return True

        def written(created: object) -> None:
            creation.existed = created is False
            if session.link is not link:
                creation._fail(
                    f"{path} was created in workspace “{link.workspace}”, which is closed."
                )
                return
            try:
                frame = self._open_note(path, frame_id)
            except ValueError as error:
                banners.show_message(str(error), tone="error", topic="new-note")
                creation._fail(str(error))
                return
            if creation.existed:
                banners.show_message(
                    f"{path} already exists; it is open as it was.", topic="new-note"
                )
            for browser in self._registry.browsers():
                browser.refresh()
            creation.frame = frame
            creation.opened.emit(frame)

        def refused(error: BaseException) -> None:
            reason = error.message if isinstance(error, BackendError) else "unexpected problem"
            message = f"{path} could not be created: {reason}"
            banners.show_message(message, tone="error", topic="new-note")
            creation._fail(message)

        if session.runner.submit(write, on_done=written, on_error=refused) is None:
            creation.error = "The app is closing."
