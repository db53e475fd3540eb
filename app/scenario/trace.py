"""A trace of each step: what "this note" was made of right after it ran (R79).

A failing scenario's reports show, step by step, the store's most-recently-used
order, the frame last activated, the chip's text, and the capture: what a send
made at that moment would carry (or why it would carry nothing), and the send
still being prepared when the step ran during a flush. Read off the live
window through the same objects the app uses; nothing here changes the app.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from renderer.ambient.capture import begin_capture
from renderer.ambient.store import Resolution

if TYPE_CHECKING:
    from app.window.main_window import MainWindow


@dataclass(frozen=True)
class StepTrace:
    """The window's ambient state right after one step."""

    workspace: str
    mru: list[str]
    """Activated frames of any kind, most recent first (the store's order, R2 R4 R5)."""
    mounted: list[str]
    """Mounted Inbox frames in mount order (the fallback when none was activated, R4)."""
    active: str | None
    resolves: str | None
    """What "this note" resolves to: ``frame path (view)``, or None."""
    chip: str
    left_out: bool
    """The chip's "Leave out" toggle is on: the next send carries no note (R48)."""
    capture: dict[str, Any] | str
    """A capture made now, unflushed: the pointer's fields, or the reason it has none."""
    pending: str | None = None
    """The send being prepared while this step ran (steps under ``duringFlush``)."""
    unsaved: list[str] = field(default_factory=list)
    """Inbox frames holding edits not yet queued for saving."""

    def lines(self) -> list[tuple[str, str]]:
        """(label, text) pairs, in the order the reports show them."""
        rows = [
            ("MRU (most recent first)", ", ".join(self.mru) or "none"),
            ("mounted (mount order)", ", ".join(self.mounted) or "none"),
            ("active frame", self.active or "none"),
            ("resolves to", self.resolves or "no note"),
            ("chip", self.chip + (" [leave out on]" if self.left_out else "")),
            ("capture now", _capture_text(self.capture)),
            ("workspace", self.workspace),
        ]
        if self.unsaved:
            rows.append(("unsaved edits", ", ".join(self.unsaved)))
        if self.pending is not None:
            rows.append(("send in preparation", self.pending))
        return rows


def describe_resolution(resolution: Resolution | None) -> str | None:
    if resolution is None:
        return None
    return f"{resolution.frame_id} {resolution.path} ({resolution.view})"


def take_trace(window: MainWindow, *, pending: str | None = None) -> StepTrace:
    """The trace of the window as it is now; ``pending`` names a send still being prepared."""
    store = window.store
    chip = window.assistant.context_chip
    left_out = chip.exclude_toggle.isChecked()
    capture: dict[str, Any] | str
    started = begin_capture(store, include=not left_out)
    # complete() only reads the live editor and builds the pointer: no flush, nothing sent.
    result = started.complete(flushed=False)
    if result.pointer is not None:
        # The capture time and flushed say nothing about the state; v is always 1.
        unsaid = {"v", "capturedAt", "flushed"}
        capture = result.pointer.model_dump(exclude_none=True, exclude=unsaid)
    else:
        capture = f"no pointer: {result.dropped}"
    autosave = window.session.autosave
    return StepTrace(
        workspace=window.session.workspace,
        mru=list(reversed(store.activation_history)),
        mounted=list(store.mounted_frame_ids),
        active=store.last_activated_frame,
        resolves=describe_resolution(store.resolve()),
        chip=chip.label.text(),
        left_out=left_out,
        capture=capture,
        pending=pending,
        unsaved=[frame for frame in store.mounted_frame_ids if autosave.is_dirty(frame)],
    )


def _capture_text(capture: dict[str, Any] | str) -> str:
    if isinstance(capture, str):
        return capture
    return ", ".join(
        f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in capture.items()
    )
