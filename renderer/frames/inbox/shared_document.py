"""Frames on the same note share one live document and one save (R53).

The first frame to load a note owns its document: its editor is the document's
parent and its autosave watch saves it. A frame mounted later on the same note in
the same window shows that document instead of loading a copy of its own, so an
edit in one shows in the other at once and there is one save. When the owner
closes or opens another note, the document and its save pass to the next frame
that shows it. A frame mounted while the first one still loads waits for that
load (:class:`PendingShare`) instead of loading a second copy. Frames follow
their editor's own signals, which Qt moves to the editor's current document, so
nothing needs reconnecting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, Self, TypeVar

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QPlainTextDocumentLayout, QPlainTextEdit

from renderer.frames.inbox.views import leave_documents


class SharingFrame(Protocol):
    """What sharing needs of an Inbox frame."""

    editor: QPlainTextEdit
    sharers: list[Self]
    owner: Self | None

    def take_ownership(self) -> None:
        """Become the document's saver: watch it for edits and save them."""
        ...


FrameT = TypeVar("FrameT", bound=SharingFrame)


class LoadingFrame(Protocol):
    """What waiting for another frame's load needs of it."""

    loaded: SignalInstance
    load_failed: SignalInstance
    load_abandoned: SignalInstance

    @property
    def path(self) -> str: ...

    @property
    def owner(self) -> LoadingFrame | None: ...


def join(frame: FrameT, owner: FrameT) -> None:
    """Show ``owner``'s document in ``frame``; ``owner`` keeps saving it."""
    frame.editor.setDocument(owner.editor.document())
    frame.owner = owner
    owner.sharers.append(frame)


def leave(frame: FrameT) -> None:
    """Stop sharing; an owner's document and its save pass to the next frame showing it.

    ``frame`` is left with a fresh, empty document of its own (its caller loads it).
    """
    if frame.owner is not None:
        if frame in frame.owner.sharers:
            frame.owner.sharers.remove(frame)
        frame.owner = None
        _fresh_document(frame)
        frame.take_ownership()
        return
    if not frame.sharers:
        return
    heir, *others = frame.sharers
    frame.sharers = []
    frame.editor.document().setParent(heir.editor)  # it outlives this frame's editor
    heir.owner = None
    heir.sharers = others
    for other in others:
        other.owner = heir
    heir.take_ownership()
    _fresh_document(frame)


def fresh_editor_document(editor: QPlainTextEdit) -> QTextDocument:
    """An empty document for ``editor``, set up as the one it shows, owned by the editor."""
    shown = editor.document()
    fresh = QTextDocument(editor)
    fresh.setDocumentLayout(QPlainTextDocumentLayout(fresh))
    fresh.setDefaultFont(editor.font())
    fresh.setDefaultTextOption(shown.defaultTextOption())  # wrap mode, tab stops
    fresh.setDocumentMargin(shown.documentMargin())
    return fresh


def show_document(editor: QPlainTextEdit, document: QTextDocument) -> None:
    """Show ``document`` in ``editor``; the editor's own document it replaces is emptied later.

    Qt deletes a replaced document that is the editor's child at once: a big one
    would hold the GUI thread for hundreds of milliseconds (R67).
    """
    shown = editor.document()
    if shown is not document and shown.parent() is editor:
        leave_documents([shown])  # no longer the editor's child: Qt leaves it alone
    # Quietly: the editor's "text changed" would start a save timer for a document
    # that holds no edit (and, as the frame closes, one that is going away).
    blocked = editor.blockSignals(True)
    try:
        editor.setDocument(document)
    finally:
        editor.blockSignals(blocked)


def _fresh_document(frame: SharingFrame) -> None:
    fresh = fresh_editor_document(frame.editor)
    # Quietly: the editor's "text changed" would restart a save timer that is going away.
    blocked = frame.editor.blockSignals(True)
    try:
        frame.editor.setDocument(fresh)
    finally:
        frame.editor.blockSignals(blocked)


class PendingShare:
    """A frame mounted while another frame of the window still loads the same note (R53).

    It loads no copy of its own: once that load is done it shows the loaded document
    (``on_ready`` gets the document's owner). When that load fails, or the loading
    frame closes or opens another note first, ``on_alone`` has it load the note itself.
    """

    def __init__(
        self,
        path: str,
        loading: LoadingFrame,
        on_ready: Callable[[LoadingFrame], None],
        on_alone: Callable[[], None],
    ) -> None:
        self._path = path
        self._loading = loading
        self._on_ready = on_ready
        self._on_alone = on_alone
        self._connections = [
            loading.loaded.connect(self._loaded),
            loading.load_failed.connect(self._alone),
            loading.load_abandoned.connect(self._alone),
        ]

    def cancel(self) -> None:
        """Stop waiting; neither callback runs."""
        connections, self._connections = self._connections, []
        for connection in connections:
            QObject.disconnect(connection)

    def _loaded(self) -> None:
        self.cancel()
        loading = self._loading
        if loading.path != self._path:
            self._on_alone()
            return
        self._on_ready(loading.owner or loading)

    def _alone(self, *_reason: object) -> None:
        self.cancel()
        self._on_alone()
