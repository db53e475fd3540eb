"""Non-Inbox provider frames: the workspace browser, and a placeholder for any other provider.

Activating these never changes which note "this note" is (R5).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import cast

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QMenu, QWidget

from bridge.errors import BackendError
from bridge.privacy import CHIP_PRIVATE, KEEP_PRIVATE, SHARE
from bridge.wire import DocumentEntry
from renderer.ambient.backend import WorkspaceLink
from renderer.frames.base import FrameBase, tool_button
from renderer.frames.inbox.privacy_lock import lock_icon
from renderer.qt.privacy import PrivacyMarks
from renderer.qt.tasks import TaskRunner

WORKSPACE_PROVIDER = "workspace"
LISTING_POLL_MS = 3000
"""R47: how often the browser asks for the listing again, so notes added or removed on disk
(or by another program, or a remote backend's other clients) appear by themselves. A file
watcher would see only an embedded backend's folders; a listing is one small request."""


def _human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


class WorkspaceBrowserFrame(FrameBase):
    """Lists the workspace's documents through the API; opening one asks for an Inbox frame."""

    open_requested = Signal(str)
    listed = Signal()

    def __init__(
        self,
        frame_id: str,
        *,
        link: Callable[[], WorkspaceLink],
        runner: TaskRunner,
        privacy: PrivacyMarks | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(frame_id, "Workspace", parent=parent)
        self._link = link
        self._runner = runner
        self._privacy = privacy
        self.privacy_problem: str | None = None
        """Why the latest keep-private or share did not do what it asked, or None."""
        self._generation = 0
        self._in_flight = False
        self.documents: list[DocumentEntry] = []
        self._last_ok = False
        self._poll = QTimer(self)
        self._poll.setInterval(LISTING_POLL_MS)
        self._poll.timeout.connect(self._poll_listing)
        self.list = QListWidget(self.body)
        self.list.setObjectName("documentList")
        self.list.setAccessibleName("Documents in this workspace")
        # A long path is shortened in the middle (its whole path is the tooltip), as titles are.
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemActivated.connect(self._on_item_activated)
        if privacy is not None:  # R86: keep a note or its folder private, or share it
            self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            self.list.customContextMenuRequested.connect(self._show_item_menu)
            privacy.changed.connect(self._show_privacy)
        self.status = QLabel("Loading…", self.body)
        self.status.setObjectName("browserStatus")
        self.status.setWordWrap(True)
        self.body_layout.addWidget(self.list, 1)
        self.body_layout.addWidget(self.status)
        refresh = tool_button("⟳", "Refresh the document list", "Refresh", self.title_bar)
        refresh.clicked.connect(self.refresh)
        self.title_bar.add_control(refresh)
        self.add_close_control()
        self.refresh()
        self._poll.start()

    def activation_target(self) -> QWidget:
        return self.list.viewport()

    def focus_target(self) -> QWidget:
        return self.list

    def refresh(self, *, quietly: bool = False) -> None:
        """List the documents again (off the GUI thread); ``quietly`` keeps the status line."""
        self._generation += 1
        generation = self._generation
        self._in_flight = True
        link = self._link()
        self.set_title(f"Workspace · {link.workspace}")
        if not quietly:
            self.status.setText("Loading…")

        def fetch() -> list[DocumentEntry]:
            return link.call(lambda client, session: client.list_documents(session))

        self._runner.submit(
            fetch,
            on_done=lambda docs: self._on_listed(generation, cast(list[DocumentEntry], docs)),
            on_error=lambda error: self._on_failed(generation, error),
        )

    def listed_once(self, callback: Callable[[list[DocumentEntry]], None]) -> None:
        """Call ``callback(documents)`` after the next successful listing only."""

        def once() -> None:
            self.listed.disconnect(once)
            if self._last_ok:
                callback(list(self.documents))

        self.listed.connect(once)

    def teardown(self) -> None:
        super().teardown()
        self._poll.stop()
        if self._privacy is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self._privacy.changed.disconnect(self._show_privacy)
        self._generation += 1  # a listing still in flight is dropped

    def _poll_listing(self) -> None:
        if not self._in_flight:
            self.refresh(quietly=True)

    def _on_listed(self, generation: int, documents: list[DocumentEntry]) -> None:
        if generation != self._generation:
            return
        self._in_flight = False
        unchanged = self._last_ok and documents == self.documents
        self.documents = documents
        self._last_ok = True
        if unchanged:  # a poll that found nothing new leaves the list (and its selection) alone
            self._show_count()
            self.listed.emit()
            return
        self.list.clear()
        for info in documents:
            item = QListWidgetItem(info.path)
            item.setData(Qt.ItemDataRole.UserRole, info.path)
            item.setToolTip(
                f"{info.path} · {_human_size(info.bytes)} — Enter or double-click opens"
            )
            self.list.addItem(item)
        self._show_privacy()
        self._show_count()
        self.listed.emit()

    def _show_count(self) -> None:
        count = len(self.documents)
        self.status.setText(
            f"{count} document{'s' if count != 1 else ''} · double-click to open"
            if count
            else "No notes yet. File ▸ New note… (Ctrl+N) starts one."
        )

    def _on_failed(self, generation: int, error: BaseException) -> None:
        if generation != self._generation:
            return
        self._in_flight = False
        self._last_ok = False
        message = error.message if isinstance(error, BackendError) else "unexpected problem"
        self.status.setText(f"The document list could not be loaded: {message}")
        self.listed.emit()

    # -- private notes (R86) ------------------------------------------------------------

    def is_private(self, path: str) -> bool:
        return self._privacy is not None and self._privacy.is_private(path)

    def _show_privacy(self) -> None:
        """A lock on each private note, as ``.aiexclude`` reads now."""
        locked = lock_icon(True)
        for row in range(self.list.count()):
            item = self.list.item(row)
            path = item.data(Qt.ItemDataRole.UserRole)
            private = isinstance(path, str) and self.is_private(path)
            item.setIcon(locked if private else QIcon())
            tip = item.toolTip().split(" · private", 1)[0]
            item.setToolTip(f"{tip} · private: {CHIP_PRIVATE.lower()}" if private else tip)

    def item_menu(self, item: QListWidgetItem) -> QMenu:
        """The note's menu: keep it (or the folder it is in) private, or share it again."""
        menu = QMenu(self.list)
        path = item.data(Qt.ItemDataRole.UserRole)
        privacy = self._privacy
        if not isinstance(path, str) or privacy is None:
            return menu
        private = privacy.is_private(path)
        note = menu.addAction(SHARE if private else KEEP_PRIVATE)
        note.setObjectName("shareNote" if private else "keepNotePrivate")
        note.setEnabled(privacy.editable)
        note.triggered.connect(lambda: self.set_private(path, not private))
        folder = str(PurePosixPath(path).parent)
        if folder != ".":
            shared = not privacy.is_private(folder + "/")
            label = f"{KEEP_PRIVATE if shared else SHARE}: the folder {folder}/"
            whole = menu.addAction(label)
            whole.setObjectName("keepFolderPrivate" if shared else "shareFolder")
            whole.setEnabled(privacy.editable)
            whole.triggered.connect(lambda: self.set_private(folder, shared, folder=True))
        return menu

    def set_private(self, path: str, private: bool, *, folder: bool = False) -> bool:
        """Keep ``path`` private or share it; the status line says if it could not be done."""
        if self._privacy is None:
            return False

        def done(problem: str | None) -> None:
            self.privacy_problem = problem
            if problem is not None:
                self.status.setText(problem)

        return self._privacy.set_private(path, private, folder=folder, on_done=done)

    def _show_item_menu(self, position: QPoint) -> None:
        item = self.list.itemAt(position) or self.list.currentItem()
        if item is None:
            return
        menu = self.item_menu(item)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.list.viewport().mapToGlobal(position))

    def _on_item_activated(self, item: QListWidgetItem) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(path, str):
            self.open_requested.emit(path)


class PlaceholderProviderFrame(FrameBase):
    """A provider the app has no real implementation for: a named, focusable, empty frame."""

    def __init__(self, frame_id: str, provider: str, parent: QWidget | None = None) -> None:
        super().__init__(frame_id, f"{provider} · {frame_id}", parent=parent)
        self.provider = provider
        self.label = QLabel(
            f"The “{provider}” provider shows here. It has no note of its own, so activating it "
            "leaves the assistant's note as it is.",
            self.body,
        )
        self.label.setObjectName("placeholder")
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.label.setAccessibleName(f"{provider} provider")
        self.body_layout.addWidget(self.label, 1)
        self.add_close_control()

    def activation_target(self) -> QWidget:
        return self.label
