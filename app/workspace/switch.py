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

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QTimer
from shiboken6 import isValid

from app.notes.kept_notes import KeptNotes
from app.session import AppSession, SessionError, connect_workspace, invalid_workspace_message
from app.window.banner import Banner, Banners
from app.window.frame_registry import FrameRegistry
from app.window.frames import WindowFrames
from app.workspace.demo import DEMO_FRAMES
from app.workspace.layout_state import (
    LayoutStore,
    NoteFrameSpec,
    ProviderFrameSpec,
    SavedState,
    WorkspaceLayout,
)
from bridge.errors import BackendError
from bridge.paths import is_workspace_id
from bridge.privacy import AIEXCLUDE
from bridge.wire import DocumentEntry
from renderer.ambient.backend import WorkspaceLink
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.providers import (
    WORKSPACE_PROVIDER,
    PlaceholderProviderFrame,
    WorkspaceBrowserFrame,
)

BROWSER_FRAME_ID = "workspace"
RESTORED_AT_ONCE = 8
"""Note frames (and provider frames) a layout mounts before the window first paints
(R92): building one frame takes 40 to 120 ms of the GUI thread, so a layout of 32 notes
and 16 providers would hold the first note back for seconds. The rest follow one per
turn of the event loop, each turn short, in the layout's order."""
WORKSPACE_TOPIC = "workspace"
"""Banners about switching share one topic: the newest replaces the older (R45)."""


