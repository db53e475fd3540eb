"""What an ``expect`` step compares: the latest send (pointer, stored row, tools, reply)
and the window as it is now (resolution, frames, chip).

The value models of the keys, and the step's base; each key is declared, with its
check, beside the code that checks it, and gathered in :mod:`app.scenario.catalogue`.
Nothing here touches Qt or the app.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, create_model, model_validator

from app.scenario.registry import NOW, SEND, About, Checking, ExpectKey
from app.scenario.report import Mismatch
from app.scenario.step_fields import NonNegative, StepBody, Strict, Subset
from app.scenario.steps import SendStep
from bridge.drops import DROP_REASONS
from bridge.views import KnownView

NO_DROP = "none"
AmbientStatus = Literal["stored", "absent", "rejected"]


class SelectionExpectation(Strict):
    anchor: NonNegative
    head: NonNegative


class PointerExpectation(Subset):
    """A subset of the pointer's fields."""

    v: int | None = None
    path: str | None = None
    view: KnownView | None = None
    frameId: str | None = None
    selection: SelectionExpectation | None = None
    bytes: NonNegative | None = None
    sha256: str | None = None
    flushed: bool | None = None
    capturedAt: str | None = None


class StoredExpectation(Subset):
    """A subset of the backend's delivery row columns; ``ambient_meta`` is a subset too."""

    ambient_path: str | None = None
    ambient_view: KnownView | None = None
    ambient_meta: dict[str, Any] | None = None


class ResolvesExpectation(Subset):
    """What "this note" resolves to right now, before any send."""

    frameId: str | None = None
    path: str | None = None
    view: KnownView | None = None


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
    view: KnownView | None = None


class ExpectBody(StepBody):
    """The ``expect`` step; :mod:`app.scenario.catalogue` adds a field per registered key.

    Every key is optional; a key about the latest send fails when there was none.
    """

    verb: ClassVar[str] = "expect"
    keys: ClassVar[Mapping[str, ExpectKey[Any]]] = {}
    """The registered keys by name, in the order they are checked and described."""

    @model_validator(mode="after")
    def _something_expected(self) -> ExpectBody:
        if not self.model_fields_set:
            raise ValueError("expect needs at least one key")
        for name, key in self.keys.items():
            if not key.nullable and name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"'{name}' cannot be null")
        return self

    def given(self, about: About) -> list[ExpectKey[Any]]:
        """The keys this step gives that are about ``about``, in check order."""
        return [
            key
            for name, key in self.keys.items()
            if key.about == about and name in self.model_fields_set
        ]

    @property
    def about_send(self) -> bool:
        """True when any key looks at the latest send."""
        return bool(self.given(SEND))

    def check(self, against: Checking, has_send: bool) -> list[Mismatch]:
        """Every key given: those about now first, then those about the latest send."""
        mismatches: list[Mismatch] = []
        for key in self.given(NOW):
            mismatches += key.check(against, getattr(self, key.name))
        about_send = self.given(SEND)
        if not about_send:
            return mismatches
        if not has_send:
            return [
                *mismatches,
                Mismatch(SendStep.verb, "a send before this expect", "no send yet"),
            ]
        error = against.send.error
        reply_missing = error is not None and any(key.needs_reply for key in about_send)
        if reply_missing:
            mismatches.append(Mismatch("reply", "a reply from the assistant", error))
        for key in about_send:
            if not (reply_missing and key.needs_reply):
                mismatches += key.check(against, getattr(self, key.name))
        return mismatches

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


def known_reason(value: str) -> str:
    """``dropped`` is ``none`` or one of the capture's drop reasons."""
    allowed = (NO_DROP, *DROP_REASONS)
    if value not in allowed:
        raise ValueError(f"dropped is one of: {', '.join(allowed)}")
    return value


def expect_model(keys: Sequence[ExpectKey[Any]], module: str) -> type[ExpectBody]:
    """The ``expect`` step's model: one optional field per key, typed by the key."""
    fields: dict[str, Any] = {key.name: (key.annotation | None, None) for key in keys}
    model: type[ExpectBody] = create_model(
        "ExpectStep", __base__=ExpectBody, __module__=module, **fields
    )
    model.keys = {key.name: key for key in keys}
    return model
