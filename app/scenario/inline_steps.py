"""The scenario verbs and expect key of the Inline AI command (contract 13, R74).

``inline: {frame, select: "text"|[anchor, head]|null, instruction, during: [steps]}``
opens the prompt in a frame (selecting the first occurrence of a text, a range in
UTF-16 offsets as ``select`` counts them, or nothing: the cursor), sends the
instruction and waits for the answer; ``during`` runs while the request is in flight.
``inline-accept: F`` and ``inline-reject: F`` press Accept and Reject. The expect key
``inline: {frame, sent: {lines?, bytes?, bytesAtMost?}|null, replacementContains?,
kind?, outcome?}`` is about that frame's latest request (``sent: null``: nothing was
sent, as for a selection over 16 KiB). Nothing here touches Qt or the app:
:mod:`app.scenario.inline_actions` performs and checks them.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from app.scenario.step_fields import FrameId, NonNegative, StepBody, Strict


class InlineBody(Strict):
    frame: FrameId
    select: str | list[NonNegative] | None = None
    instruction: str = Field(min_length=1, max_length=2000)
    during: list[Any] = Field(default_factory=list)

    @field_validator("select")
    @classmethod
    def _text_or_range(cls, value: str | list[int] | None) -> str | list[int] | None:
        if isinstance(value, list) and len(value) != 2:
            raise ValueError("'select' is a text, [anchor, head] or null")
        if isinstance(value, str) and not value:
            raise ValueError("'select' as a text must not be empty")
        return value


class InlineAcceptStep(StepBody):
    """Press Accept on a frame's inline review."""

    verb: ClassVar[str] = "inline-accept"
    scalar: ClassVar[str | None] = "frame"
    summary: ClassVar[str] = "accept the inline change in {frame}"
    frame: FrameId


class InlineRejectStep(StepBody):
    """Press Reject (Esc) on a frame's inline review."""

    verb: ClassVar[str] = "inline-reject"
    scalar: ClassVar[str | None] = "frame"
    summary: ClassVar[str] = "reject the inline change in {frame}"
    frame: FrameId


class SentExpectation(Strict):
    lines: list[NonNegative] | None = None
    bytes: NonNegative | None = None
    bytesAtMost: NonNegative | None = None


class InlineExpectation(Strict):
    frame: FrameId
    sent: SentExpectation | None = None
    replacementContains: str | None = None
    kind: Literal["edit", "refusal"] | None = None
    outcome: Literal["accepted", "rejected", "refused"] | None = None
