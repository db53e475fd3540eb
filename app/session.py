"""One running app: the backend (embedded or remote), the workspace, the store and the workers.

:meth:`AppSession.start` may block on the network: it runs before the window
exists. :meth:`AppSession.begin` does not wait for an embedded backend: the
window shows the first note read from the workspace folder, and
:meth:`AppSession.start_backend` then imports and starts the backend on a
thread of its own (issue 33). Everything after that goes through
:attr:`AppSession.runner` so the GUI thread never waits.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot

from app.assistant.settings import AssistantSettingsStore, apply_saved_assistant
from app.popout.processes import PopoutManager
from app.workspace.demo import (
    DEMO_WORKSPACE,
    default_data_dir,
    install_demo_workspace,
    workspace_id_for,
)
from bridge.client import BackendClient, WireKeySession
from bridge.documents import etag_of
from bridge.environment import DEVICE_TOKEN_ENV, DEVICE_TOKEN_FILE
from bridge.errors import BackendError, BackendUnreachable
from bridge.paths import WORKSPACE_ID_INVALID, is_workspace_id
from bridge.privacy import WorkspacePrivacy
from bridge.private_files import make_private_folder
from renderer.ambient.backend import BackendLink, FolderRead, WorkspaceLink
from renderer.ambient.recovery import RECOVERY_FOLDER, RecoveryStore
from renderer.ambient.store import AmbientStore
from renderer.frames.inbox.rendering import remove_left_segments
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.privacy import PENDING, PrivacyMarks, read_remote_rules
from renderer.qt.tasks import TaskRunner
from workers.settings import Settings

if TYPE_CHECKING:
    # Imported when the backend starts, on its own thread: FastAPI, SQLAlchemy and uvicorn
    # are most of start-up and must not stand between the person and the first note.
    from workers.server import EmbeddedServer

DEFAULT_WORKSPACE = "notes"
DEFAULT_CONVERSATION = "main"
"""The assistant's conversation in each workspace; kept by the backend across restarts (R34)."""
NOT_STARTED = "The assistant service did not start: {reason}"


@dataclass(frozen=True, kw_only=True)
class SessionOptions:
    """How a session starts: which backend, which workspace, and the embedded backend's settings."""

    backend_url: str | None
    """A remote backend's address; None runs the embedded one on loopback."""
    workspace_dir: Path | None
    """A folder to open as the workspace (named after it, or :attr:`workspace`)."""
    data_dir: Path | None
    """The app's own files; None: the platform's usual place."""
    save_delay_seconds: float = 0.0
    load_delay_seconds: float = 0.0
    demo: bool = True
    """With no folder, the demo notes are copied on first run."""
    workspace: str | None = None
    model_first_tool_choice: str = "auto"
    model_base_url: str | None = None
    """With :attr:`model`, the embedded backend's model as AMBIENT_MODEL_BASE_URL and
    AMBIENT_MODEL choose it (contract 7), which fill in what is not given."""
    model: str | None = None


class SessionError(RuntimeError):
    """The app could not start: the message says why in plain language."""


class BackendStart(QObject):
    """Tells the GUI thread once the embedded backend answers, or never will."""

    finished = Signal()
    """Emitted on the GUI thread once the start is over: read :attr:`AppSession.start_failure`."""
    _over = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # Queued: the starting thread reports, the GUI thread hears it from its event loop.
        self._over.connect(self._relay, Qt.ConnectionType.QueuedConnection)

    def report(self) -> None:
        """Any thread: the start is over, one way or the other."""
        self._over.emit()

    @Slot()
    def _relay(self) -> None:
        self.finished.emit()


