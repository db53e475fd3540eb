"""The steps of a QA scenario (contract section 6) as strict, typed models.

Each step class validates its own fields; :mod:`app.scenario.model` reads a file
and builds these. Nothing here touches Qt or the app.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from bridge.drops import DROP_REASONS
from bridge.frames import ASSISTANT_FRAME_ID
from bridge.paths import WorkspacePathError, check_workspace_path, is_workspace_id
from bridge.pointer import View

ASSISTANT_FRAME = ASSISTANT_FRAME_ID
NO_DROP = "none"
AmbientStatus = Literal["stored", "absent", "rejected"]

FrameId = Annotated[str, Field(min_length=1, max_length=256)]
NonNegative = Annotated[int, Field(ge=0)]


# -- step bodies -----------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _Body(_Strict):
    verb: ClassVar[str]
    # The step's line in reports, filled from its fields (``{frame}``); or override describe().
    summary: ClassVar[str]

    def describe(self) -> str:
        """One line for reports and screenshots' captions."""
        return self.summary.format_map(dict(self))


class _Subset(_Strict):
    """Expected values: only the keys the scenario gives are compared."""

    def expected(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


_SHOWN_PATH_CHARS = 72


def _shown(path: str | None) -> str:
    """A path short enough for a report line; the middle of a very long one is elided."""
    text = path or ""
    if len(text) <= _SHOWN_PATH_CHARS:
        return text
    half = _SHOWN_PATH_CHARS // 2
    return f"{text[:half]}…{text[-half:]}"


def _workspace_path(value: str) -> str:
    try:
        return check_workspace_path(value)
    except WorkspacePathError as error:
        raise ValueError(str(error)) from error


WorkspacePath = Annotated[str, AfterValidator(_workspace_path)]


class MountStep(_Body):
    """Mount an Inbox frame on a note, or a non-Inbox provider frame."""

    verb: ClassVar[str] = "mount"
    frame: FrameId
    path: WorkspacePath | None = None
    view: View | None = None
    provider: str | None = Field(default=None, min_length=1)
    wait: bool = True
    """False: go on at once, while the note is still loading (an Inbox frame only)."""

    @field_validator("frame")
    @classmethod
    def _not_assistant(cls, value: str) -> str:
        if value == ASSISTANT_FRAME:
            raise ValueError("the assistant frame always exists and cannot be mounted")
        return value

    @model_validator(mode="after")
    def _inbox_or_provider(self) -> MountStep:
        if (self.path is None) == (self.provider is None):
            raise ValueError("give either 'path' (an Inbox frame) or 'provider', not both")
        if self.provider is not None and self.view is not None:
            raise ValueError("'view' applies to Inbox frames only")
        if self.provider is not None and not self.wait:
            raise ValueError("'wait' applies to Inbox frames only")
        return self

    @property
    def inbox_view(self) -> View:
        return self.view or "edit"

    def describe(self) -> str:
        if self.provider is not None:
            return f"mount provider {self.provider} as {self.frame}"
        described = f"mount {self.frame} on {_shown(self.path)} ({self.inbox_view})"
        return described + ("" if self.wait else ", without waiting for it to load")


class ActivateStep(_Body):
    """Activate a frame the way a click does."""

    verb: ClassVar[str] = "activate"
    summary: ClassVar[str] = "activate {frame}"
    frame: FrameId


class TypeStep(_Body):
    """Type text into an Inbox frame's editor."""

    verb: ClassVar[str] = "type"
    summary: ClassVar[str] = "type {text!r} into {frame} at {at}"
    frame: FrameId
    text: str
    at: Literal["end"] | NonNegative = "end"

    @field_validator("at", mode="before")
    @classmethod
    def _end_or_offset(cls, value: object) -> object:
        if value == "end" or (type(value) is int and value >= 0):
            return value
        raise ValueError("'at' is 'end' or an offset (a whole number, 0 or more)")


class SelectStep(_Body):
    """Select a range in an Inbox frame's editor (UTF-16 offsets)."""

    verb: ClassVar[str] = "select"
    summary: ClassVar[str] = "select {anchor}..{head} in {frame}"
    frame: FrameId
    anchor: NonNegative
    head: NonNegative


class ViewStep(_Body):
    """Switch an Inbox frame's view."""

    verb: ClassVar[str] = "view"
    summary: ClassVar[str] = "show {frame} as {view}"
    frame: FrameId
    view: View


class OpenStep(_Body):
    """Make an Inbox frame show another note."""

    verb: ClassVar[str] = "open"
    frame: FrameId
    path: WorkspacePath
    wait: bool = True
    """False: go on at once, while the note is still loading."""

    def describe(self) -> str:
        described = f"open {_shown(self.path)} in {self.frame}"
        return described + ("" if self.wait else ", without waiting for it to load")


class PopoutStep(_Body):
    """Move an Inbox frame into its own process (R29)."""

    verb: ClassVar[str] = "popout"
    summary: ClassVar[str] = "pop out {frame}"
    frame: FrameId


class UnmountStep(_Body):
    """Close a frame."""

    verb: ClassVar[str] = "unmount"
    summary: ClassVar[str] = "unmount {frame}"
    frame: FrameId


class SwitchWorkspaceStep(_Body):
    """Cross the workspace boundary into another workspace (R7)."""

    verb: ClassVar[str] = "switch-workspace"
    summary: ClassVar[str] = "switch to workspace {workspace}"
    workspace: str

    @field_validator("workspace")
    @classmethod
    def _workspace_id(cls, value: str) -> str:
        if not is_workspace_id(value):
            raise ValueError(
                "a workspace name is 1-64 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit"
            )
        return value


class NewNoteStep(_Body):
    """File ▸ New note: create ``path`` through the document API and open it (R47)."""

    verb: ClassVar[str] = "new-note"
    path: WorkspacePath
    frame: FrameId | None = None

    @field_validator("frame")
    @classmethod
    def _not_assistant(cls, value: str | None) -> str | None:
        if value == ASSISTANT_FRAME:
            raise ValueError("the assistant frame is not a note frame")
        return value

    def describe(self) -> str:
        where = f" as {self.frame}" if self.frame else ""
        return f"new note {_shown(self.path)}{where}"


class QuickOpenStep(_Body):
    """Quick open (Ctrl+P): type ``query`` in the filter, Enter opens the best match (R47)."""

    verb: ClassVar[str] = "quick-open"
    query: str = Field(min_length=1, max_length=4096)
    frame: FrameId | None = None

    def describe(self) -> str:
        where = f" into {self.frame}" if self.frame else ""
        return f"quick open {self.query!r}{where}"


@dataclass(frozen=True)
class RestartStep:
    """Quit the app and start it again on the same data folder (R45)."""

    verb: ClassVar[str] = "restart"

    def describe(self) -> str:
        return "quit and start the app again (same data folder)"


class CaptionStep(_Body):
    """A sentence for the reader of a report; does nothing to the app."""

    verb: ClassVar[str] = "caption"
    summary: ClassVar[str] = "{text}"
    text: str = Field(min_length=1)


class _SendBody(_Strict):
    message: str = Field(min_length=1)
    duringFlush: list[Any] = Field(default_factory=list)
    includeAmbient: bool = True


@dataclass(frozen=True)
class SendStep:
    """Send a message from the assistant; ``during_flush`` runs while its flush is in flight."""

    verb: ClassVar[str] = "send"
    message: str
    during_flush: tuple[Step, ...] = ()
    include_ambient: bool = True

    def describe(self) -> str:
        extra = "" if self.include_ambient else " (ambient context excluded)"
        return f"send {self.message!r}{extra}"


class SelectionExpectation(_Strict):
    anchor: NonNegative
    head: NonNegative


class PointerExpectation(_Subset):
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


class StoredExpectation(_Subset):
    """A subset of the backend's delivery row columns; ``ambient_meta`` is a subset too."""

    ambient_path: str | None = None
    ambient_view: View | None = None
    ambient_meta: dict[str, Any] | None = None


class ResolvesExpectation(_Subset):
    """What "this note" resolves to right now, before any send."""

    frameId: str | None = None
    path: str | None = None
    view: View | None = None


class FrameExpectation(_Subset):
    """One note frame, in column order: its id, path and view (each optional)."""

    id: str | None = None
    path: str | None = None
    view: View | None = None


NOW_KEYS = frozenset({"resolves", "frames", "activeFrame", "workspace", "chip"})
"""Expect keys about the window as it is now, not about the latest send."""


class ExpectStep(_Body):
    """Expectations about the latest send (and ``resolves``: about now); every key optional."""

    verb: ClassVar[str] = "expect"
    pointer: PointerExpectation | None = None
    dropped: str | None = None
    stored: StoredExpectation | None = None
    tools: list[str] | None = None
    caveat: bool | None = None
    partial: bool | None = None
    replyContains: str | None = None
    ambientStatus: AmbientStatus | None = None
    resolves: ResolvesExpectation | None = None
    frames: list[FrameExpectation] | None = None
    activeFrame: str | None = None
    workspace: str | None = None
    chip: str | None = None
    """Now, not about a send: the chip's ``path`` or ``path:lines``; null = no note (R48)."""

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
            "ambientStatus",
            "frames",
            "workspace",
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


Step = (
    MountStep
    | ActivateStep
    | TypeStep
    | SelectStep
    | ViewStep
    | OpenStep
    | PopoutStep
    | UnmountStep
    | SwitchWorkspaceStep
    | NewNoteStep
    | QuickOpenStep
    | RestartStep
    | SendStep
    | ExpectStep
    | CaptionStep
)
