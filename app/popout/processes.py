"""Popped-out notes as separate OS processes (R29), and the host's side of their life.

The host withdraws the frame from its own store, lets the frame's pending save
land, then starts ``python -m app.popout.window`` for it. The device token travels in the
child's environment, never on its command line. When a child ends (closed or
crashed) the manager offers to bring the note back; the host keeps working either
way. :meth:`PopoutManager.close_all` ends every child when the host quits.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QRect, Signal

from app.popout.place import beside_argument
from bridge.environment import DEVICE_TOKEN_ENV
from bridge.views import View
from renderer.ambient.backend import BackendLink
from renderer.frames.inbox.runtime import NoteFrame
from renderer.qt.autosave import AutosaveCoordinator

POPOUT_MODULE = "app.popout.window"
_PROJECT_ROOT = Path(__file__).resolve().parents[2]
CLOSE_SAVE_WAIT_MS: Final = 1500
"""How long a closing pop-out waits for its pending save before it exits anyway.

The pop-out's own bound (R29), not R10's, which bounds a send's preparation: a local
save takes milliseconds, and a backend stalled for longer must not keep a window the
person closed on screen. Equal to R10's today by choice, not by rule."""
_EXIT_MARGIN_MS: Final = 1500
"""What a child needs besides that wait: tearing its frames down and leaving its loop."""
_TERMINATE_WAIT_MS: Final = CLOSE_SAVE_WAIT_MS + _EXIT_MARGIN_MS
"""The host's wait after SIGTERM before it kills a child: the child's own close, whole."""
_KILL_WAIT_MS = 1000


class PopoutHandle(QObject):
    """One popped-out note: its process and where it came from."""

    def __init__(
        self, frame_id: str, path: str, view: View, workspace: str, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.frame_id = frame_id
        self.path = path
        self.view: View = view
        self.workspace = workspace
        self.process = QProcess(self)
        self.crashed = False
        self.exit_code: int | None = None
        self.position: int | None = None
        """Where the frame stood in the host's notes column: it comes back there (R49)."""

    @property
    def running(self) -> bool:
        return self.process.state() != QProcess.ProcessState.NotRunning


class PopoutManager(QObject):
    """Starts, tracks and ends popped-out processes."""

    popped_out = Signal(object)
    """A handle whose process was just asked to start."""
    return_offered = Signal(object)
    """A handle whose window ended: the host may bring the note back (non-modal offer)."""

    def __init__(
        self,
        backend: BackendLink,
        autosave: AutosaveCoordinator,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        # Read when a child is made: an embedded backend's address is known once it answers.
        self._backend = backend
        self._autosave = autosave
        self._detach: Callable[[str], str] | None = None
        self.handles: list[PopoutHandle] = []
        self._closing = False

    def attach_host(self, detach: Callable[[str], str]) -> None:
        """``detach(frame_id) -> workspace``: the host withdraws and removes the frame (R29)."""
        self._detach = detach

    def pop_out(self, frame: NoteFrame, beside: QRect | None = None) -> PopoutHandle:
        """Move ``frame`` into its own process; the child starts once its last save landed.

        ``beside`` is the host window's frame: the child opens next to it when there is room.
        """
        if self._detach is None:
            raise RuntimeError("The pop-out manager has no host window.")
        frame_id, path, view = frame.frame_id, frame.path, frame.view
        workspace = self._detach(frame_id)
        handle = self.create(frame_id, path, view, workspace, beside)
        self._autosave.when_saved(workspace, path, lambda _ok: self.launch(handle))
        return handle

    def create(
        self, frame_id: str, path: str, view: View, workspace: str, beside: QRect | None = None
    ) -> PopoutHandle:
        """A handle whose process is configured but not started yet (see :meth:`launch`)."""
        handle = PopoutHandle(frame_id, path, view, workspace, self)
        process = handle.process
        environment = QProcessEnvironment.systemEnvironment()
        environment.insert(DEVICE_TOKEN_ENV, self._backend.device_token)
        process.setProcessEnvironment(environment)
        process.setWorkingDirectory(str(_PROJECT_ROOT))
        process.setProgram(sys.executable)
        process.setArguments(
            [
                "-m",
                POPOUT_MODULE,
                "--backend",
                self._backend.base_url,
                "--workspace",
                workspace,
                "--path",
                path,
                "--frame-id",
                frame_id,
                "--view",
                view,
                *([] if beside is None else ["--beside", beside_argument(beside)]),
                *self._recovery_arguments(),
            ]
        )
        process.setProcessChannelMode(QProcess.ProcessChannelMode.ForwardedErrorChannel)
        process.finished.connect(lambda code, status: self._on_finished(handle, code, status))
        process.errorOccurred.connect(lambda error: self._on_error(handle, error))
        self.handles.append(handle)
        return handle

    def _recovery_arguments(self) -> list[str]:
        """The child keeps text whose save fails in the host's recovery folder too."""
        recovery = self._autosave.recovery
        return ["--recovery-dir", str(recovery.folder)] if recovery is not None else []

    def launch(self, handle: PopoutHandle) -> None:
        """Start the child (after the note's last save landed, so it opens what was typed)."""
        if self._closing or handle.running:
            return
        handle.process.start()
        self.popped_out.emit(handle)

    def forget(self, handle: PopoutHandle) -> None:
        if handle in self.handles and not handle.running:
            self.handles.remove(handle)
            handle.deleteLater()

    def close_all(self) -> None:
        """End every child (the host is quitting): terminate, then kill what does not stop."""
        self._closing = True
        running = [handle.process for handle in self.handles if handle.running]
        # All at once: each child gets the same grace to save its last edit, then goes.
        for process in running:
            process.terminate()
        for process in running:
            if not process.waitForFinished(_TERMINATE_WAIT_MS):
                process.kill()
                process.waitForFinished(_KILL_WAIT_MS)
        self.handles.clear()

    def _on_finished(self, handle: PopoutHandle, code: int, status: QProcess.ExitStatus) -> None:
        handle.exit_code = code
        self._ended(handle, crashed=status == QProcess.ExitStatus.CrashExit or code != 0)

    def _on_error(self, handle: PopoutHandle, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._ended(handle, crashed=True)

    def _ended(self, handle: PopoutHandle, *, crashed: bool) -> None:
        handle.crashed = crashed
        if not self._closing:
            self.return_offered.emit(handle)