class AppSession:
    """Owns the backend link, the current workspace, the store, autosave and pop-outs."""

    def __init__(
        self,
        *,
        backend: BackendLink,
        link: WorkspaceLink,
        data_dir: Path,
        settings: Settings | None,
        demo: bool,
    ) -> None:
        self.backend = backend
        self.link = link
        self.data_dir = data_dir
        self.server: EmbeddedServer | None = None
        """The embedded backend once it runs (None before, and with a remote one)."""
        self._settings = settings
        self.demo = demo
        self.store = AmbientStore()
        self._privacy: dict[Path, WorkspacePrivacy] = {}
        self.runner = TaskRunner()
        self.privacy_marks = PrivacyMarks(
            self.workspace_privacy, self.store, self.runner, lambda: self.link
        )
        self.store.privacy = self.privacy_marks.rules
        """R86: the locks, the marking and the watch on ``.aiexclude`` (started by the window)."""
        # Saves get workers of their own: stalled saves must never hold up a turn (R12).
        self.save_runner = TaskRunner()
        # Text whose save fails is kept in the data folder: closing, switching or quitting
        # while the backend refuses a save loses nothing.
        self.recovery = RecoveryStore(data_dir / RECOVERY_FOLDER)
        # R92: a note's text an earlier app left in shared memory when it was killed.
        remove_left_segments()
        self.autosave = AutosaveCoordinator(self.save_runner, recovery=self.recovery)
        self.popouts = PopoutManager(backend, self.autosave)
        self.assistant_settings = AssistantSettingsStore(data_dir)
        self.assistant_problem: str | None = None
        """Why the saved assistant settings could not be applied at start, if they could not."""
        self.started = BackendStart()
        self.start_failure: BaseException | None = None
        """Why the embedded backend did not start, once :attr:`started` has finished."""
        self._starter: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False
        if not backend.answering:
            # Work that calls the backend waits GUI-side, leaving the workers free for
            # notes read from the folder meanwhile (issue 33).
            self.runner.hold()
            self.started.finished.connect(self.runner.release)

    @classmethod
    def start(cls, options: SessionOptions) -> AppSession:
        """Start (or reach) the backend, open the workspace and a key session; blocks until then."""
        session = cls.begin(options)
        session.start_backend()
        session.wait_until_started()
        session.runner.release()  # answering already: no need to wait for the event loop
        return session

    @classmethod
    def begin(cls, options: SessionOptions) -> AppSession:
        """What :meth:`start` does, except that an embedded backend is not started yet.

        The session is usable at once: its calls wait on worker threads until
        :meth:`start_backend` has the backend answering, and notes read from the
        workspace folder meanwhile (issue 33). A remote backend is reached here, as
        :meth:`start` does.
        """
        workspace_dir, backend_url = options.workspace_dir, options.backend_url
        data_dir = (options.data_dir or default_data_dir()).resolve()
        make_private_folder(data_dir)  # R64: 0700, and every file in it 0600
        workspace_id, roots = _choose_workspace(workspace_dir, options.workspace, demo=options.demo)
        # The demo notes belong to the embedded backend's own folders only.
        demo = options.demo and workspace_dir is None and workspace_id == DEMO_WORKSPACE
        if backend_url is not None:
            token = _remote_token(data_dir)
            backend = BackendLink(backend_url, token)
            link = _connect_or_close(backend, workspace_id)
            try:
                rules = read_remote_rules(link)  # R86: known before a send can name a note
            except BackendError:
                rules = PENDING  # every note private until the watch reads it
            remote = cls(backend=backend, link=link, data_dir=data_dir, settings=None, demo=False)
            remote.privacy_marks.known(workspace_id, rules)
            return remote
        settings = Settings(
            data_dir=data_dir,
            save_delay_seconds=options.save_delay_seconds,
            load_delay_seconds=options.load_delay_seconds,
            workspace_roots=roots,
            model_first_tool_choice=options.model_first_tool_choice,
            model_base_url=options.model_base_url,
            model=options.model,
        )
        if demo:  # before the folder is read: the first note shown may be a demo note
            install_demo_workspace(settings.workspaces_dir)
        backend = BackendLink.starting()
        reader = folder_reader(settings, workspace_id)
        session: AppSession | None = None

        def read_or_start(path: str) -> tuple[str, str] | None:
            # A note the folder can't give waits for the backend: start it now, not later.
            found = reader(path)
            if found is None and session is not None:
                session.start_backend()
            return found

        link = WorkspaceLink.opening(backend, workspace_id, read_or_start)
        session = cls(backend=backend, link=link, data_dir=data_dir, settings=settings, demo=demo)
        return session

    # -- the embedded backend's start (issue 33) -------------------------------------

    def start_backend(self) -> None:
        """Import and start the embedded backend on a thread of its own; once only, any thread.

        The GUI thread keeps running meanwhile: it must not import the backend's modules
        itself until :attr:`started` has finished (the import lock would hold it).
        """
        with self._start_lock:
            if self._starter is not None or self._settings is None or self.backend.answering:
                return
            self._starter = threading.Thread(
                target=self._run_backend, args=(self._settings,), name="backend-start", daemon=True
            )
            self._starter.start()

    def wait_until_started(self) -> None:
        """Block until the embedded backend answers; raise what stopped it (not on the GUI)."""
        starter = self._starter
        if starter is not None:
            starter.join()
        if self.start_failure is not None:
            raise self.start_failure

    @property
    def closed(self) -> bool:
        """True once :meth:`close` began: long background reads may stop (any thread)."""
        return self._closed

    @property
    def starting(self) -> bool:
        """True until the backend answers (or failed to): saves and loads wait meanwhile."""
        return not self.backend.answering and self.start_failure is None

    def _run_backend(self, settings: Settings) -> None:
        """On the starting thread: the server, the user's assistant, the key session; then go."""
        server: EmbeddedServer | None = None
        try:
            from workers.server import EmbeddedServer

            server = EmbeddedServer(settings)
            try:
                server.start()
            except ValueError as error:  # settings naming no usable assistant: plain words
                raise SessionError(str(error)) from error
            # One client of its own: the other threads' calls go ahead only once the
            # user's assistant is applied and the key session held, so none sees less.
            with BackendClient(server.url, server.device_token) as client:
                # The user's settings override the start ones (contract 7, R37).
                self.assistant_problem = apply_saved_assistant(client, self.assistant_settings)
                key = _open_workspace(client, self.link.workspace)
            self.server = server
            self.backend.answers(server.url, server.device_token)
            self.link.opened(key)
        except BaseException as error:
            self.start_failure = error
            if server is not None:
                server.stop()
            reason = error.message if isinstance(error, BackendError) else str(error)
            failure = BackendUnreachable(NOT_STARTED.format(reason=reason))
            self.backend.failed(failure)
            self.link.failed(failure)
        finally:
            self.started.report()

    # -- what the rest of the app reads ------------------------------------------------

    @property
    def device_token(self) -> str:
        """The backend's device token, for the app's own helper processes (pop-outs, QA)."""
        return self.backend.device_token

    @property
    def workspace(self) -> str:
        return self.link.workspace

    def workspace_folder(self) -> Path | None:
        """The open workspace's folder on this machine; None with a remote backend."""
        settings = self._settings
        if settings is None:
            return None
        return workspace_root(settings, self.workspace).resolve()

    def workspace_privacy(self) -> WorkspacePrivacy | None:
        """The open workspace's ``.aiexclude`` (R86); None with a remote backend."""
        folder = self.workspace_folder()
        if folder is None:
            return None
        watcher = self._privacy.get(folder)
        if watcher is None:
            watcher = self._privacy.setdefault(folder, WorkspacePrivacy(folder))
        return watcher

    @property
    def backend_url(self) -> str:
        return self.backend.base_url

    def conversation_for(self, workspace: str) -> str:
        """The assistant's conversation in ``workspace``: the same one on every start (R34)."""
        return DEFAULT_CONVERSATION

    def client(self) -> BackendClient:
        """A client for the calling thread (use from workers; the GUI thread never calls out)."""
        return self.backend.client()

    def close(self) -> None:
        """Stop pop-outs, let running saves finish, close clients, stop the embedded server.

        A backend still starting is waited for, so saves queued meanwhile land. Saves still
        waiting behind a running one are kept in the recovery folder.
        """
        if self._closed:
            return
        self._closed = True
        self.privacy_marks.stop()
        self.popouts.close_all()
        starter = self._starter
        if starter is not None:
            starter.join()
        elif self.starting:  # never started: calls waiting for it give up
            never = BackendUnreachable(NOT_STARTED.format(reason="the app closed first"))
            self.backend.failed(never)
            self.link.failed(never)
        self.autosave.keep_unsent()
        self.runner.shutdown()
        self.save_runner.shutdown()
        self.backend.close()
        if self.server is not None:
            self.server.stop()


