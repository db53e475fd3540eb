"""Performing and checking the inline verbs and expect key of a scenario (contract 13, R74).

Each goes through the frame's own command, as Ctrl+I, Enter, Accept and Esc do.

A popped-out note runs in its own process, which the runner cannot drive. As for
its pictures (:mod:`app.scenario.pictures`), the inline verbs on a popped-out frame
drive the same :class:`~app.popout.PopoutWindow` class, built here on the same
backend and workspace with its own store; it stays open (and in the pictures, beside
the main window) until the scenario ends.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.scenario.inline_steps import (
    InlineAcceptStep,
    InlineExpectation,
    InlineRejectStep,
)
from app.scenario.lookup import note_frame
from app.scenario.report import Mismatch
from app.scenario.waiting import StepError, wait_until

if TYPE_CHECKING:
    from app.main_window import MainWindow
    from app.popout import PopoutWindow
    from app.scenario.steps import InlineStep, Step
    from renderer.frames.inbox import InboxFrame

INLINE_TIMEOUT_SECONDS = 30.0
LOAD_TIMEOUT_SECONDS = 20.0

_held: dict[str, PopoutWindow] = {}
"""The popped-out windows the inline verbs drive, by frame id, until the scenario ends."""


def held_popout(frame_id: str | None) -> PopoutWindow | None:
    return _held.get(frame_id) if frame_id is not None else None


def close_held_popouts() -> None:
    """Close the popped-out windows the inline verbs opened (the scenario ends)."""
    while _held:
        _frame_id, popout = _held.popitem()
        _close(popout)


def _close(popout: PopoutWindow) -> None:
    popout.close()
    with contextlib.suppress(Exception):
        wait_until(lambda: not popout.isVisible(), timeout=LOAD_TIMEOUT_SECONDS, what="closing")
    popout.shutdown_workers()
    popout.deleteLater()


def inline_frame(window: MainWindow, frame_id: str) -> InboxFrame:
    """The frame named ``frame_id``: in the main window, or its popped-out window (R68)."""
    if frame_id in window.frames:
        return note_frame(window, frame_id)
    held = _held.get(frame_id)
    if held is not None:
        return held.frame
    handles = [
        handle
        for handle in window.popouts.handles
        if handle.frame_id == frame_id and handle.exit_code is None
    ]
    if not handles:
        return note_frame(window, frame_id)  # the step error naming it
    handle = handles[-1]
    from app.popout import PopoutWindow
    from app.session import connect_workspace

    link = connect_workspace(window.session.backend, handle.workspace)
    # The window announces readiness on stdout for its host; here that line is noise.
    with contextlib.redirect_stdout(io.StringIO()):
        popout = PopoutWindow(link, handle.frame_id, handle.path, handle.view)
        popout.show()
    _held[frame_id] = popout
    wait_until(
        lambda: popout.frame.is_loaded,
        timeout=LOAD_TIMEOUT_SECONDS,
        what=f"the popped-out {handle.path} to load",
        wake_on=[popout.frame.loaded],
    )
    return popout.frame


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def run_inline(window: MainWindow, step: InlineStep, act: Callable[[Step], None]) -> None:
    """Select, open the prompt, send, run ``during`` while it is in flight, wait for the answer."""
    frame = inline_frame(window, step.frame)
    if isinstance(step.select, str):
        text = frame.read_text()
        found = text.find(step.select)
        if found < 0:
            raise StepError(f"{step.frame} does not hold the text {step.select!r}")
        start = _utf16(text[:found])
        frame.select(start, start + _utf16(step.select))
    elif step.select is not None:
        frame.select(*step.select)
    else:
        cursor = frame.editor.textCursor()
        frame.select(cursor.position(), cursor.position())
    command = frame.inline
    command.close()
    if not frame.ask_ai():
        raise StepError(f"{step.frame} has no note loaded to ask about")
    if not command.send(step.instruction):
        return  # refused before sending (R69): the prompt says why; expect checks it
    for inner in step.during:
        act(inner)
    wait_until(
        lambda: command.state != "running",
        timeout=INLINE_TIMEOUT_SECONDS,
        what=f"the inline answer to {step.instruction!r}",
        wake_on=[command.answered],
    )


def act_on_inline(window: MainWindow, step: InlineAcceptStep | InlineRejectStep) -> None:
    command = inline_frame(window, step.frame).inline
    if command.state != "review":
        raise StepError(f"{step.frame} has no inline change to review (it is {command.state})")
    if isinstance(step, InlineAcceptStep):
        command.accept()  # a refusal (the selection changed) is kept for ``outcome: refused``
    else:
        command.reject()


def check_inline(window: MainWindow, expected: InlineExpectation) -> list[Mismatch]:
    command = inline_frame(window, expected.frame).inline
    given = expected.model_fields_set
    request, answer = command.request, command.answer
    mismatches: list[Mismatch] = []
    if "sent" in given:
        sent = expected.sent
        if sent is None:
            if request is not None:
                mismatches.append(Mismatch("inline.sent", None, request.sent_text()))
        elif request is None:
            mismatches.append(Mismatch("inline.sent", sent.model_dump(exclude_unset=True), None))
        else:
            if sent.lines is not None and list(request.lines) != sent.lines:
                mismatches.append(Mismatch("inline.sent.lines", sent.lines, list(request.lines)))
            if sent.bytes is not None and request.bytes != sent.bytes:
                mismatches.append(Mismatch("inline.sent.bytes", sent.bytes, request.bytes))
            if sent.bytesAtMost is not None and request.bytes > sent.bytesAtMost:
                mismatches.append(
                    Mismatch("inline.sent.bytesAtMost", sent.bytesAtMost, request.bytes)
                )
    actual_text = answer.replacement if answer is not None else command.failure
    if expected.replacementContains is not None and (
        answer is None or expected.replacementContains not in answer.replacement
    ):
        mismatches.append(
            Mismatch("inline.replacementContains", expected.replacementContains, actual_text)
        )
    if expected.kind is not None:
        actual_kind = answer.kind if answer is not None else command.failure
        if actual_kind != expected.kind:
            mismatches.append(Mismatch("inline.kind", expected.kind, actual_kind))
    if expected.outcome is not None and command.last_outcome != expected.outcome:
        mismatches.append(Mismatch("inline.outcome", expected.outcome, command.last_outcome))
    return mismatches
