"""The Inbox frame: one note in its views over the same live document, published to the store.

The frame's :class:`QtInboxRuntime` is a handle that reads the editor when asked
(R1, R11): nothing caches the text. Edits go to the autosave coordinator; loads
run on a worker and come back as signals, so the GUI thread never waits.
"""

from __future__ import annotations

import contextlib
from typing import Literal, cast

from PySide6.QtCore import QPoint, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import QMenu, QPlainTextEdit, QStackedWidget, QTextEdit, QWidget

from bridge.errors import BackendError, NotFound
from bridge.paths import check_workspace_path
from bridge.views import EDIT, PREVIEW, View, view_named
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.outline import Task
from renderer.ambient.store import AmbientStore
from renderer.frames.base import FrameBase, tool_button
from renderer.frames.find_bar import FindBar, TextWidgetTarget
from renderer.frames.inbox.conflict import ConflictBar
from renderer.frames.inbox.controls import (
    BADGES,
    LoadProblem,
    ViewSwitcher,
    show_save_badge,
)
from renderer.frames.inbox.inline_prompt import ACTION_TEXT, SHORTCUT, InlineCommand
from renderer.frames.inbox.links import LinkOffer, link_target
from renderer.frames.inbox.note_fetch import LoadedNote, fetch_note
from renderer.frames.inbox.privacy_lock import PrivacyLock
from renderer.frames.inbox.runtime import QtInboxRuntime, read_document_text
from renderer.frames.inbox.shared_document import (
    PendingShare,
    fresh_editor_document,
    join,
    leave,
    show_document,
)
from renderer.frames.inbox.view_drawing import ViewDrawing
from renderer.frames.inbox.view_kinds import (
    EDIT_VIEW,
    MINDMAP_VIEW,
    PREVIEW_VIEW,
    TODO_VIEW,
    page_of,
    view_key,
    view_kinds,
)
from renderer.frames.inbox.views import PreviewView
from renderer.qt.autosave import AutosaveCoordinator
from renderer.qt.long_lines import wrap_mode_for
from renderer.qt.privacy import PrivacyMarks
from renderer.qt.tasks import TaskRunner

_RERENDER_DELAY_MS = 150

Position = int | Literal["end"]
"""Where :meth:`InboxFrame.type_text` types: a UTF-16 offset or the end of the note."""


