"""Performing and checking the inline verbs and expect key of a scenario (contract 13, R74).

Each goes through the frame's own command, as Ctrl+I, Enter, Accept and Esc do.

On a popped-out frame they drive its window as :mod:`app.scenario.popout_windows`
reaches it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.scenario.inline_steps import (
    InlineAcceptStep,
    InlineBody,
    InlineExpectation,
    InlineRejectStep,
)
from app.scenario.popout_windows import reachable_frame as inline_frame
from app.scenario.registry import (
    NOW,
    Checking,
    ExpectKey,
    Replay,
    Step,
    StepParser,
    Verb,
    on_window,
)
from app.scenario.report import Mismatch, StepResult
from app.scenario.steps import InlineStep, parse_body, parse_nested
from app.scenario.waiting import StepError, wait_until

if TYPE_CHECKING:
    from app.window.main_window import MainWindow

INLINE_TIMEOUT_SECONDS = 30.0


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


def _check_inline(against: Checking, expected: InlineExpectation) -> list[Mismatch]:
    command = inline_frame(against.window, expected.frame).inline
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


def _parse_inline(parser: StepParser, body: object, step: str, where: str) -> InlineStep | None:
    shape = f"'{InlineStep.verb}' takes a mapping with 'frame' and 'instruction'"
    parsed = parse_body(parser, body, step, where, InlineBody, shape)
    if parsed is None:
        return None
    during = parse_nested(parser, parsed.during, step, f"{where}.during")
    select = parsed.select
    chosen = (select[0], select[1]) if isinstance(select, list) else select
    return InlineStep(parsed.frame, chosen, parsed.instruction, during)


def _run_inline(replay: Replay, step: InlineStep, outcome: StepResult) -> None:
    run_inline(replay.window, step, lambda inner: replay.act(inner, outcome))


VERBS: tuple[Verb[Any], ...] = (
    Verb(
        InlineStep,
        _run_inline,
        (
            (
                "`inline: {frame: ID, select: S, instruction: I, during: [steps]}`",
                "the Inline AI command (R68): selects `S` in the frame (the first occurrence of "
                "a text, `[anchor, head]` in UTF-16 offsets as `select` counts them, or `null` "
                "for the cursor), opens the prompt (Ctrl+I), sends `I` and waits for the answer "
                "under review. Steps under `during` run while the request is in flight (typing, "
                "as `duringFlush` does for a send). A selection over 16 KiB is refused before "
                "sending; the step still passes and `expect: {inline: {sent: null}}` shows it. "
                "On a popped-out frame it drives the same popped-out window class on the same "
                "backend, as the pictures do.",
            ),
        ),
        parse=_parse_inline,
        during=False,
    ),
    Verb(
        InlineAcceptStep,
        on_window(act_on_inline),
        (
            (
                "`inline-accept: ID`",
                "presses **Accept** (Enter) on the frame's inline review. Accept over a "
                "selection that changed is refused; `expect: {inline: {outcome: refused}}` "
                "checks it.",
            ),
        ),
    ),
    Verb(
        InlineRejectStep,
        on_window(act_on_inline),
        (("`inline-reject: ID`", "presses **Reject** (Esc) on the frame's inline review."),),
    ),
)

EXPECT_KEYS: tuple[ExpectKey[Any], ...] = (
    ExpectKey(
        "inline",
        InlineExpectation,
        NOW,
        _check_inline,
        (
            (
                "`inline: {frame: ID, sent: {lines, bytes, bytesAtMost}, replacementContains, "
                "kind, outcome}`",
                "the frame's latest inline request. `sent` is what the prompt says was sent "
                "(`lines: [first, last]`, 1-based; `bytes` of the slice; `sent: null` means "
                "nothing was sent), `replacementContains` the answer's text, `kind` `edit` or "
                "`refusal`, `outcome` `accepted`, `rejected` or `refused` (Accept found the "
                "selected text changed; typing at either edge is outside it). Every key but "
                "`frame` is optional.",
            ),
        ),
    ),
)
