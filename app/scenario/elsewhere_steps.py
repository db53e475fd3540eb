"""Scenario verbs and expect keys about a note changed elsewhere under autosave (R53).

``external-write: {path, text}`` saves the note from a second process, as a second
instance of the app would (:mod:`app.scenario.other_instance`); ``keep: {frame,
choice: mine|other}`` presses the frame's Keep mine / Keep the other. Expect keys:
``conflictBar: {frame, shown}`` (waits up to 5 s, autosave saves after a pause) and
``kept: {path, equals|contains}`` (the text the app kept of a note, in its data folder).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from app.scenario.proposal_steps import _TextExpectation
from app.scenario.step_fields import FrameId, StepBody, Strict, WorkspacePath


class ExternalWriteStep(StepBody):
    """Save ``text`` as ``path`` from another process, over the text saved now."""

    verb: ClassVar[str] = "external-write"
    summary: ClassVar[str] = "another instance saves {path}"
    path: WorkspacePath
    text: str


class KeepStep(StepBody):
    """Answer a frame's "changed elsewhere" bar."""

    verb: ClassVar[str] = "keep"
    summary: ClassVar[str] = "keep {choice} in {frame}"
    frame: FrameId
    choice: Literal["mine", "other"]


class ConflictBarExpectation(Strict):
    frame: FrameId
    shown: bool


class KeptExpectation(_TextExpectation):
    path: WorkspacePath
