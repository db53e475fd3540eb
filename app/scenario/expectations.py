"""What an ``expect`` step compares: the latest send (pointer, stored row, tools, reply)
and the window as it is now (resolution, frames, chip).

Nothing here touches Qt or the app; :mod:`app.scenario.checks` does the comparing.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, field_validator, model_validator

from app.scenario.elsewhere_steps import ConflictBarExpectation, KeptExpectation
from app.scenario.inline_steps import InlineExpectation
from app.scenario.proposal_steps import (
    NoteExpectation,
    ProposalExpectation,
    SavedExpectation,
)
from app.scenario.step_fields import NonNegative, StepBody, Strict, Subset
from bridge.drops import DROP_REASONS
from bridge.pointer import View

NO_DROP = "none"
AmbientStatus = Literal["stored", "absent", "rejected"]


class SelectionExpectation(Strict):
    anchor: NonNegative
    head: NonNegative


class PointerExpectation(Subset):
    """A subset of the pointer's fields."""

    v: int | None = None
    path: str | None = None
    view: View | None = None
    frameId: str | None = None
    selection: SelectionExpectation | None = None
    bytes: NonNegative | None = None
    sha256: str | None = None
    flushed: bool | None = None
    capturedAt: str | None = None


class StoredExpectation(Subset):
    """A subset of the backend's delivery row columns; ``ambient_meta`` is a subset too."""

    ambient_path: str | None = None
    ambient_view: View | None = None
    ambient_meta: dict[str, Any] | None = None


class ResolvesExpectation(Subset):
    """What "this note" resolves to right now, before any send."""

    frameId: str | None = None
    path: str | None = None
    view: View | None = None


class SharedExpectation(Subset):
    """What a tool connected to the sidecar sees now (R60), through the official SDK's client.

    ``activeNote``: a subset of ``get_active_note``'s pointer (null: no note);
    ``openFiles``: the latest ``ide/contextUpdate``'s notes as workspace paths, newest
    first; ``active``: the one it marks active (null: none); ``connected``: the count the
    window shows.
    """

    activeNote: PointerExpectation | None = None
    openFiles: list[str] | None = None
    active: str | None = None
    connected: NonNegative | None = None


class FrameExpectation(Subset):
    """One note frame, in column order: its id, path and view (each optional)."""

    id: str | None = None
    path: str | None = None
    view: View | None = None


NOW_KEYS = frozenset(
    {
        "resolves",
        "frames",
        "activeFrame",
        "workspace",
        "chip",
        "note",
        "saved",
        "applied",
        "conflict",
        "shared",
        "conflictBar",
        "kept",
        "inline",
    }
)
"""Expect keys about the window as it is now, not about the latest send."""


class ExpectStep(StepBody):
    """Expectations about the latest send (and ``resolves``: about now); every key optional."""

    verb: ClassVar[str] = "expect"
    pointer: PointerExpectation | None = None
    dropped: str | None = None
    stored: StoredExpectation | None = None
    tools: list[str] | None = None
    caveat: bool | None = None
    partial: bool | None = None
    replyContains: str | None = None
    noticeContains: str | None = None
    """Text the turn says beside its reply (a dropped context, R29's fallback)."""
    ambientStatus: AmbientStatus | None = None
    resolves: ResolvesExpectation | None = None
    frames: list[FrameExpectation] | None = None
    activeFrame: str | None = None
    workspace: str | None = None
    chip: str | None = None
    """Now, not about a send: the chip's ``path`` or ``path:lines``; null = no note (R48)."""
    proposals: list[ProposalExpectation] | None = None
    """The latest send's proposals, a subset match in order (contract 10)."""
    note: NoteExpectation | None = None
    saved: SavedExpectation | None = None
    applied: bool | None = None
    conflict: bool | None = None
    shared: SharedExpectation | None = None
    """Now: what a tool connected to the sidecar sees (needs ``share: on`` first)."""
    conflictBar: ConflictBarExpectation | None = None
    """Now: whether the frame says its note changed elsewhere (R53); waits up to 5 s."""
    kept: KeptExpectation | None = None
    """Now: the text the app kept of a note in its data folder (nothing lost, R53)."""
    inline: InlineExpectation | None = None
    """Now: a frame's latest inline request, its answer and outcome (contract 13)."""

    @field_validator("dropped")
    @classmethod
    def _known_reason(cls, value: str | None) -> str | None:
        allowed = (NO_DROP, *DROP_REASONS)
        if value is not None and value not in allowed:
            raise ValueError(f"dropped is one of: {', '.join(allowed)}")
        return value

    @model_validator(mode="after")
    def _something_expected(self) -> ExpectStep:
        if not self.model_fields_set:
            raise ValueError("expect needs at least one key")
        for key in (
            "dropped",
            "tools",
            "caveat",
            "partial",
            "replyContains",
            "noticeContains",
            "ambientStatus",
            "frames",
            "workspace",
            "proposals",
            "note",
            "saved",
            "applied",
            "conflict",
            "shared",
            "conflictBar",
            "kept",
            "inline",
        ):
            if key in self.model_fields_set and getattr(self, key) is None:
                raise ValueError(f"'{key}' cannot be null")
        return self

    @property
    def about_send(self) -> bool:
        """True when any key looks at the latest send (all but the keys about now)."""
        return bool(self.model_fields_set - NOW_KEYS)

    def describe(self) -> str:
        parts: list[str] = []
        for key in type(self).model_fields:
            if key not in self.model_fields_set:
                continue
            value = getattr(self, key)
            if isinstance(value, BaseModel):
                value = value.model_dump(exclude_unset=True)
            elif isinstance(value, list):
                value = [
                    item.model_dump(exclude_unset=True) if isinstance(item, BaseModel) else item
                    for item in value
                ]
            parts.append(f"{key} {json.dumps(value, ensure_ascii=False)}")
        return "expect " + ", ".join(parts)
