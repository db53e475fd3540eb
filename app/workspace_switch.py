"""Crossing workspaces (R7) without losing what each one had open (R45).

A switch queues pending saves into the old workspace, the store crosses the
boundary (choice and history cleared, captures in flight invalidated), and once
the new workspace is open and those saves have landed its frames are mounted:
the layout that workspace had when it was last open (frames, views, the active
frame and its conversation), or, on a first visit, the notes just left that
exist there too. A note the workspace does not have is closed with a banner
naming it. Every layout is written to the data folder on each switch and on
quit, so the next start opens the last workspace as it was left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from shiboken6 import isValid

from app.banner import Banner
from app.demo import DEMO_FRAMES
from app.layout_state import (
    LayoutStore,
    NoteFrameSpec,
    ProviderFrameSpec,
    SavedState,
    WorkspaceLayout,
)
from app.session import SessionError, connect_workspace, invalid_workspace_message
from bridge.documents import DocumentInfo
from bridge.errors import BackendError
from bridge.paths import is_workspace_id
from renderer.frames.inbox import InboxFrame
from renderer.frames.providers import (
    WORKSPACE_PROVIDER,
    PlaceholderProviderFrame,
    WorkspaceBrowserFrame,
)
from renderer.qt.backend import WorkspaceLink
from renderer.qt.recovery import KeptNote

if TYPE_CHECKING:
    from app.main_window import MainWindow

BROWSER_FRAME_ID = "workspace"
WORKSPACE_TOPIC = "workspace"
"""Banners about switching share one topic: the newest replaces the older (R45)."""


class WorkspaceSwitch:
    """Switches the window's workspace and remembers every workspace's layout."""

    def __init__(self, window: MainWindow, store: LayoutStore, saved: SavedState) -> None:
        self._window = window
        self._store = store
        self.saved = saved
        self.switching = False
        self._missing: tuple[Banner, frozenset[str]] | None = None
        """The "has no …" banner and the note frames open when it was shown."""
        window.frames_changed.connect(self._on_frames_changed)

    # -- layouts ---------------------------------------------------------------

    def capture(self) -> WorkspaceLayout:
        """The open workspace's frames in order, the active frame and the conversation."""
        window = self._window
        layout = WorkspaceLayout(conversation=window.assistant.conversation)
        for frame in window.frames_in_order():
            if isinstance(frame, InboxFrame):
                layout.notes.append(NoteFrameSpec(frame.frame_id, frame.path, frame.view))
            elif isinstance(frame, WorkspaceBrowserFrame):
                layout.providers.append(ProviderFrameSpec(frame.frame_id, WORKSPACE_PROVIDER))
            elif isinstance(frame, PlaceholderProviderFrame):
                layout.providers.append(ProviderFrameSpec(frame.frame_id, frame.provider))
        active = window.store.last_activated_frame
        layout.active = active if active in window.frames else None
        return layout

    def remember(self) -> None:
        workspace = self._window.session.workspace
        self.saved.layouts[workspace] = self.capture()
        self.saved.workspace = workspace

    def persist(self, *, quitting: bool = False) -> None:
        """Remember the open workspace's layout and write the whole state file.

        When quitting, a note still popped out is kept at its old place in the notes
        column: its window ends with the app, and the next start opens it here (R45, R49).
        """
        if not self.switching:
            self.remember()
            if quitting:
                self._keep_popped_out(self.saved.layouts[self._window.session.workspace])
        try:
            self._store.save(self.saved)
        except OSError as error:
            self._window.banners.show_message(
                f"The window layout could not be saved in the data folder: {error.strerror}.",
                tone="error",
                topic="layout-file",
            )

    def _keep_popped_out(self, layout: WorkspaceLayout) -> None:
        workspace = self._window.session.workspace
        handles = [
            handle
            for handle in self._window.popouts.handles
            if handle.running and handle.workspace == workspace
        ]
        end = len(layout.notes) + len(handles)
        for handle in sorted(handles, key=lambda h: end if h.position is None else h.position):
            place = end if handle.position is None else handle.position
            spec = NoteFrameSpec(handle.frame_id, handle.path, handle.view)
            layout.notes.insert(min(place, len(layout.notes)), spec)

    def restore(self, layout: WorkspaceLayout, *, providers: bool) -> None:
        """Mount a remembered layout (at start also its provider frames); activate its frame."""
        window = self._window
        if providers:
            for spec in layout.providers:
                if window.is_free_id(spec.frame_id):
                    window.mount_provider(spec.frame_id, spec.provider)
        self._mount_notes(layout.notes, None)
        active = layout.active
        if active is not None and active in window.frames:
            window.focus_frame(window.frames[active])

    def open_starting_layout(self) -> None:
        """The browser and two notes: the demo's, or the first two the workspace lists."""
        window = self._window
        browser = window.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
        if window.session.demo:
            for frame_id, path in DEMO_FRAMES:
                window.mount_inbox(frame_id, path)
            # Start where a person would: typing in the first note, which is "this note".
            window.frame(DEMO_FRAMES[0][0]).focus_target().setFocus()
            return
        assert isinstance(browser, WorkspaceBrowserFrame)

        def open_first(documents: list[DocumentInfo]) -> None:
            for index, info in enumerate(documents[: len(DEMO_FRAMES)], start=1):
                if window.is_free_id(f"inbox-{index}") and not self.switching:
                    window.mount_inbox(f"inbox-{index}", info.path)
            if "inbox-1" in window.frames:
                window.frame("inbox-1").focus_target().setFocus()

        browser.listed_once(open_first)

    # -- switching (R7) ----------------------------------------------------------

    def switch(self, name: str) -> None:
        """Cross into workspace ``name`` (created empty if new); ``workspace_switched`` follows."""
        window = self._window
        session = window.session
        if self.switching:
            self._fail("A workspace is already being opened; wait for it to finish.")
            return
        if not is_workspace_id(name):
            self._fail(invalid_workspace_message(name))
            return
        window.banners.dismiss_topic(WORKSPACE_TOPIC)
        self.remember()
        left = self.saved.layouts[session.workspace]
        self.switching = True
        previous = session.link
        for inbox in window.inbox_frames():
            window.remove_frame(inbox)  # queues each pending save into the old workspace
        window.store.cross_workspace_boundary()
        for frame in window.frames.values():
            frame.set_active(False)
        flush = session.autosave.flush()
        backend = session.backend
        recovery = session.recovery
        outcome: dict[str, object] = {}

        def open_new() -> tuple[WorkspaceLink, list[DocumentInfo], list[KeptNote]]:
            link = connect_workspace(backend, name)
            documents = link.call(lambda client, key: client.list_documents(key))
            return link, documents, recovery.kept_for(link.workspace)

        def proceed() -> None:
            if "flushed" not in outcome or "opened" not in outcome:
                return
            opened = outcome["opened"]
            self.switching = False
            if isinstance(opened, BaseException):
                self._enter(previous, left, None)
                window.kept_notes.offer()
                message = str(opened) if isinstance(opened, BackendError | SessionError) else ""
                self._fail(message or f"The workspace “{name}” could not be opened.")
                return
            link, documents, kept = cast(
                tuple[WorkspaceLink, list[DocumentInfo], list[KeptNote]], opened
            )
            remembered = self.saved.layouts.get(link.workspace)
            # A first visit carries the notes just left over: the same paths, where they exist.
            target = remembered or WorkspaceLayout(notes=list(left.notes))
            carried_from = None if remembered else previous.workspace
            self._enter(link, target, {info.path for info in documents}, carried_from)
            self.persist()
            window.kept_notes.offer(kept)
            window.workspace_switched.emit(link.workspace)

        def on_flushed(_ok: bool) -> None:
            outcome["flushed"] = True
            proceed()

        def on_opened(value: object) -> None:
            outcome["opened"] = value
            proceed()

        flush.finished.connect(on_flushed)
        session.runner.submit(open_new, on_done=on_opened, on_error=on_opened)

    def _enter(
        self,
        link: WorkspaceLink,
        layout: WorkspaceLayout,
        existing: set[str] | None,
        carried_from: str | None = None,
    ) -> None:
        window = self._window
        window.session.link = link
        window.setWindowTitle(f"Ambient Notes — {link.workspace}")
        window.show_assistant(window.assistant_for(link.workspace, layout.conversation))
        self._mount_notes(layout.notes, existing, carried_from)
        for frame in window.frames.values():
            if isinstance(frame, WorkspaceBrowserFrame):
                frame.refresh()
        active = layout.active
        if active is not None and active in window.frames:
            window.focus_frame(window.frames[active])

    def _mount_notes(
        self,
        notes: list[NoteFrameSpec],
        existing: set[str] | None,
        carried_from: str | None = None,
    ) -> None:
        """Open ``notes`` (those in ``existing``, when given) and say which could not be.

        ``carried_from`` names the workspace a first visit's notes came from: those
        missing here were never open here, and stay open there.
        """
        window = self._window
        closed: list[str] = []
        for spec in notes:
            if existing is not None and spec.path not in existing:
                closed.append(spec.path)
                continue
            if any(frame.path == spec.path for frame in window.inbox_frames()):
                continue
            # R49: an id held meanwhile (a popped-out note) is not given out twice.
            frame_id = spec.frame_id if window.is_free_id(spec.frame_id) else window.free_inbox_id()
            try:
                window.mount_inbox(frame_id, spec.path, spec.view)
            except ValueError:
                closed.append(spec.path)  # a remembered path this app no longer accepts
        if closed and carried_from is not None:
            one = len(closed) == 1
            self._say_missing(
                f"Workspace “{window.session.workspace}” has no {', '.join(closed)}; "
                f"{'it stays' if one else 'they stay'} open in “{carried_from}”."
            )
        elif closed:
            workspace = window.session.workspace
            self._say_missing(
                f"Workspace “{workspace}” has no {', '.join(closed)}, so "
                f"{'that frame was' if len(closed) == 1 else 'those frames were'} closed."
            )

    def _say_missing(self, text: str) -> None:
        window = self._window
        banner = window.banners.show_message(text, topic=WORKSPACE_TOPIC)
        self._missing = (banner, frozenset(frame.frame_id for frame in window.inbox_frames()))

    def _on_frames_changed(self) -> None:
        """A note made or opened here since the "has no …" banner: it has said its piece."""
        if self._missing is None or self.switching:
            return
        banner, before = self._missing
        if not isValid(banner) or banner not in self._window.banners.banners:
            self._missing = None
        elif any(frame.frame_id not in before for frame in self._window.inbox_frames()):
            self._missing = None
            banner.dismiss()

    def _fail(self, message: str) -> None:
        self._window.banners.show_message(message, tone="error", topic=WORKSPACE_TOPIC)
        self._window.workspace_switch_failed.emit(message)
