"""Checking a scenario's expectations against what the app and the backend did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.scenario.report import Mismatch, SendRecord
from app.scenario.steps import ExpectStep
from renderer.frames.inbox import InboxFrame

if TYPE_CHECKING:
    from app.main_window import MainWindow

STORED_COLUMNS = ("ambient_path", "ambient_view", "ambient_meta")


def check_now(step: ExpectStep, window: MainWindow) -> list[Mismatch]:
    """The keys about the window as it is now: ``frames``, ``activeFrame``, ``workspace``."""
    given = step.model_fields_set
    mismatches: list[Mismatch] = []
    if "workspace" in given and window.session.workspace != step.workspace:
        mismatches.append(Mismatch("workspace", step.workspace, window.session.workspace))
    if "activeFrame" in given:
        active = window.store.last_activated_frame
        if active != step.activeFrame:
            mismatches.append(Mismatch("activeFrame", step.activeFrame, active))
    if "frames" in given and step.frames is not None:
        actual = [
            {"id": frame.frame_id, "path": frame.path, "view": frame.view}
            for frame in window.note_frames_in_order()
            if isinstance(frame, InboxFrame)
        ]
        expected = [item.expected() for item in step.frames]
        shown = [
            {key: frame[key] for key in wanted}
            for frame, wanted in zip(actual, expected, strict=False)
        ]
        if len(actual) != len(expected) or shown != expected:
            mismatches.append(Mismatch("frames", expected, actual))
    return mismatches


def check_pointer(step: ExpectStep, send: SendRecord) -> list[Mismatch]:
    actual = send.pointer
    if step.pointer is None:
        return [] if actual is None else [Mismatch("pointer", None, actual)]
    expected = step.pointer.expected()
    if actual is None:
        return [Mismatch("pointer", expected, f"no header was sent (dropped: {send.dropped})")]
    return [
        Mismatch(f"pointer.{key}", value, actual.get(key))
        for key, value in expected.items()
        if actual.get(key) != value
    ]


def check_stored(step: ExpectStep, send: SendRecord) -> list[Mismatch]:
    row = send.stored
    columns = None if row is None else {key: row.get(key) for key in STORED_COLUMNS}
    if step.stored is None:
        if columns is None or all(value is None for value in columns.values()):
            return []
        return [Mismatch("stored", None, columns)]
    expected = step.stored.expected()
    if columns is None:
        return [Mismatch("stored", expected, "no delivery row for this conversation")]
    mismatches: list[Mismatch] = []
    for key, value in expected.items():
        actual = columns.get(key)
        if key == "ambient_meta" and isinstance(value, dict) and isinstance(actual, dict):
            for meta_key, meta_value in value.items():
                if actual.get(meta_key) != meta_value:
                    mismatches.append(
                        Mismatch(
                            f"stored.ambient_meta.{meta_key}", meta_value, actual.get(meta_key)
                        )
                    )
        elif actual != value:
            mismatches.append(Mismatch(f"stored.{key}", value, actual))
    return mismatches
