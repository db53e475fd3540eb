"""The scenario verbs and expect keys about proposals (contract 10), as strict models.

``apply``/``discard`` take the N-th proposal of the latest send (from 0); ``undo``
is Ctrl+Z in a frame's editor. Nothing here touches Qt or the app:
:mod:`app.scenario.proposal_actions` performs and checks them.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import model_validator

from app.scenario.report import Mismatch
from app.scenario.step_fields import FrameId, NonNegative, StepBody, Strict, Subset, WorkspacePath


class ApplyStep(StepBody):
    """Press Apply on the N-th proposal of the latest send."""

    verb: ClassVar[str] = "apply"
    summary: ClassVar[str] = "apply proposal {proposal}"
    proposal: NonNegative


class DiscardStep(StepBody):
    """Press Discard on the N-th proposal of the latest send."""

    verb: ClassVar[str] = "discard"
    summary: ClassVar[str] = "discard proposal {proposal}"
    proposal: NonNegative


class UndoStep(StepBody):
    """Ctrl+Z in a frame's editor."""

    verb: ClassVar[str] = "undo"
    scalar: ClassVar[str | None] = "frame"
    summary: ClassVar[str] = "undo in {frame}"
    frame: FrameId


class ProposalExpectation(Subset):
    path: str | None = None
    summary: str | None = None


class _TextExpectation(Strict):
    equals: str | None = None
    contains: str | None = None

    @model_validator(mode="after")
    def _one_of(self) -> _TextExpectation:
        if (self.equals is None) == (self.contains is None):
            raise ValueError("give exactly one of 'equals' and 'contains'")
        return self

    def mismatch(self, key: str, actual: str | None) -> Mismatch | None:
        if actual is not None and (
            actual == self.equals if self.equals is not None else str(self.contains) in actual
        ):
            return None
        wanted = self.equals if self.equals is not None else f"contains {self.contains!r}"
        return Mismatch(key, wanted, actual)


class NoteExpectation(_TextExpectation):
    frame: FrameId


class SavedExpectation(_TextExpectation):
    path: WorkspacePath
