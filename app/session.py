"""One running app: the backend (embedded or remote), the workspace, the store and the workers.

:meth:`AppSession.start` may block on the network: it runs before the window
exists. Everything after that goes through :attr:`AppSession.runner` so the GUI
thread never waits.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.assistant_settings import AssistantSettingsStore, apply_saved_assistant
from app.demo import (
    DEMO_WORKSPACE,
    default_data_dir,
    install_demo_workspace,
    workspace_id_for,
)
from app.popouts import PopoutManager
from bridge.client import BackendClient
from bridge.environment import DEVICE_TOKEN_ENV, DEVICE_TOKEN_FILE
from bridge.errors import BackendError
from bridge.paths import WORKSPACE_ID_INVALID, is_workspace_id
from bridge.private_files import make_private_folder
from renderer.ambient.store import AmbientStore
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.backend import BackendLink, WorkspaceLink
from renderer.qt.recovery import RECOVERY_FOLDER, RecoveryStore
from renderer.qt.tasks import TaskRunner
from workers.server import EmbeddedServer
from workers.settings import Settings

DEFAULT_WORKSPACE = "notes"
DEFAULT_CONVERSATION = "main"
"""The assistant's conversation in each workspace; kept by the backend across restarts (R34)."""


class SessionError(RuntimeError):
    """The app could not start: the message says why in plain language."""


class AppSession:
    """Owns the backend link, the current workspace, the store, autosave and pop-outs."""

    def __init__(
        self,
        *,
        backend: BackendLink,
        device_token: str,
        link: WorkspaceLink,
        data_dir: Path,
        server: EmbeddedServer | None,
        demo: bool,
    ) -> None:
        self.backend = backend
        self._device_token = device_token
        self.link = link
        self.data_dir = data_dir
        self.server = server
        self.demo = demo
        self.store = AmbientStore()
        self.runner = TaskRunner()
        # Saves get workers of their own: stalled saves must never hold up a turn (R12).
        self.save_runner = TaskRunner()
        # Text whose save fails is kept in the data folder: closing, switching or quitting
        # while the backend refuses a save loses nothing.
        self.recovery = RecoveryStore(data_dir / RECOVERY_FOLDER)
        self.autosave = AutosaveCoordinator(self.save_runner, recovery=self.recovery)
        self.popouts = PopoutManager(backend.base_url, device_token, self.autosave)
        self.assistant_settings = AssistantSettingsStore(data_dir)
        self.assistant_problem: str | None = None
        """Why the saved assistant settings could not be applied at start, if they could not."""
        self._closed = False

    @classmethod
    def start(
        cls,
        *,
        backend_url: str | None,
        workspace_dir: Path | None,
        data_dir: Path | None,
        save_delay_seconds: float = 0.0,
        load_delay_seconds: float = 0.0,
        demo: bool = True,
        workspace: str | None = None,
        model_first_tool_choice: str = "auto",
        model_base_url: str | None = None,
        model: str | None = None,
    ) -> AppSession:
        """Start (or reach) the backend, open the workspace and a key session.

        Without ``backend_url`` an embedded backend runs on loopback; with
        ``workspace_dir`` that folder is the workspace (named after it, or ``workspace``).
        With ``demo`` and no folder, the demo notes are copied on first run.
        ``model_base_url`` and ``model`` choose the embedded backend's model as
        AMBIENT_MODEL_BASE_URL / AMBIENT_MODEL do (contract 7), which fill in what is not given.
        """
        data_dir = (data_dir or default_data_dir()).resolve()
        make_private_folder(data_dir)  # R64: 0700, and every file in it 0600
        workspace_id, roots = _choose_workspace(workspace_dir, workspace, demo=demo)
        # The demo notes belong to the embedded backend's own folders only.
        demo = demo and workspace_dir is None and workspace_id == DEMO_WORKSPACE
        server: EmbeddedServer | None = None
        if backend_url is None:
            settings = Settings(
                data_dir=data_dir,
                save_delay_seconds=save_delay_seconds,
                load_delay_seconds=load_delay_seconds,
                workspace_roots=roots,
                model_first_tool_choice=model_first_tool_choice,
                model_base_url=model_base_url,
                model=model,
            )
            server = _start_embedded(settings, demo=demo)
            backend_url, token = server.url, server.device_token
        else:
            token = _remote_token(data_dir)
        backend = BackendLink(backend_url, token)
        link = _connect_or_stop(backend, server, workspace_id)
        session = cls(
            backend=backend,
            device_token=token,
            link=link,
            data_dir=data_dir,
            server=server,
            demo=demo and server is not None,
        )
        if server is not None:  # the user's settings override the start ones (contract 7, R37)
            session.assistant_problem = apply_saved_assistant(
                backend.client(), session.assistant_settings
            )
        return session

    @property
    def device_token(self) -> str:
        """The backend's device token, for the app's own helper processes (pop-outs, QA)."""
        return self._device_token

    @property
    def workspace(self) -> str:
        return self.link.workspace

    def workspace_folder(self) -> Path | None:
        """The open workspace's folder on this machine; None with a remote backend."""
        server = self.server
        if server is None:
            return None
        settings = server.settings
        folder = settings.workspace_roots.get(
            self.workspace, settings.workspaces_dir / self.workspace
        )
        return folder.resolve()

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

        Saves still waiting behind a running one are kept in the recovery folder.
        """
        if self._closed:
            return
        self._closed = True
        self.popouts.close_all()
        self.autosave.keep_unsent()
        self.runner.shutdown()
        self.save_runner.shutdown()
        self.backend.close()
        if self.server is not None:
            self.server.stop()


def connect_workspace(backend: BackendLink, workspace: str) -> WorkspaceLink:
    """Create the workspace if needed and open a key session for it (blocks: call off the GUI)."""
    if not is_workspace_id(workspace):
        raise SessionError(invalid_workspace_message(workspace))
    client = backend.client()
    try:
        client.create_workspace(workspace)
        session = client.open_key_session(workspace)
    except BackendError as error:
        raise SessionError(
            f"The workspace “{workspace}” could not be opened: {error.message}"
        ) from error
    return WorkspaceLink(backend, session)


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


def _start_embedded(settings: Settings, *, demo: bool) -> EmbeddedServer:
    """The embedded backend on loopback, with the demo notes installed first when asked."""
    if demo:
        install_demo_workspace(settings.workspaces_dir)
    server = EmbeddedServer(settings)
    try:
        server.start()
    except ValueError as error:  # settings naming no usable assistant: plain words
        raise SessionError(str(error)) from error
    return server


def _connect_or_stop(
    backend: BackendLink, server: EmbeddedServer | None, workspace: str
) -> WorkspaceLink:
    """A key session for ``workspace``; on any failure nothing started here is left running."""
    try:
        return connect_workspace(backend, workspace)
    except BaseException:
        backend.close()
        if server is not None:
            server.stop()
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
