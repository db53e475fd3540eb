"""Notes open in another window, as a turn in this one should speak of them (R29, R25).

A popped-out note is no longer "this note" here, and its window may hold edits
not saved yet. Two things follow for a turn in the main window:

- when "this note" fell back to another note because the one it was popped out,
  the turn says so, rather than silently answering about another note;
- when the assistant read a popped-out note by name (``read_document``), it read
  the saved copy, which may be behind that window: the turn says so, as R25 does
  for the note on screen.

:class:`FallbackWatch` remembers the first: set when "this note" is popped out,
forgotten as soon as "this note" changes for any other reason (another frame
activated, another note opened, the workspace boundary). Qt-free; no note text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bridge.tools import READ_ACTIVE_NOTE, READS_BY_NAME
from renderer.ambient.store import AmbientStore, Resolution

ACTIVE_NOTE_TOOL = READ_ACTIVE_NOTE.name
"""The tool that reads "this note": a turn that called it answered about "this note"."""
READ_BY_NAME_TOOLS = READS_BY_NAME
"""Tools that read a named note's saved copy; ``read_active_note`` reads this window's note."""


@dataclass(frozen=True)
class Elsewhere:
    """What a turn knows of the workspace's notes open in other windows."""

    open_elsewhere: frozenset[str] = frozenset()
    """Paths open in a popped-out window of this workspace."""
    fell_back_from: str | None = None
    """The note that was "this note" here until it was popped out, while that still holds."""


NOWHERE_ELSE = Elsewhere()


class FallbackWatch:
    """Which popped-out note "this note" fell back from, while nothing else changed it."""

    def __init__(self, store: AmbientStore) -> None:
        self._store = store
        self._fell_back_from: str | None = None
        store.resolution_changed.connect(self._changed)

    @property
    def fell_back_from(self) -> str | None:
        return self._fell_back_from

    def popped_out(self, path: str, resolved_before: Resolution | None, frame_id: str) -> None:
        """``frame_id`` (showing ``path``) just left this window; was it "this note"?"""
        if resolved_before is not None and resolved_before.frame_id == frame_id:
            self._fell_back_from = path

    def close(self) -> None:
        self._store.resolution_changed.disconnect(self._changed)

    def _changed(self, _resolution: Resolution | None) -> None:
        self._fell_back_from = None


def read_elsewhere(tool_calls: Iterable[tuple[str, object]], elsewhere: Elsewhere) -> list[str]:
    """Paths of popped-out notes the assistant read by name, in call order, once each.

    ``tool_calls`` are (tool name, result) pairs; only a successful read counts.
    """
    found: list[str] = []
    for name, result in tool_calls:
        if name not in READ_BY_NAME_TOOLS or not isinstance(result, dict):
            continue
        path = result.get("path")
        ok = result.get("status") == "ok"
        if ok and isinstance(path, str) and path in elsewhere.open_elsewhere and path not in found:
            found.append(path)
    return found


def fallback_notice(elsewhere: Elsewhere, path_sent: str | None) -> str | None:
    """Why this turn is about another note (or none): the one meant is in its own window."""
    origin = elsewhere.fell_back_from
    if origin is None or origin == path_sent:
        return None
    if path_sent is None:
        return f"{origin} is in its own window now, so no note here is “this note”."
    return (
        f"{origin} is in its own window now, so “this note” here is {path_sent}: "
        "this reply is about that note."
    )


def read_elsewhere_caveat(path: str) -> str:
    """The R25 caveat for a note read by name while another window may hold newer edits."""
    return (
        f"{path} is open in its own window: the assistant read its saved copy, which may be "
        "behind that window — its most recent, unsaved edits may be missing."
    )


ElsewhereSource = Callable[[], Elsewhere]
"""What a turn asks, when it is sent and when it ends, about notes open elsewhere."""