def workspace_root(settings: Settings, workspace: str) -> Path:
    """The folder the embedded backend serves as ``workspace``."""
    return settings.workspace_roots.get(workspace, settings.workspaces_dir / workspace)


def folder_reader(settings: Settings, workspace: str) -> FolderRead:
    """Reads a note of ``workspace`` as the backend's ``GET`` would: its text and ETag.

    The backend's own :class:`workers.documents.Workspaces` reads it, with the same rules
    (no link leads outside, R43; the size limit, R63), so what shows is what the backend
    would have sent. Any refusal answers None: the backend is then asked, and says why.
    """
    from workers.documents import Workspaces  # light: the file rules, none of the web stack
    from workers.errors import DocumentRefused

    workspaces = Workspaces(settings)

    def read(path: str) -> tuple[str, str] | None:
        try:
            data = workspaces.read(workspace, path).data
            return data.decode("utf-8"), etag_of(data)
        except (DocumentRefused, OSError, UnicodeDecodeError, ValueError):
            return None

    return read


def connect_workspace(backend: BackendLink, workspace: str) -> WorkspaceLink:
    """Create the workspace if needed and open a key session for it (blocks: call off the GUI)."""
    return WorkspaceLink(backend, _open_workspace(backend.client(), workspace))


def _open_workspace(client: BackendClient, workspace: str) -> WireKeySession:
    """Create the workspace if needed and open a key session for it (blocks)."""
    if not is_workspace_id(workspace):
        raise SessionError(invalid_workspace_message(workspace))
    try:
        client.create_workspace(workspace)
        return client.open_key_session(workspace)
    except BackendError as error:
        raise SessionError(
            f"The workspace “{workspace}” could not be opened: {error.message}"
        ) from error


