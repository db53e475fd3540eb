"""Performing and checking the proposal verbs and expect keys of a scenario (contract 10).

Each goes through the same buttons and editor commands as the person's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.scenario.lookup import note_frame
from app.scenario.popout_windows import reachable_frame
from app.scenario.proposal_steps import (
    ApplyStep,
    DiscardStep,
    NoteExpectation,
    ProposalExpectation,
    SavedExpectation,
    UndoStep,
)
from app.scenario.registry import NOW, SEND, Checking, ExpectKey, Verb, on_window
from app.scenario.report import Mismatch
from app.scenario.waiting import StepError, WaitTimeout, wait_until
from bridge.contract import SAVED_WAIT_SECONDS
from bridge.errors import BackendError

if TYPE_CHECKING:
    from app.window.main_window import MainWindow
    from renderer.frames.assistant.proposal_view import ProposalView

PROPOSAL_TIMEOUT_SECONDS = 10.0


def proposal_view(window: MainWindow, index: int) -> ProposalView:
    views = window.assistant.latest_proposals
    if index >= len(views):
        raise StepError(f"the latest send has {len(views)} proposal(s); there is no number {index}")
    view = views[index]
    wait_until(
        lambda: view.state != "waiting", timeout=PROPOSAL_TIMEOUT_SECONDS, what="the proposal"
    )
    return view


def _undo(window: MainWindow, step: UndoStep) -> None:
    note_frame(window, step.frame).editor.undo()


def _discard(window: MainWindow, step: DiscardStep) -> None:
    proposal_view(window, step.proposal).discard_button.click()


def _apply(window: MainWindow, step: ApplyStep) -> None:
    view = proposal_view(window, step.proposal)
    applier = window.window_frames.proposals
    if not view.apply_button.isEnabled():
        raise StepError(f"proposal {step.proposal} can't be applied: {view.status.text()}")
    before = applier.applies
    view.apply_button.click()
    wait_until(lambda: applier.applies > before, timeout=PROPOSAL_TIMEOUT_SECONDS, what="the apply")


def _check_proposals(against: Checking, expected: list[ProposalExpectation]) -> list[Mismatch]:
    actual = [
        {"path": view.proposal.path, "summary": view.proposal.summary}
        for view in against.window.assistant.latest_proposals
    ]
    wanted = [item.expected() for item in expected]
    shown = [{k: a[k] for k in e} for a, e in zip(actual, wanted, strict=False)]
    if len(actual) != len(wanted) or shown != wanted:
        return [Mismatch("proposals", wanted, actual)]
    return []


def _check_note(against: Checking, expected: NoteExpectation) -> list[Mismatch]:
    problem = expected.mismatch("note", reachable_frame(against.window, expected.frame).read_text())
    return [problem] if problem else []


def _latest_state(window: MainWindow) -> str | None:
    latest = window.window_frames.proposals.latest
    return None if latest is None else latest.state


def _check_applied(against: Checking, expected: bool) -> list[Mismatch]:
    actual = _latest_state(against.window) == "applied"
    return [] if actual == expected else [Mismatch("applied", expected, actual)]


def _check_conflict(against: Checking, expected: bool) -> list[Mismatch]:
    actual = _latest_state(against.window) == "conflict"
    return [] if actual == expected else [Mismatch("conflict", expected, actual)]


def _check_saved(against: Checking, saved: SavedExpectation) -> list[Mismatch]:
    link = against.window.session.link
    seen: list[str | None] = [None]

    def matches() -> bool:
        try:  # the QA harness may wait on the backend: it is not the person's GUI path
            seen[0] = link.call(lambda client, session: client.get_document(session, saved.path))
        except BackendError as error:
            seen[0] = f"(not readable: {error.message})"
        return saved.mismatch("saved", seen[0]) is None

    try:
        wait_until(matches, timeout=SAVED_WAIT_SECONDS, what="the saved copy")
    except WaitTimeout:
        problem = saved.mismatch("saved", seen[0])
        return [problem] if problem else []
    return []


VERBS: tuple[Verb[Any], ...] = (
    Verb(
        ApplyStep,
        on_window(_apply),
        (
            (
                "`apply: {proposal: N}`",
                "presses **Apply** under the N-th proposal of the latest send (from 0) and "
                "waits until it was applied or refused (R52).",
            ),
        ),
    ),
    Verb(
        DiscardStep,
        on_window(_discard),
        (
            (
                "`discard: {proposal: N}`",
                "presses **Discard** under the N-th proposal of the latest send.",
            ),
        ),
    ),
    Verb(UndoStep, on_window(_undo), (("`undo: ID`", "Ctrl+Z in the frame's editor."),)),
)

EXPECT_KEYS: tuple[ExpectKey[Any], ...] = (
    ExpectKey(
        "proposals",
        list[ProposalExpectation],
        SEND,
        _check_proposals,
        (
            (
                "`proposals: [{path, summary}, …]`",
                "the latest send's proposals, in order; in each only the keys you give are "
                "compared (contract 10).",
            ),
        ),
    ),
    ExpectKey(
        "note",
        NoteExpectation,
        NOW,
        _check_note,
        (
            (
                "`note: {frame: ID, equals: T}` / `{frame: ID, contains: T}`",
                "the frame's live editor holds exactly `T` (or contains it).",
            ),
        ),
    ),
    ExpectKey(
        "saved",
        SavedExpectation,
        NOW,
        _check_saved,
        (
            (
                "`saved: {path: P, equals: T}` / `{path: P, contains: T}`",
                "the saved copy of `P` is (or contains) `T`; waits up to 5 s for it.",
            ),
        ),
    ),
    ExpectKey(
        "applied",
        bool,
        NOW,
        _check_applied,
        (("`applied: true/false`", "the latest Apply was (or was not) applied."),),
    ),
    ExpectKey(
        "conflict",
        bool,
        NOW,
        _check_conflict,
        (
            (
                "`conflict: true/false`",
                "the latest Apply was (or was not) refused because the text changed (R52).",
            ),
        ),
    ),
)
