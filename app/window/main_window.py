"""The main window: the composition root of the frameset, its menus and its helpers.

The window builds its parts and hands each the narrow things it needs; none of
them imports the window back. Which frames exist and their ids (R49) live in
:class:`app.window.frame_registry.FrameRegistry`; mounting, activation (R2, R5) and
focus in :class:`app.window.frames.WindowFrames`; the columns in
:mod:`app.window.frameset`; workspace switching and layouts in
:mod:`app.workspace.switch`; kept text in :mod:`app.notes.kept_notes`; pop-outs in
:mod:`app.popout.host`; menus in :mod:`app.commands.menus`; New note in
:mod:`app.notes.note_commands`. What the matching user action does, through the same
code, for the scenario runner and the tests, is :class:`app.window.driver.WindowDriver`
(``window.driver``); the window keeps only the few reads below.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget

from app.commands.menus import WindowMenus
from app.notes.kept_notes import KeptNotes
from app.notes.note_commands import NoteCommands
from app.notes.unsaved_text import UnsavedText
from app.popout.host import PopoutHost
from app.session import AppSession
from app.sidecar.controls import SharingControls
from app.sidecar.sharing import ActiveNoteSharing
from app.window.driver import WindowDriver
from app.window.font_banner import offer_font_advice
from app.window.frame_registry import FrameRegistry
from app.window.frames import WindowFrames
from app.window.frameset import Frameset
from app.window.style import follow_system_scheme
from app.workspace.layout_state import LayoutStore, SavedState
from app.workspace.switch import WorkspaceSwitch
from renderer.ambient.store import AmbientStore
from renderer.frames.assistant.frame import AssistantFrame
from renderer.frames.base import FrameBase
from renderer.qt import collector
from renderer.qt.focus_order import move_focus

PRIVACY_TOPIC = "aiexclude"


class MainWindow(QMainWindow):
    """The frameset window over one :class:`AppSession`.

    ``demo_layout`` opens the starting layout (the workspace browser and two notes);
    by default only a demo-workspace session gets it, so QA starts from an empty frameset.
    A layout saved in the data folder for the workspace (R45) comes before either.
    """

    workspace_switched = Signal(str)
    """The new workspace id, once its frames are remounted."""
    workspace_switch_failed = Signal(str)
    """A plain-language reason; the previous workspace stays open."""
    frames_changed = Signal()

    def __init__(self, session: AppSession, *, demo_layout: bool | None = None) -> None:
        super().__init__()
        collector.hold()  # cycles are collected on this thread while the window is open
        self._session = session
        self._closed = False
        self.show_workspace_title(session.workspace)
        follow_system_scheme()  # R82: light or dark as the system is, and as it changes
        self.resize(1360, 820)
        layouts = LayoutStore(session.data_dir)
        saved = layouts.load()
        popouts = session.popouts
        self.registry = FrameRegistry(
            session.store, lambda: (handle.frame_id for handle in popouts.handles)
        )
        self.frameset = Frameset(self)
        self.banners = self.frameset.banners
        self.providers_column = self.frameset.providers_column
        self.inbox_column = self.frameset.inbox_column
        self.splitter = self.frameset.splitter
        self.inbox_area = self.frameset.inbox_area
        self.no_note = self.frameset.no_note
        self.setCentralWidget(self.frameset)
        shelf = QWidget(self)
        shelf.hide()
        self.window_frames = frames = WindowFrames(session, self.registry, self.frameset, shelf)
        remembered = saved.layouts.get(session.workspace)
        conversation = remembered.conversation if remembered else None
        frames.show_assistant(frames.assistant_for(session.workspace, conversation))
        self.frameset.set_proportions()
        frames.update_inbox_area()
        self._compose_helpers(session, layouts, saved)
        if session.starting:  # issue 33: the saved assistant is applied once the backend runs
            session.started.finished.connect(self._show_assistant_problem)
        else:
            self._show_assistant_problem()
        offer_font_advice(self.banners, session.runner)
        if layouts.set_aside_message is not None:
            self.banners.show_message(layouts.set_aside_message, tone="error", topic="layout-file")
        self.switcher.window_place = self.window_place
        if remembered is not None and remembered.window:
            self.restore_window_place(remembered.window)
        if remembered is not None:
            self.switcher.restore(remembered, providers=True)
        elif demo_layout if demo_layout is not None else session.demo:
            self.switcher.open_starting_layout()
        self.kept_notes.offer()

    def _compose_helpers(
        self, session: AppSession, layouts: LayoutStore, saved: SavedState
    ) -> None:
        """The parts over the registry: pop-outs, kept text, New note, switching, menus."""
        registry, frames, banners = self.registry, self.window_frames, self.banners
        self.popout_host = PopoutHost(session, registry, frames, self.frameset, banners)
        session.autosave.state_changed.connect(frames.on_save_state)
        self.kept_notes = KeptNotes(session, registry, banners, frames.open_note)
        self.unsaved_text = UnsavedText(session, registry, self)  # R77: a full disk
        self.note_commands = NoteCommands(session, registry, banners, frames.open_note, self)
        self.switcher = WorkspaceSwitch(
            session,
            registry,
            frames,
            banners,
            self.kept_notes,
            (layouts, saved),
            entered=self.show_workspace_title,
            switched=self.workspace_switched.emit,
            failed=self.workspace_switch_failed.emit,
        )
        self.menus = WindowMenus(
            self, session, registry, frames, banners, self.note_commands, self.switcher.switch
        )
        self.frameset.no_note.offer(self.menus.ask_new_note, self.menus.quick_open)
        self.ask_ai_action = self.menus.actions["edit.ask-ai"]
        registry.frames_changed.connect(self.frames_changed.emit)
        # R58: the sidecar, off unless the person turned it on (kept in the data folder).
        self.sharing = ActiveNoteSharing(session, registry, frames.proposals, self)
        self.sharing_controls = SharingControls(
            self.sharing,
            self.menus.assistant_menu,
            self,
            lambda text: banners.show_message(text, tone="info", topic="sharing-explained"),
        )
        self.sharing.problem.connect(
            lambda text: banners.show_message(text, tone="error", topic=f"sharing:{text[:40]}")
        )
        self.workspace_switched.connect(lambda _workspace: self.sharing.write_listing())
        if self.sharing.remembered():
            self.sharing.turn_on()
        session.privacy_marks.problem_changed.connect(self._show_privacy_problem)
        session.privacy_marks.start()  # R86: the file is looked at now, then every 2 s
        self.driver = WindowDriver(
            registry,
            frames,
            self.note_commands,
            self.switcher,
            self.menus,
            self.kept_notes,
            self.popout_host,
        )

    def _show_privacy_problem(self, problem: object) -> None:
        """R86: an ``.aiexclude`` that can't be read keeps every note private: say why."""
        if isinstance(problem, str):
            self.banners.show_message(problem, tone="error", topic=PRIVACY_TOPIC)
        else:
            self.banners.dismiss_topic(PRIVACY_TOPIC)

    def _show_assistant_problem(self) -> None:
        if self._session.assistant_problem:
            self.banners.show_message(self._session.assistant_problem, tone="error")

    def window_place(self) -> str:
        """Size, place and maximised state, as Qt saves them (base64) for the layout (R80)."""
        return bytes(self.saveGeometry().toBase64().data()).decode("ascii")

    def restore_window_place(self, place: str) -> None:
        """Size, place and maximised state as last kept for the workspace (R80).

        Qt puts a place that is off every screen now (a screen unplugged, a smaller one)
        back inside the available screen, and shrinks a size that no longer fits.
        """
        self.restoreGeometry(QByteArray.fromBase64(place.encode("ascii")))

    def show_workspace_title(self, workspace: str) -> None:
        self.setWindowTitle(f"Ambient Notes — {workspace}")

    # -- what the runner and tests read (what they do goes through ``self.driver``) --

    @property
    def session(self) -> AppSession:
        return self._session

    @property
    def store(self) -> AmbientStore:
        return self._session.store

    @property
    def frames(self) -> dict[str, FrameBase]:
        return self.registry.frames

    @property
    def assistant(self) -> AssistantFrame:
        """The open workspace's AI Assistant frame."""
        return self.window_frames.assistant

    @property
    def is_switching_workspace(self) -> bool:
        return self.registry.switching

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab and Shift+Tab go through the window in the order it is drawn (R85)."""
        return move_focus(self, QApplication.focusWidget(), forward=next)

    # -- quitting ------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed and self.unsaved_text.stops_quit(self.close):
            event.ignore()  # R77: quitting now would lose text no file holds
            return
        if not self._closed:
            self._closed = True
            self.switcher.persist(quitting=True)  # R45: the next start opens this layout
            self.sharing.shutdown()  # R59: no discovery file and no open port after quitting
            self.window_frames.shutdown_frames()  # pending saves queued, pop-outs ended
            self._session.autosave.stop_retries()
            collector.release()
        super().closeEvent(event)
