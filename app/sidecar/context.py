"""``ide/contextUpdate``: the host's open notes, the active one, its cursor and selection (R60).

Built on the GUI thread from this window's own frames and store only, so a note
open in a popped-out window never appears (R29). Activation, a note opening or
closing and a selection change each (re)start one 50 ms timer; when it fires, one
update goes out. Timestamps are Unix milliseconds of a note's last activation; a
note never activated gets one below every activated note, newest mount highest,
so sorting by timestamp gives the resolver's order (R4) and the note that
resolves is the newest, as the Gemini CLI expects of the active file.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QTextCursor

from app.sidecar.notes import NoteAccess
from bridge.contract import CONTEXT_DEBOUNCE_MS, SELECTED_TEXT_MAX_BYTES
from bridge.reading import cut_at_character
from bridge.views import EDIT
from renderer.ambient.store import AmbientStore
from renderer.frames.inbox.frame import InboxFrame

_PARAGRAPH_SEPARATOR: Final = "\u2029"  # how Qt's selectedText() ends a line

Send = Callable[[dict[str, Any], str | None], None]
"""(IdeContext, session id or None for every tool)."""


class ContextFeed(QObject):
    """Watches the store and the registry; sends the context, debounced, while it runs."""

    def __init__(self, store: AmbientStore, notes: NoteAccess, send: Send) -> None:
        super().__init__()
        self._store = store
        self._notes = notes
        self._send = send
        self._activated_at: dict[str, int] = {}
        self._mounted_at: dict[str, int] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CONTEXT_DEBOUNCE_MS)
        self._timer.timeout.connect(lambda: self.send_now(None))
        self._listening = False
        self.sent = 0
        """How many updates went out (to every tool): what a benchmark counts."""

    def start(self) -> None:
        store = self._store
        # psygnal calls ``changed`` with none of the signals' arguments: it takes none.
        store.resolution_changed.connect(self.changed)
        store.frame_activated.connect(self._on_activated)
        store.frame_selection_changed.connect(self.changed)
        store.frame_loaded.connect(self.changed)
        self._notes.registry.frames_changed.connect(self.changed)
        self._listening = True

    def stop(self) -> None:
        store = self._store
        store.resolution_changed.disconnect(self.changed)
        store.frame_activated.disconnect(self._on_activated)
        store.frame_selection_changed.disconnect(self.changed)
        store.frame_loaded.disconnect(self.changed)
        self._notes.registry.frames_changed.disconnect(self.changed)
        self._listening = False
        self._timer.stop()

    def changed(self) -> None:
        """Something the context shows may have changed: send once things settle."""
        if self._listening:
            self._timer.start()

    def _on_activated(self, frame_id: str) -> None:
        self._activated_at[frame_id] = _now_ms()
        self.changed()

    def send_now(self, session_id: str | None) -> None:
        """Send the context now, to one tool (it just connected) or to all."""
        self._send(self.context(), session_id)
        if session_id is None:
            self.sent += 1

    # -- the context ---------------------------------------------------------------------

    def context(self) -> dict[str, Any]:
        """The companion specification's ``IdeContext`` for this window's notes."""
        frames = {frame.frame_id: frame for frame in self._notes.registry.inbox_frames()}
        mounted = [frames[i] for i in self._store.mounted_frame_ids if i in frames]
        resolved = self._store.resolve_runtime()
        active_id = resolved.frame_id if resolved is not None else None
        stamps = self._timestamps([frame.frame_id for frame in mounted])
        files: list[dict[str, Any]] = []
        seen: set[str] = set()
        for frame in sorted(mounted, key=lambda f: stamps[f.frame_id], reverse=True):
            if self._store.is_private(frame.path):
                continue  # R86: a private note is never shared: not its path, nor its text
            absolute = self._notes.absolute(frame.path)
            if absolute is None or absolute in seen:
                continue  # two frames on one note: the most recent one speaks for it
            seen.add(absolute)
            entry: dict[str, Any] = {"path": absolute, "timestamp": stamps[frame.frame_id]}
            if frame.frame_id == active_id:
                entry.update(_editor_state(frame))
            files.append(entry)
        return {"workspaceState": {"openFiles": files, "isTrusted": True}}

    def _timestamps(self, mounted: list[str]) -> dict[str, int]:
        """Unix ms, strictly falling in the resolver's order (R4), so the newest resolves.

        A note's own time is its last activation seen here, else when it was first seen
        mounted; a note the resolver ranks lower never gets a later time than one above it.
        """
        now = _now_ms()
        for frame_id in mounted:
            self._mounted_at.setdefault(frame_id, now)
        for gone in set(self._mounted_at) - set(mounted):
            self._mounted_at.pop(gone, None)
            self._activated_at.pop(gone, None)
        present = set(mounted)
        activated = [i for i in reversed(self._store.activation_history) if i in present]
        ranked = set(activated)
        order = activated + [i for i in reversed(mounted) if i not in ranked]
        stamps: dict[str, int] = {}
        ceiling = now + 1
        for frame_id in order:
            own = self._activated_at.get(frame_id, self._mounted_at[frame_id])
            ceiling = stamps[frame_id] = min(own, ceiling - 1)
        return stamps


def _editor_state(frame: InboxFrame) -> dict[str, Any]:
    """The active note: ``isActive``, and in the edit view the 1-based cursor and selection."""
    state: dict[str, Any] = {"isActive": True}
    if frame.view != EDIT or not frame.is_loaded:
        return state
    cursor = frame.editor.textCursor()
    state["cursor"] = {"line": cursor.blockNumber() + 1, "character": cursor.positionInBlock() + 1}
    start, end = cursor.selectionStart(), cursor.selectionEnd()
    if end > start:
        # Read no more than the limit allows (UTF-16 units ≥ characters ≥ bytes / 4).
        bounded = QTextCursor(frame.editor.document())
        bounded.setPosition(start)
        bounded.setPosition(
            min(end, start + SELECTED_TEXT_MAX_BYTES), QTextCursor.MoveMode.KeepAnchor
        )
        text = bounded.selectedText().replace(_PARAGRAPH_SEPARATOR, "\n")
        data = cut_at_character(
            text.encode("utf-8", errors="surrogatepass"), SELECTED_TEXT_MAX_BYTES
        )
        state["selectedText"] = data.decode("utf-8", errors="surrogatepass")
    return state


def _now_ms() -> int:
    return time.time_ns() // 1_000_000
