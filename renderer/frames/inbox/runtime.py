"""The live runtime an Inbox frame publishes to the store (R1, R11).

A handle, not a copy: every call reads the frame's editor at that moment, and
:meth:`QtInboxRuntime.is_loaded` says whether the editor holds the note yet.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from bridge.pointer import Selection, editor_selection
from bridge.views import View
from renderer.ambient.lines import SelectedSpan

BLOCK_SEPARATOR = "\u2029"


def read_document_text(editor: QPlainTextEdit) -> str:
    """The editor's text exactly as typed (no-break spaces kept), lines joined by ``\\n``."""
    return editor.document().toRawText().replace(BLOCK_SEPARATOR, "\n")


class NoteFrame(Protocol):
    """An Inbox frame as others name it: its id, the note it shows and the view."""

    @property
    def frame_id(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def view(self) -> View: ...


class EditorFrame(NoteFrame, Protocol):
    """What the runtime reads from its Inbox frame."""

    @property
    def is_loaded(self) -> bool: ...

    @property
    def editor(self) -> QPlainTextEdit: ...


class QtInboxRuntime:
    """The live runtime an Inbox frame publishes (R1): reads the frame's editor on every call."""

    def __init__(self, frame: EditorFrame) -> None:
        self._frame = frame

    @property
    def frame_id(self) -> str:
        return self._frame.frame_id

    def current_path(self) -> str:
        return self._frame.path

    def current_view(self) -> View:
        return self._frame.view

    def is_loaded(self) -> bool:
        return self._frame.is_loaded

    def read_text(self) -> str:
        return read_document_text(self._frame.editor)

    def read_selection(self) -> Selection | None:
        # Qt positions count QString characters, which are UTF-16 code units (R8).
        cursor = self._frame.editor.textCursor()
        return editor_selection(cursor.anchor(), cursor.position())

    def read_selected_span(self) -> SelectedSpan | None:
        cursor = self._frame.editor.textCursor()
        anchor, head = cursor.anchor(), cursor.position()
        if anchor == head:
            return None
        # The line the selection starts on is found in the document's block index, so
        # only the selection and the start of its first line are read.
        document = cursor.document()
        first = document.findBlock(min(anchor, head))
        span = QTextCursor(first)
        # One unit past the end, so a selection ending inside a surrogate pair reads the
        # whole pair, as in the whole text (a lone half would not survive into ``str``).
        end = min(max(anchor, head) + 1, document.characterCount() - 1)
        span.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        text = span.selectedText().replace(BLOCK_SEPARATOR, "\n")
        base = first.position()
        return SelectedSpan(text, first.blockNumber(), anchor - base, head - base)
