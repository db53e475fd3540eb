"""Performing and checking the proposal verbs and expect keys of a scenario (contract 10).

Each goes through the same buttons and editor commands as the person's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.scenario.lookup import note_frame
from app.scenario.proposal_steps import (
    ApplyStep,
    DiscardStep,
    NoteExpectation,
    ProposalExpectation,
    SavedExpectation,
    UndoStep,
)
from app.scenario.report import Mismatch
from app.scenario.waiting import StepError, WaitTimeout, wait_until
from bridge.contract import SAVED_WAIT_SECONDS
from bridge.errors import BackendError

if TYPE_CHECKING:
    from app.main_window import MainWindow
    from renderer.frames.proposal_view import ProposalView

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


def act_on_proposal(window: MainWindow, step: ApplyStep | DiscardStep | UndoStep) -> None:
    if isinstance(step, UndoStep):
        note_frame(window, step.frame).editor.undo()
        return
    view = proposal_view(window, step.proposal)
    if isinstance(step, DiscardStep):
        view.discard_button.click()
        return
    applier = window.window_frames.proposals
    if not view.apply_button.isEnabled():
        raise StepError(f"proposal {step.proposal} can't be applied: {view.status.text()}")
    before = applier.applies
    view.apply_button.click()
    wait_until(lambda: applier.applies > before, timeout=PROPOSAL_TIMEOUT_SECONDS, what="the apply")


def check_proposals(
    window: MainWindow,
    proposals: list[ProposalExpectation] | None,
    note: NoteExpectation | None,
    saved: SavedExpectation | None,
    applied: bool | None,
    conflict: bool | None,
) -> list[Mismatch]:
    mismatches: list[Mismatch] = []
    if proposals is not None:
        actual = [
            {"path": view.proposal.path, "summary": view.proposal.summary}
            for view in window.assistant.latest_proposals
        ]
        expected = [item.expected() for item in proposals]
        shown = [{k: a[k] for k in e} for a, e in zip(actual, expected, strict=False)]
        if len(actual) != len(expected) or shown != expected:
            mismatches.append(Mismatch("proposals", expected, actual))
    if note is not None:
        problem = note.mismatch("note", note_frame(window, note.frame).read_text())
        mismatches += [problem] if problem else []
    if saved is not None:
        mismatches += _check_saved(window, saved)
    latest = window.window_frames.proposals.latest
    if applied is not None:
        actual_applied = latest is not None and latest.state == "applied"
        if actual_applied != applied:
            mismatches.append(Mismatch("applied", applied, actual_applied))
    if conflict is not None:
        actual_conflict = latest is not None and latest.state == "conflict"
        if actual_conflict != conflict:
            mismatches.append(Mismatch("conflict", conflict, actual_conflict))
    return mismatches


def _check_saved(window: MainWindow, saved: SavedExpectation) -> list[Mismatch]:
    link = window.session.link
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