class WorkspaceSwitch:
    """Switches the window's workspace and remembers every workspace's layout.

    ``entered`` is told each workspace the window enters (its title follows),
    ``switched`` the id once its frames are remounted, ``failed`` why a switch
    did not happen (the previous workspace stays open).
    """

    def __init__(
        self,
        session: AppSession,
        registry: FrameRegistry,
        frames: WindowFrames,
        banners: Banners,
        kept_notes: KeptNotes,
        layouts: tuple[LayoutStore, SavedState],
        *,
        entered: Callable[[str], None],
        switched: Callable[[str], None],
        failed: Callable[[str], None],
    ) -> None:
        self._session = session
        self._registry = registry
        self._frames = frames
        self._banners = banners
        self._kept_notes = kept_notes
        self._store, self.saved = layouts
        self._entered = entered
        self._switched = switched
        self._failed = failed
        self.window_place: Callable[[], str | None] = lambda: None
        """The window's size, place and maximised state, kept with the layout (R80)."""
        self._missing: tuple[Banner, frozenset[str]] | None = None
        """The "has no …" banner and the note frames open when it was shown."""
        self._restoring: WorkspaceLayout | None = None
        """The layout being restored at start while frames of it wait in :attr:`_waiting`."""
        self._waiting: list[NoteFrameSpec | ProviderFrameSpec] = []
        self._restore_next: QTimer | None = None
        """Mounts the next waiting frame; made only for a layout with frames to wait."""
        registry.frames_changed.connect(self._on_frames_changed)

    @property
    def switching(self) -> bool:
        """True while a workspace is being opened (R7)."""
        return self._registry.switching

    # -- layouts ---------------------------------------------------------------

    def capture(self) -> WorkspaceLayout:
        """The open workspace's frames in order, the active frame and the conversation."""
        layout = WorkspaceLayout(conversation=self._frames.assistant.conversation)
        for frame in self._frames.frames_in_order():
            if isinstance(frame, InboxFrame):
                layout.notes.append(NoteFrameSpec(frame.frame_id, frame.path, frame.view))
            elif isinstance(frame, WorkspaceBrowserFrame):
                layout.providers.append(ProviderFrameSpec(frame.frame_id, WORKSPACE_PROVIDER))
            elif isinstance(frame, PlaceholderProviderFrame):
                layout.providers.append(ProviderFrameSpec(frame.frame_id, frame.provider))
        layout.active = self._registry.active_frame_id
        frames = self._registry.frames
        layout.recent = [
            frame_id for frame_id in self._session.store.activation_history if frame_id in frames
        ]
        layout.window = self.window_place()
        restoring = self._restoring
        if restoring is not None:  # frames not mounted yet stay in the layout, as it said
            for spec in self._waiting:
                if isinstance(spec, NoteFrameSpec):
                    layout.notes.append(spec)
                else:
                    layout.providers.append(spec)
            layout.active, layout.recent = restoring.active, restoring.recent
        return layout

    @property
    def restoring(self) -> bool:
        """True while frames of the layout restored at start are still to be mounted."""
        return self._restoring is not None

    def remember(self) -> None:
        workspace = self._session.workspace
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
                self._stop_restoring()
                self._keep_popped_out(self.saved.layouts[self._session.workspace])
        try:
            self._store.save(self.saved)
        except OSError as error:
            self._banners.show_message(
                f"The window layout could not be saved in the data folder: {error.strerror}.",
                tone="error",
                topic="layout-file",
            )

    def _keep_popped_out(self, layout: WorkspaceLayout) -> None:
        workspace = self._session.workspace
        handles = [
            handle
            for handle in self._session.popouts.handles
            if handle.running and handle.workspace == workspace
        ]
        end = len(layout.notes) + len(handles)
        for handle in sorted(handles, key=lambda h: end if h.position is None else h.position):
            place = end if handle.position is None else handle.position
            spec = NoteFrameSpec(handle.frame_id, handle.path, handle.view)
            layout.notes.insert(min(place, len(layout.notes)), spec)

    def restore(self, layout: WorkspaceLayout, *, providers: bool) -> None:
        """Mount a remembered layout (at start also its provider frames); activate its frame.

        The first :data:`RESTORED_AT_ONCE` frames of each column are mounted now, the
        rest one per event-loop turn; the layout's frame is activated once all are in.
        """
        provider_specs = layout.providers if providers else []
        for spec in provider_specs[:RESTORED_AT_ONCE]:
            self._mount_provider(spec)
        self._mount_notes(layout.notes[:RESTORED_AT_ONCE], None)
        self._waiting = [
            *layout.notes[RESTORED_AT_ONCE:],
            *provider_specs[RESTORED_AT_ONCE:],
        ]
        if not self._waiting:
            self._resume(layout)
            return
        self._restoring = layout
        self._next_turn()

    def _next_turn(self) -> None:
        """Mount the next waiting frame at the event loop's next turn."""
        if self._restore_next is None:
            self._restore_next = QTimer()
            self._restore_next.setSingleShot(True)
            self._restore_next.setInterval(0)
            self._restore_next.timeout.connect(self._mount_one_waiting)
        self._restore_next.start()

    def _mount_one_waiting(self) -> None:
        layout = self._restoring
        if layout is None or self.switching:
            return
        spec = self._waiting.pop(0)
        if isinstance(spec, NoteFrameSpec):
            self._mount_notes([spec], None)
        else:
            self._mount_provider(spec)
        if self._waiting:
            self._next_turn()
            return
        self._restoring = None
        self._resume(layout)

    def _stop_restoring(self) -> None:
        """Leave the frames still waiting unmounted (quitting, or switching workspace)."""
        if self._restore_next is not None:
            self._restore_next.stop()
        self._restoring = None
        self._waiting = []

    def _mount_provider(self, spec: ProviderFrameSpec) -> None:
        if self._registry.is_free_id(spec.frame_id):
            self._frames.mount_provider(spec.frame_id, spec.provider)

    def open_starting_layout(self) -> None:
        """The browser and two notes: the demo's, or the first two the workspace lists."""
        frames, registry = self._frames, self._registry
        browser = frames.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
        if self._session.demo:
            for frame_id, path in DEMO_FRAMES:
                frames.mount_inbox(frame_id, path)
            # Start where a person would: typing in the first note, which is "this note".
            frames.focus_frame(registry.frame(DEMO_FRAMES[0][0]))
            return
        assert isinstance(browser, WorkspaceBrowserFrame)

        def open_first(documents: list[DocumentEntry]) -> None:
            notes = [info for info in documents if info.path != AIEXCLUDE]  # a list, no note
            for index, info in enumerate(notes[: len(DEMO_FRAMES)], start=1):
                if registry.is_free_id(f"inbox-{index}") and not self.switching:
                    frames.mount_inbox(f"inbox-{index}", info.path)
            if "inbox-1" in registry.frames:
                frames.focus_frame(registry.frame("inbox-1"))

        browser.listed_once(open_first)

    # -- switching (R7) ----------------------------------------------------------

    def switch(self, name: str) -> None:
        """Cross into workspace ``name`` (created empty if new); ``switched`` follows."""
        if self.switching:
            self._fail("A workspace is already being opened; wait for it to finish.")
            return
        if not is_workspace_id(name):
            self._fail(invalid_workspace_message(name))
            return
        session = self._session
        self._banners.dismiss_topic(WORKSPACE_TOPIC)
        self.remember()  # with the frames still waiting to be restored, if any
        self._stop_restoring()
        left = self.saved.layouts[session.workspace]
        self._registry.switching = True
        previous = session.link
        for inbox in self._registry.inbox_frames():
            self._frames.remove_frame(inbox)  # queues each pending save into the old workspace
        session.store.cross_workspace_boundary()
        for frame in self._registry.frames.values():
            frame.set_active(False)
        flush = session.autosave.flush()
        backend = session.backend
        recovery = session.recovery
        outcome: dict[str, object] = {}

        def open_new() -> tuple[WorkspaceLink, list[DocumentEntry], list[str]]:
            """Worker thread: a key session for ``name``, its notes and its kept text's paths."""
            link = connect_workspace(backend, name)
            documents = link.call(lambda client, key: client.list_documents(key))
            return link, documents, recovery.kept_paths(link.workspace)

        def proceed(part: str, value: object) -> None:
            outcome[part] = value
            if "flushed" in outcome and "opened" in outcome:
                self._arrive(name, previous, left, outcome["opened"])

        flush.finished.connect(lambda _ok: proceed("flushed", True))
        session.runner.submit(
            open_new,
            on_done=lambda value: proceed("opened", value),
            on_error=lambda error: proceed("opened", error),
        )

    def _arrive(
        self, name: str, previous: WorkspaceLink, left: WorkspaceLayout, opened: object
    ) -> None:
        """Once the old saves landed and the new workspace answered: enter it, or go back."""
        self._registry.switching = False
        if isinstance(opened, BaseException):
            self._enter(previous, left, None)
            self._kept_notes.offer()
            message = str(opened) if isinstance(opened, BackendError | SessionError) else ""
            self._fail(message or f"The workspace “{name}” could not be opened.")
            return
        link, documents, kept = cast(tuple[WorkspaceLink, list[DocumentEntry], list[str]], opened)
        remembered = self.saved.layouts.get(link.workspace)
        # A first visit carries the notes just left over: the same paths, where they exist.
        target = remembered or WorkspaceLayout(notes=list(left.notes))
        carried_from = None if remembered else previous.workspace
        self._enter(link, target, {info.path for info in documents}, carried_from)
        self.persist()
        self._kept_notes.offer(kept)
        self._switched(link.workspace)

    def _enter(
        self,
        link: WorkspaceLink,
        layout: WorkspaceLayout,
        existing: set[str] | None,
        carried_from: str | None = None,
    ) -> None:
        frames = self._frames
        self._session.link = link
        self._entered(link.workspace)
        frames.show_assistant(frames.assistant_for(link.workspace, layout.conversation))
        self._mount_notes(layout.notes, existing, carried_from)
        for browser in self._registry.browsers():
            browser.refresh()
        self._resume(layout)

    def _resume(self, layout: WorkspaceLayout) -> None:
        """Use the frames again in the order they were last used; the keys go to "this note".

        R81: after a restart or a switch back, closing the active note falls back to
        the note used before it, as it would have before. Ids the layout names that
        are gone are skipped; when none is left, the top note is "this note".
        """
        frames = self._registry.frames
        used = [frame_id for frame_id in layout.recent if frame_id in frames]
        if not used and layout.active in frames:
            used = [layout.active]  # a layout written before the order was kept
        notes = self._frames.note_frames_in_order()
        if not used and (layout.recent or layout.active) and notes:
            used = [notes[0].frame_id]  # what it named is gone: start at the top
        for frame_id in used:
            self._frames.activate_frame(frame_id)
        resolution = self._session.store.resolve()
        if resolution is not None:  # the keys go to the note the chip names, not the assistant
            self._frames.focus_frame(frames[resolution.frame_id])

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
        registry = self._registry
        closed: list[str] = []
        for spec in notes:
            if existing is not None and spec.path not in existing:
                closed.append(spec.path)
                continue
            if registry.showing(spec.path):
                continue
            # R49: an id held meanwhile (a popped-out note) is not given out twice.
            free = registry.is_free_id(spec.frame_id)
            frame_id = spec.frame_id if free else registry.free_inbox_id()
            try:
                self._frames.mount_inbox(frame_id, spec.path, spec.view)
            except ValueError:
                closed.append(spec.path)  # a remembered path this app no longer accepts
        if closed:
            self._say_closed(closed, carried_from)

    def _say_closed(self, closed: list[str], carried_from: str | None) -> None:
        workspace = self._session.workspace
        one = len(closed) == 1
        if carried_from is not None:
            self._say_missing(
                f"Workspace “{workspace}” has no {', '.join(closed)}; "
                f"{'it stays' if one else 'they stay'} open in “{carried_from}”."
            )
        else:
            self._say_missing(
                f"Workspace “{workspace}” has no {', '.join(closed)}, so "
                f"{'that frame was' if one else 'those frames were'} closed."
            )

    def _say_missing(self, text: str) -> None:
        banner = self._banners.show_message(text, topic=WORKSPACE_TOPIC)
        shown = frozenset(frame.frame_id for frame in self._registry.inbox_frames())
        self._missing = (banner, shown)
        # A newer message on the topic replaces this one: then it has nothing left to say.
        banner.dismissed.connect(self._forget_missing)

    def _forget_missing(self) -> None:
        self._missing = None

    def _on_frames_changed(self) -> None:
        """A note made or opened here since the "has no …" banner: it has said its piece."""
        if self._missing is None or self.switching:
            return
        banner, before = self._missing
        if not isValid(banner):
            self._missing = None
        elif any(frame.frame_id not in before for frame in self._registry.inbox_frames()):
            self._missing = None
            banner.dismiss()

    def _fail(self, message: str) -> None:
        self._banners.show_message(message, tone="error", topic=WORKSPACE_TOPIC)
        self._failed(message)