class InboxFrame(FrameBase):
    """A note editor with the views :mod:`~renderer.frames.inbox.view_kinds` lists."""

    loaded = Signal()
    save_state_changed = Signal(str)
    popout_requested = Signal(str)
    load_failed = Signal(str)
    note_link_clicked = Signal(str)
    """A link in the preview to this workspace path was clicked: open it in a frame (R62)."""
    load_abandoned = Signal()
    """A load in progress will never finish here: the frame closed or opened another note."""

    def __init__(
        self,
        frame_id: str,
        path: str,
        view: View,
        *,
        link: WorkspaceLink,
        store: AmbientStore,
        runner: TaskRunner,
        autosave: AutosaveCoordinator,
        can_pop_out: bool = True,
        privacy: PrivacyMarks | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(frame_id, path, parent=parent)
        self._privacy = privacy
        self._link = link
        self._store = store
        self._runner = runner
        self._autosave = autosave
        self._path = path
        self._view: View = view
        self._load_generation = 0
        self._applying_load = False
        self._mounted = False
        self.is_loaded = False
        self.is_new_note = False
        self.save_state = ""
        self.runtime = QtInboxRuntime(self)
        self.owner: InboxFrame | None = None
        """The frame whose document this one shows and saves, when it shares one."""
        self.sharers: list[InboxFrame] = []
        self._pending_share: PendingShare | None = None
        self._build_body(path, runner)
        self._build_inline(runner)
        self._build_title_controls(frame_id, can_pop_out=can_pop_out)
        self._connect_signals(autosave)
        self._show_view()

    def _build_body(self, path: str, runner: TaskRunner) -> None:
        """The views in a stack, with the load problem, conflict and link bars around."""
        kinds = view_kinds()
        self._pages: dict[View, QWidget] = {kind.name: kind.make(self.body, path) for kind in kinds}
        self.editor = page_of(self._pages, EDIT_VIEW)
        self.preview = page_of(self._pages, PREVIEW_VIEW)
        self.todo = page_of(self._pages, TODO_VIEW)
        self.mindmap = page_of(self._pages, MINDMAP_VIEW)
        self.stack = QStackedWidget(self.body)
        for page in self._pages.values():
            self.stack.addWidget(page)
        self.problem = LoadProblem(path, self._load, self.body)
        self.problem_label = self.problem.label
        self.retry_button = self.problem.retry_button
        self.body_layout.addWidget(self.problem)
        # The views' drawing: read off the GUI thread, drawn in slices under a busy label.
        self.drawing = ViewDrawing(runner, self._pages, self.stack, self)
        # A new width for a long preview: its next show draws it again, for that width.
        self.preview.rewrap_wanted.connect(lambda: self.drawing.forget(PREVIEW))
        self.renders = self.drawing.renders
        self.busy_label = self.drawing.busy_label
        self.conflict = ConflictBar(
            self,
            link=self._link,
            autosave=self._autosave,
            runner=runner,
            reload=self._load,
            parent=self.body,
        )
        self.body_layout.addWidget(self.conflict)
        # Find and Replace (R84): over the editor, or over the preview's text when it shows.
        self._find_targets = {
            kind.name: TextWidgetTarget(page)
            for kind in kinds
            if kind.finds_text
            and isinstance(page := self._pages[kind.name], QPlainTextEdit | QTextEdit)
        }
        self.find_bar = FindBar(lambda: self._find_targets.get(self._view), self.body)
        self.body_layout.addWidget(self.find_bar)
        self.body_layout.addWidget(self.stack, 1)
        self.link_offer = LinkOffer(self.body)
        self.body_layout.addWidget(self.link_offer)

    def _build_inline(self, runner: TaskRunner) -> None:
        """The Inline AI command (R68): Ctrl+I in the editor and its context menu."""
        self.inline = InlineCommand(self, runner, self)
        self.ask_ai_action = QAction(ACTION_TEXT, self.editor)
        self.ask_ai_action.setShortcut(QKeySequence(SHORTCUT))
        # Only while this editor has focus: each frame (and each window) has its own.
        self.ask_ai_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.ask_ai_action.triggered.connect(self.ask_ai)
        self.editor.addAction(self.ask_ai_action)
        self.editor.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.editor.customContextMenuRequested.connect(self._show_editor_menu)

    def open_find(self, *, replace: bool = False) -> None:
        """Ctrl+F or Ctrl+H: the find bar over this view (todo and map find in the edit view)."""
        if self._view not in self._find_targets:
            self.set_view(EDIT)
        self.find_bar.open(replace=replace)

    def ask_ai(self) -> bool:
        """Open the inline prompt at the selection or cursor (R68)."""
        return self.inline.open()

    def editor_menu(self, position: QPoint) -> QMenu:
        """The editor's standard context menu with "Ask AI about the selection…" added."""
        menu = self.editor.createStandardContextMenu(position)
        menu.addSeparator()
        menu.addAction(self.ask_ai_action)
        return menu

    def _show_editor_menu(self, position: QPoint) -> None:
        menu = self.editor_menu(position)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.editor.viewport().mapToGlobal(position))

    def _connect_signals(self, autosave: AutosaveCoordinator) -> None:
        self._rerender = QTimer(self)
        self._rerender.setSingleShot(True)
        self._rerender.setInterval(_RERENDER_DELAY_MS)
        self._rerender.timeout.connect(self._render_view)
        self.preview.anchorClicked.connect(self._on_link_clicked)
        # After the drawing has forgotten the preview (connected first): drawn again if shown.
        self.preview.rewrap_wanted.connect(self._render_view)
        # The editor's own signals follow its current document, shared or not (R53).
        self.editor.modificationChanged.connect(self._on_modification_changed)
        self.editor.textChanged.connect(self._rerender.start)
        # Qt emits this when the selection changes, not for each keystroke of plain typing.
        self.editor.selectionChanged.connect(self._on_selection_changed)
        self.todo.task_toggled.connect(self._on_task_toggled)
        autosave.state_changed.connect(self._on_save_state)
        autosave.save_conflict.connect(self._on_save_conflict)

    def _build_title_controls(self, frame_id: str, *, can_pop_out: bool) -> None:
        """The view buttons, pop out (↗) and close, in the title bar."""
        self._view_switcher = ViewSwitcher(
            self,
            frame_id,
            self.title_bar,
            self.set_view,
            [(kind.name, kind.label, view_key(kind.name)) for kind in view_kinds()],
        )
        self.view_buttons = self._view_switcher.buttons
        self.popout_button = tool_button(
            "↗", f"Pop out {frame_id}", "Open this note in its own window", self.title_bar
        )
        self.popout_button.clicked.connect(self.pop_out)
        self.popout_button.setVisible(can_pop_out)
        self.title_bar.add_control(self.popout_button)
        # R86: the lock, and the switch between private and shared (not in a pop-out's copy).
        self.privacy_lock: PrivacyLock | None = None
        if self._privacy is not None:
            self.privacy_lock = PrivacyLock(self._privacy, lambda: self._path, self.title_bar)
            self.title_bar.add_control(self.privacy_lock.button)
        self.add_close_control()

    # -- what the store reads ----------------------------------------------

    @property
    def path(self) -> str:
        return self._path

    @property
    def is_private(self) -> bool:
        """R86: whether ``.aiexclude`` keeps this note from the assistant now."""
        return self._privacy is not None and self._privacy.is_private(self._path)

    @property
    def view(self) -> View:
        return self._view

    @property
    def link(self) -> WorkspaceLink:
        return self._link

    def current_path(self) -> str:
        return self._path

    def read_text(self) -> str:
        return read_document_text(self.editor)

    def take_text(self) -> str:
        """The text for a save; the next edit marks the note changed again."""
        text = read_document_text(self.editor)
        self.editor.document().setModified(False)
        return text

    # -- lifecycle -----------------------------------------------------------

    def mount(self, share: InboxFrame | None = None, *, loading: InboxFrame | None = None) -> None:
        """Publish the live runtime (R1), start autosave tracking and load the note.

        With ``share`` (a loaded frame on the same note) this frame shows that frame's
        document instead, which that frame keeps saving (R53); with ``loading`` (a frame
        still loading it) it waits for that load and then does the same.
        """
        self._mounted = True
        self._store.publish(self.runtime)
        if share is not None:
            self._share(share)
        elif loading is not None:
            self._pending_share = PendingShare(
                self._path, loading, on_ready=self._share, on_alone=self._load_alone
            )
        else:
            self._load_alone()

    def _share(self, owner: object) -> None:
        self._pending_share = None
        shared = cast(InboxFrame, owner)
        join(self, shared)
        self._show_loaded(new=shared.is_new_note)

    def _load_alone(self) -> None:
        self._pending_share = None
        self.take_ownership()
        self._load()

    def _stop_waiting(self) -> bool:
        """Stop waiting for another frame's load; whether this frame was waiting."""
        pending, self._pending_share = self._pending_share, None
        if pending is not None:
            pending.cancel()
        return pending is not None

    def take_ownership(self) -> None:
        """Watch this frame's document for edits and save it (alone, or for its sharers)."""
        if not self._mounted:
            return
        debounce = self._autosave.watch(self)
        # Straight from the editor to the timer: typing runs no Python per keystroke.
        self.editor.textChanged.connect(debounce.start)
        if self.editor.document().isModified():
            self._autosave.edited(self.frame_id)  # an edit made before the hand-over

    def withdraw(self) -> None:
        """Stop being a candidate (close or pop-out); a pending edit is saved first."""
        if not self._mounted:
            return
        self._mounted = False
        self._autosave.unwatch(self.frame_id, save=True)
        self._store.withdraw(self.frame_id)

    def teardown(self) -> None:
        super().teardown()
        if self.privacy_lock is not None:
            self.privacy_lock.close()
        self.inline.close()
        self._stop_waiting()
        if not self.is_loaded:
            self.load_abandoned.emit()
        self.withdraw()
        leave(self)
        # What this frame alone showed is emptied a slice at a time, not freed with it (R67).
        show_document(self.editor, fresh_editor_document(self.editor))
        self._rerender.stop()
        self.drawing.close()
        self.preview.leave_documents()  # a big one is emptied a slice at a time, not freed at once
        self._load_generation += 1
        with contextlib.suppress(RuntimeError, TypeError):
            self._autosave.state_changed.disconnect(self._on_save_state)
        with contextlib.suppress(RuntimeError, TypeError):
            self._autosave.save_conflict.disconnect(self._on_save_conflict)

    # -- actions (the same paths as the user's) ------------------------------

    def activation_target(self) -> QWidget:
        page = self._pages[self._view]
        return page.viewport() if isinstance(page, QPlainTextEdit | PreviewView) else page

    def focus_target(self) -> QWidget:
        return self._pages[self._view]

    def set_view(self, name: str) -> None:
        """Show the view called ``name`` (a ``ValueError`` says which views there are)."""
        view = view_named(name)
        if view == self._view:
            self._view_switcher.show(self._view)
            return
        self._view = view
        self._show_view()
        if self.find_bar.isVisible():
            self.find_bar.refresh()
        self._store.runtime_changed(self.frame_id)

    def open_path(self, path: str) -> None:
        """Show another note in this frame; the pending edit of the current one is saved first.

        A path the workspace could never hold raises ``WorkspacePathError`` (a
        ``ValueError`` with a plain message) and changes nothing.
        """
        check_workspace_path(path)
        if path == self._path:
            return
        if self._stop_waiting():
            self.take_ownership()
        elif not self.is_loaded:
            self.load_abandoned.emit()
        self._autosave.save_now(self.frame_id)
        leave(self)
        self._path = path
        if self.privacy_lock is not None:
            self.privacy_lock.refresh()
        self.set_title(path)
        self.editor.setAccessibleName(f"Note text of {path}")
        self._store.runtime_changed(self.frame_id)
        self._load()

    def pop_out(self) -> None:
        self.popout_requested.emit(self.frame_id)

    # -- what a person does in the editor (contract 6) -------------------------
    # Each goes through the editor as typing and selecting do, so the autosave, the
    # store and the views see exactly what they see for a person's edits.

    def type_text(self, text: str, at: Position = "end") -> None:
        """Move the cursor and insert ``text`` through the editor, as typing does."""
        cursor = self.editor.textCursor()
        if at == "end":
            cursor.movePosition(QTextCursor.MoveOperation.End)
        else:
            cursor.setPosition(_clamp(self.editor, int(at)))
        self.editor.setTextCursor(cursor)
        self.editor.insertPlainText(text)

    def replace_text(self, text: str) -> None:
        """Replace the whole note as one undoable edit (restoring kept text); autosave saves it."""
        if text == self.read_text() and not self._autosave.is_dirty(self.frame_id):
            # Nothing to save, yet the edit must reach the backend once to settle the note.
            self.editor.document().setModified(True)
            self._autosave.edited(self.frame_id)
            return
        cursor = self.editor.textCursor()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        self.editor.setTextCursor(cursor)

    def select(self, anchor: int, head: int) -> None:
        """Select from ``anchor`` to ``head`` (UTF-16 offsets, clamped to the document)."""
        cursor = self.editor.textCursor()
        cursor.setPosition(_clamp(self.editor, anchor))
        cursor.setPosition(_clamp(self.editor, head), QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)

    def _on_task_toggled(self, task: Task, checked: bool) -> None:
        """A box ticked in the todo view: the task's mark changes in the editor, one edit."""
        block = self.editor.document().findBlockByNumber(task.line)
        if not block.isValid():
            return
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + task.mark_column)
        cursor.setPosition(block.position() + task.mark_column + 1, QTextCursor.MoveMode.KeepAnchor)
        if cursor.selectedText() not in (" ", "x", "X"):
            self._render_view()  # the note changed under the list: redraw instead of guessing
            return
        cursor.insertText("x" if checked else " ")

    # -- loading -------------------------------------------------------------

    def _load(self) -> None:
        self._load_generation += 1
        generation = self._load_generation
        link, path = self._link, self._path
        self.is_loaded = False
        self.editor.setReadOnly(True)
        self.problem.setVisible(False)

        self._runner.submit(
            lambda: fetch_note(link, path),
            on_done=lambda note: self._on_loaded(generation, note, new=False),
            on_error=lambda error: self._on_load_error(generation, error),
            held=False,  # issue 33: read from the folder while the backend starts
        )

    def _on_loaded(self, generation: int, note: LoadedNote, *, new: bool) -> None:
        if generation != self._load_generation:
            return
        self._autosave.loaded(self._link.workspace, self._path, note.etag)
        self.conflict.setVisible(False)
        self._applying_load = True
        try:
            self.editor.setWordWrapMode(note.wrap)  # R63: linear for endless lines
            self.preview.set_wrap_mode(note.wrap)  # its next drawing wraps so too
            # Into a fresh document: the one shown before (another note, perhaps 5 MiB) is
            # emptied a slice at a time, not cleared inside setPlainText in one go (R67).
            # Not while other frames show this document (R53): they would lose it.
            if not self.sharers and self.owner is None:
                show_document(self.editor, fresh_editor_document(self.editor))
            self.editor.setPlainText(note.text)
            self.editor.document().setModified(False)
        finally:
            self._applying_load = False
        self._rerender.stop()  # the load draws its view once, just below
        self._show_loaded(new=new)

    def _show_loaded(self, *, new: bool) -> None:
        self.is_new_note = new
        self.editor.setReadOnly(False)
        self.is_loaded = True
        self._render_view()
        self._set_save_state("new" if new else "saved", announce=not new)
        if self._mounted:
            self._store.runtime_loaded(self.frame_id)  # a send waiting for this note goes on
        self.loaded.emit()

    def _on_load_error(self, generation: int, error: BaseException) -> None:
        if generation != self._load_generation:
            return
        if isinstance(error, NotFound):
            # A path with no saved copy yet is a new note: it is created by its first save.
            self._on_loaded(generation, LoadedNote("", None, wrap_mode_for("")), new=True)
            return
        message = error.message if isinstance(error, BackendError) else str(error)
        self.problem.show_message(message)
        # Nothing was typed here yet, so the badge says the note is not open, not "not saved".
        self.title_bar.set_badge(BADGES["unopened"], "error")
        self.load_failed.emit(message)

    # -- views ---------------------------------------------------------------

    def _on_link_clicked(self, url: QUrl) -> None:
        target = link_target(url.toString(), self._path)
        if target.kind == "note":
            self.link_offer.hide()
            self.note_link_clicked.emit(target.address)
        else:
            self.link_offer.offer(target)

    def _show_view(self) -> None:
        self.stack.setCurrentWidget(self._pages[self._view])
        self._view_switcher.show(self._view)
        self._render_view()

    def _render_view(self) -> None:
        """Draw the shown view from the live text, unless it shows that text already."""
        document = self.editor.document()
        # A load draws its view once it has the text.
        version = (self._load_generation, document.revision()) if self.is_loaded else None
        self.drawing.show(
            self._view,
            version,
            document,
            title=self._path.rsplit("/", 1)[-1],
        )

    def _on_selection_changed(self) -> None:
        if self._mounted:
            self._store.selection_changed(self.frame_id)  # the chip shows the lines (R48)

    def _on_modification_changed(self, modified: bool) -> None:
        if modified and not self._applying_load and self.owner is None:  # one save (R53)
            self._autosave.edited(self.frame_id)

    # -- save state ----------------------------------------------------------

    def _is_this_note(self, workspace: str, path: str) -> bool:
        """Whether the autosave's news is about the note this frame shows and saves."""
        return workspace == self._link.workspace and path == self._path and self._mounted

    def _on_save_state(self, workspace: str, path: str, state: str) -> None:
        if self._is_this_note(workspace, path):
            self._set_save_state(state)

    def _on_save_conflict(self, workspace: str, path: str) -> None:
        if self._is_this_note(workspace, path):
            self.conflict.show_conflict()

    def _set_save_state(self, state: str, *, announce: bool = True) -> None:
        show_save_badge(self.title_bar, state)
        if state == "new":
            return
        if state != self.save_state:
            self.save_state = state
            if announce:
                self.save_state_changed.emit(state)


def _clamp(editor: QPlainTextEdit, position: int) -> int:
    return max(0, min(position, editor.document().characterCount() - 1))
