"""Checking a scenario's expectations against what the app and the backend did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.scenario.elsewhere_actions import check_elsewhere
from app.scenario.expectations import NO_DROP, ExpectStep
from app.scenario.inline_actions import check_inline
from app.scenario.proposal_actions import check_proposals
from app.scenario.report import Mismatch, SendRecord
from bridge.caveat import CAVEAT
from renderer.frames.chip import chip_text
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
    if "chip" in given:
        mismatches += _check_chip(step, window)
    if given & {"note", "saved", "applied", "conflict"}:
        mismatches += check_proposals(
            window, None, step.note, step.saved, step.applied, step.conflict
        )
    if given & {"conflictBar", "kept"}:
        mismatches += check_elsewhere(window, step.conflictBar, step.kept)
    if "inline" in given and step.inline is not None:
        mismatches += check_inline(window, step.inline)
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


def check_expectations(
    step: ExpectStep, send: SendRecord | None, window: MainWindow
) -> list[Mismatch]:
    """Every key of an ``expect`` step against the latest send and the window now."""
    given = step.model_fields_set
    mismatches: list[Mismatch] = []
    if "resolves" in given:
        mismatches += _check_resolves(step, window)
    mismatches += check_now(step, window)
    if not step.about_send:
        return mismatches
    if send is None:
        return [*mismatches, Mismatch("send", "a send before this expect", "no send yet")]
    if "pointer" in given:
        mismatches += check_pointer(step, send)
    if "dropped" in given:
        actual_dropped = NO_DROP if send.dropped is None else send.dropped
        if actual_dropped != step.dropped:
            mismatches.append(Mismatch("dropped", step.dropped, actual_dropped))
    if "ambientStatus" in given and send.ambient_status != step.ambientStatus:
        mismatches.append(Mismatch("ambientStatus", step.ambientStatus, send.ambient_status))
    if "stored" in given:
        mismatches += check_stored(step, send)
    if "proposals" in given:
        mismatches += check_proposals(window, step.proposals, None, None, None, None)
    reply_keys = given & {"tools", "caveat", "partial", "replyContains"}
    if reply_keys and send.error is not None:
        mismatches.append(Mismatch("reply", "a reply from the assistant", send.error))
        return mismatches
    if "tools" in given and send.tools != step.tools:
        mismatches.append(Mismatch("tools", step.tools, send.tools))
    if "caveat" in given:
        caveats = send.caveats
        wrong_text = any(caveat != CAVEAT for caveat in caveats)
        if bool(caveats) != step.caveat or (step.caveat and wrong_text):
            mismatches.append(Mismatch("caveat", CAVEAT if step.caveat else None, caveats))
    if "partial" in given:
        partial = any(
            isinstance(result.get("result"), dict) and result["result"].get("partial") is True
            for result in send.tool_results
        )
        if partial != step.partial:
            mismatches.append(Mismatch("partial", step.partial, partial))
    if "replyContains" in given:
        assert step.replyContains is not None
        if step.replyContains not in (send.reply or ""):
            mismatches.append(Mismatch("replyContains", step.replyContains, send.reply))
    if "noticeContains" in given:
        assert step.noticeContains is not None
        notices = " ".join(send.notices)
        if step.noticeContains not in notices:
            mismatches.append(Mismatch("noticeContains", step.noticeContains, notices or None))
    return mismatches


def _check_chip(step: ExpectStep, window: MainWindow) -> list[Mismatch]:
    """R48: the chip names the note, and the selection's lines, that a send would carry."""
    chip = window.assistant.context_chip
    if chip.location != step.chip:
        return [Mismatch("chip", step.chip, chip.location)]
    if step.chip is not None and step.chip not in chip.label.text():
        return [Mismatch("chip (its text)", step.chip, chip.label.text())]
    return []


def _check_resolves(step: ExpectStep, window: MainWindow) -> list[Mismatch]:
    resolution = window.store.resolve()
    shown = window.assistant.chip.text()
    expected_text = chip_text(resolution, window.assistant.context_chip.lines)
    if not shown.startswith(expected_text):
        # The user reads "this note" off the chip: it must say what the store resolves.
        return [Mismatch("resolves (the chip)", expected_text, shown)]
    actual = (
        None
        if resolution is None
        else {"frameId": resolution.frame_id, "path": resolution.path, "view": resolution.view}
    )
    if step.resolves is None:
        return [] if actual is None else [Mismatch("resolves", None, actual)]
    if actual is None:
        return [Mismatch("resolves", step.resolves.expected(), None)]
    return [
        Mismatch(f"resolves.{key}", value, actual.get(key))
        for key, value in step.resolves.expected().items()
        if actual.get(key) != value
    ]
