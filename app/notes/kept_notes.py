"""No note text is lost: failed saves are announced, and kept text is offered back.

A save that fails while its note is open keeps the text on screen; one that fails
after its frame is gone (closed, switched away from, quitting) keeps the text in
the session's recovery folder, and a banner offers to restore it, now or whenever
its workspace is opened again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

from shiboken6 import isValid

from app.session import AppSession
from app.window.banner import Banners, save_failed_text_on_screen
from app.window.frame_registry import FrameRegistry
from renderer.ambient.recovery import KeptNote
from renderer.frames.inbox.frame import InboxFrame

SET_ASIDE: Final = (
    "{count} record(s) of unsaved text {why} and were set aside, unread, in {folder}."
)
NOT_READ: Final = "The text kept from earlier sessions could not be looked at: {reason}"


def save_topic(workspace: str, path: str) -> str:
    return f"save:{workspace}:{path}"


class KeptNotes:
    """The window's side of failed saves and kept text."""

    def __init__(
        self,
        session: AppSession,
        registry: FrameRegistry,
        banners: Banners,
        open_note: Callable[[str], InboxFrame],
    ) -> None:
        self._session = session
        self._registry = registry
        self._banners = banners
        self._open_note = open_note
        session.autosave.save_failed.connect(self.on_save_failed)
        session.autosave.state_changed.connect(self.on_save_state)

    def on_save_failed(self, workspace: str, path: str, message: str) -> None:
        session = self._session
        banners = self._banners
        topic = save_topic(workspace, path)
        still_open = workspace == session.workspace and bool(self._registry.showing(path))
        if still_open:
            banners.show_message(
                save_failed_text_on_screen(path, message), tone="error", topic=topic
            )
            return
        if not session.recovery.holds(workspace, path):
            banners.show_message(f"{path} could not be saved: {message}", tone="error", topic=topic)
            return
        kept = f"{path} could not be saved: {message} Your text is kept in this app's data folder."
        if workspace != session.workspace or self._registry.switching:
            banners.show_message(
                f"{kept} Open workspace “{workspace}” again to restore it.",
                tone="error",
                topic=topic,
            )
            return
        banners.show_message(
            kept,
            tone="error",
            actions=[("Restore", lambda: self.restore(workspace, path))],
            topic=topic,
        )

    def on_save_state(self, workspace: str, path: str, state: str) -> None:
        if state == "saved":  # a failure reported earlier no longer holds
            self._banners.dismiss_topic(save_topic(workspace, path))

    def offer(self, kept: list[str] | None = None) -> None:
        """Offer the text kept for the open workspace (from this run or an earlier one).

        ``kept`` is the paths of that workspace's kept notes when a worker already read
        the folder; without it a worker reads the folder now (R92: up to 100 files of up
        to 64 MiB each are never read on the GUI thread), and the offer follows.
        """
        session = self._session
        workspace = session.workspace
        if kept is not None:
            self._offer(workspace, kept)
            return
        recovery = session.recovery
        session.runner.submit(
            lambda: recovery.kept_paths(workspace, lambda: session.closed),
            on_done=lambda paths: self._offer(workspace, paths),
            on_error=lambda error: self._say_not_read(error),
            held=False,  # the folder is on this machine: no need to wait for the backend
        )

    def _offer(self, workspace: str, paths: list[str]) -> None:
        if not isValid(self._banners) or workspace != self._session.workspace:
            return  # the window closed, or another workspace opened (it offers its own)
        self._say_set_aside(self._session.recovery.take_set_aside())
        if not paths:
            return
        names = ", ".join(paths)
        self._banners.show_message(
            f"Text that could not be saved earlier is kept for {names}. "
            "Restore it to open the note with that text and save it.",
            actions=[("Restore", lambda: self._restore_all(workspace, paths))],
            topic="kept-notes",
        )

    def _say_set_aside(self, set_aside: list[tuple[Path, str]]) -> None:
        if not set_aside:
            return
        reasons = list(dict.fromkeys(why for _file, why in set_aside))
        self._banners.show_message(
            SET_ASIDE.format(
                count=len(set_aside), why=" or ".join(reasons), folder=set_aside[0][0].parent
            ),
            tone="error",
            topic="kept-notes-set-aside",
        )

    def _say_not_read(self, error: BaseException) -> None:
        if isValid(self._banners):
            reason = error.strerror if isinstance(error, OSError) else None
            self._banners.show_message(
                NOT_READ.format(reason=reason or type(error).__name__),
                tone="error",
                topic="kept-notes-set-aside",
            )

    def _restore_all(self, workspace: str, paths: list[str]) -> None:
        for path in paths:
            self.restore(workspace, path)

    def restore(self, workspace: str, path: str) -> None:
        """Open ``path`` with the text kept for it; autosave then saves it (and drops the copy).

        The kept text (up to 64 MiB of JSON) is read on a worker, never on the GUI thread (R92).
        """
        if workspace != self._session.workspace:
            self._banners.show_message(
                f"The kept text of {path} belongs to workspace “{workspace}”; open it first."
            )
            return
        recovery = self._session.recovery
        self._session.runner.submit(
            lambda: recovery.get(workspace, path),
            on_done=lambda kept: self._restore_read(workspace, path, kept),
            held=False,
        )

    def _restore_read(self, workspace: str, path: str, kept: KeptNote | None) -> None:
        if not isValid(self._banners) or workspace != self._session.workspace:
            return  # the window closed, or the person opened another workspace meanwhile
        recovery = self._session.recovery
        banners = self._banners
        if kept is None:
            banners.show_message(f"No text is kept for {path} any more.")
            return
        try:
            frame = self._open_note(path)
        except ValueError as error:
            banners.show_message(str(error), tone="error")
            return

        def apply() -> None:
            frame.loaded.disconnect(apply)
            frame.load_failed.disconnect(refused)
            recovery.adopt(workspace, path)
            frame.replace_text(kept.text)

        def refused(message: str) -> None:
            frame.loaded.disconnect(apply)
            frame.load_failed.disconnect(refused)
            banners.show_message(
                f"{path} could not be opened to restore its text ({message}); "
                "the text stays kept. Try again later.",
                tone="error",
            )

        if frame.is_loaded:
            recovery.adopt(workspace, path)
            frame.replace_text(kept.text)
        else:
            frame.loaded.connect(apply)
            frame.load_failed.connect(refused)