def invalid_workspace_message(name: str) -> str:
    """Why ``name`` cannot name a workspace, in the backend's own words."""
    return f"“{name}” is not a valid workspace name. {WORKSPACE_ID_INVALID}"


def _choose_workspace(
    workspace_dir: Path | None, workspace: str | None, *, demo: bool
) -> tuple[str, dict[str, Path]]:
    """The workspace id to open and the folders that are workspaces (a given one, resolved)."""
    roots: dict[str, Path] = {}
    if workspace_dir is not None:
        workspace_dir = workspace_dir.resolve()
        if not workspace_dir.is_dir():
            raise SessionError(f"The workspace folder {workspace_dir} does not exist.")
        workspace_id = workspace or workspace_id_for(workspace_dir)
        roots[workspace_id] = workspace_dir
    elif workspace is not None:
        workspace_id = workspace
    elif demo:
        workspace_id = DEMO_WORKSPACE
    else:
        workspace_id = DEFAULT_WORKSPACE
    if not is_workspace_id(workspace_id):
        raise SessionError(invalid_workspace_message(workspace_id))
    return workspace_id, roots


def _connect_or_close(backend: BackendLink, workspace: str) -> WorkspaceLink:
    """A key session for ``workspace``; on any failure the link's clients are closed."""
    try:
        return connect_workspace(backend, workspace)
    except BaseException:
        backend.close()
        raise


def _remote_token(data_dir: Path) -> str:
    token = os.environ.get(DEVICE_TOKEN_ENV, "").strip()
    if token:
        return token
    path = data_dir / DEVICE_TOKEN_FILE
    if path.is_file():
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token
    raise SessionError(
        f"No device token for the backend: set {DEVICE_TOKEN_ENV} or put it in {path}."
    )
