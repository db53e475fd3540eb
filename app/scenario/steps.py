"""The steps of a QA scenario (contract section 6) as strict, typed models.

Each step class validates its own fields; :mod:`app.scenario.model` reads a file
and builds these. What each verb does, and the ``expect`` step built from its keys,
are declared in :mod:`app.scenario.catalogue`. Nothing here touches Qt or the app.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from app.scenario.problems import describe_pydantic
from app.scenario.registry import Step, StepParser, step_data
from app.scenario.step_fields import (
    ASSISTANT_FRAME,
    FrameId,
    NonNegative,
    StepBody,
    Strict,
    WorkspacePath,
    shown,
)
from bridge.paths import is_workspace_id
from bridge.views import DEFAULT_VIEW, KnownView, View


class MountStep(StepBody):
    """Mount an Inbox frame on a note, or a non-Inbox provider frame."""

    verb: ClassVar[str] = "mount"
    frame: FrameId
    path: WorkspacePath | None = None
    view: KnownView | None = None
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
        return self.view or DEFAULT_VIEW

    def describe(self) -> str:
        if self.provider is not None:
            return f"mount provider {self.provider} as {self.frame}"
        described = f"mount {self.frame} on {shown(self.path)} ({self.inbox_view})"
        return described + ("" if self.wait else ", without waiting for it to load")


class ActivateStep(StepBody):
    """Activate a frame the way a click does."""

    verb: ClassVar[str] = "activate"
    scalar: ClassVar[str | None] = "frame"
    summary: ClassVar[str] = "activate {frame}"
    frame: FrameId


DIRECT_NOTE = " (direct: set through the editor, not through input)"
"""Said in the report of a step that asked for the old direct path (R88)."""


class TypeStep(StepBody):
    """Type text into an Inbox frame's editor."""

    verb: ClassVar[str] = "type"
    summary: ClassVar[str] = "type {text!r} into {frame} at {at}"
    frame: FrameId
    text: str
    at: Literal["end"] | NonNegative = "end"
    direct: bool = False
    """Insert through the editor's API instead of keys (no click, no focus change)."""

    def describe(self) -> str:
        return self.summary.format_map(dict(self)) + (DIRECT_NOTE if self.direct else "")

    @field_validator("at", mode="before")
    @classmethod
    def _end_or_offset(cls, value: object) -> object:
        if value == "end" or (type(value) is int and value >= 0):
            return value
        raise ValueError("'at' is 'end' or an offset (a whole number, 0 or more)")


class SelectStep(StepBody):
    """Select a range in an Inbox frame's editor (UTF-16 offsets)."""

    verb: ClassVar[str] = "select"
    summary: ClassVar[str] = "select {anchor}..{head} in {frame}"
    frame: FrameId
    anchor: NonNegative
    head: NonNegative
    direct: bool = False
    """Set the editor's selection instead of clicking (no focus change)."""

    def describe(self) -> str:
        return self.summary.format_map(dict(self)) + (DIRECT_NOTE if self.direct else "")


class ViewStep(StepBody):
    """Switch an Inbox frame's view."""

    verb: ClassVar[str] = "view"
    summary: ClassVar[str] = "show {frame} as {view}"
    frame: FrameId
    view: KnownView


class OpenStep(StepBody):
    """Make an Inbox frame show another note."""

    verb: ClassVar[str] = "open"
    frame: FrameId
    path: WorkspacePath
    wait: bool = True
    """False: go on at once, while the note is still loading."""

    def describe(self) -> str:
        described = f"open {shown(self.path)} in {self.frame}"
        return described + ("" if self.wait else ", without waiting for it to load")


class PopoutStep(StepBody):
    """Move an Inbox frame into its own process (R29)."""

    verb: ClassVar[str] = "popout"
    scalar: ClassVar[str | None] = "frame"
    summary: ClassVar[str] = "pop out {frame}"
    frame: FrameId


class UnmountStep(StepBody):
    """Close a frame."""

    verb: ClassVar[str] = "unmount"
    scalar: ClassVar[str | None] = "frame"
    summary: ClassVar[str] = "unmount {frame}"
    frame: FrameId


class CommandStep(StepBody):
    """A menu command or its keys, by its declared id (``app/commands/actions.py``, R84)."""

    verb: ClassVar[str] = "command"
    scalar: ClassVar[str | None] = "action"
    summary: ClassVar[str] = "command {action}"
    action: str = Field(min_length=1)


class SwitchWorkspaceStep(StepBody):
    """Cross the workspace boundary into another workspace (R7)."""

    verb: ClassVar[str] = "switch-workspace"
    scalar: ClassVar[str | None] = "workspace"
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


class NewNoteStep(StepBody):
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
        return f"new note {shown(self.path)}{where}"


class QuickOpenStep(StepBody):
    """Quick open (Ctrl+P): type ``query`` in the filter, Enter opens the best match (R47)."""

    verb: ClassVar[str] = "quick-open"
    query: str = Field(min_length=1, max_length=4096)
    frame: FrameId | None = None

    def describe(self) -> str:
        where = f" into {self.frame}" if self.frame else ""
        return f"quick open {self.query!r}{where}"


class RestartStep(StepBody):
    """Quit the app and start it again on the same data folder (R45)."""

    verb: ClassVar[str] = "restart"

    def describe(self) -> str:
        return "quit and start the app again (same data folder)"


class CaptionStep(StepBody):
    """A sentence for the reader of a report; does nothing to the app."""

    verb: ClassVar[str] = "caption"
    scalar: ClassVar[str | None] = "text"
    summary: ClassVar[str] = "{text}"
    text: str = Field(min_length=1)


class SendBody(Strict):
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

    def body(self) -> object:
        written: dict[str, object] = {"message": self.message}
        if not self.include_ambient:
            written["includeAmbient"] = False
        if self.during_flush:
            written["duringFlush"] = [step_data(step) for step in self.during_flush]
        return written


@dataclass(frozen=True)
class InlineStep:
    """Ask the inline command in a frame; ``during`` runs while the request is in flight."""

    verb: ClassVar[str] = "inline"
    frame: str
    select: str | tuple[int, int] | None
    instruction: str
    during: tuple[Step, ...] = ()

    def describe(self) -> str:
        if isinstance(self.select, str):
            where = f"on {self.select!r}"
        elif self.select is not None:
            where = f"on {self.select[0]}..{self.select[1]}"
        else:
            where = "at the cursor"
        return f"inline {self.instruction!r} in {self.frame} {where}"

    def body(self) -> object:
        select = list(self.select) if isinstance(self.select, tuple) else self.select
        written: dict[str, object] = {
            "frame": self.frame,
            "select": select,
            "instruction": self.instruction,
        }
        if self.during:
            written["during"] = [step_data(step) for step in self.during]
        return written


class ShareStep(StepBody):
    """Assistant ▸ Share the active note with other tools; on, a tool connects (R58)."""

    verb: ClassVar[str] = "share"
    scalar: ClassVar[str | None] = "state"
    summary: ClassVar[str] = "share {state}"
    state: Literal["on", "off"]

    @property
    def on(self) -> bool:
        return self.state == "on"


BodyT = TypeVar("BodyT", bound=BaseModel)
"""A verb value's pydantic model."""


def parse_send(parser: StepParser, body: object, step: str, where: str) -> SendStep | None:
    """``send``'s value: a message, or a mapping whose ``duringFlush`` holds further steps."""
    if isinstance(body, str):
        body = {"message": body}
    shape = f"'{SendStep.verb}' takes a message or a mapping with 'message'"
    parsed = parse_body(parser, body, step, where, SendBody, shape)
    if parsed is None:
        return None
    during = parse_nested(parser, parsed.duringFlush, step, f"{where}.duringFlush")
    return SendStep(parsed.message, during, parsed.includeAmbient)


def parse_body(
    parser: StepParser, body: object, step: str, where: str, model: type[BodyT], shape: str
) -> BodyT | None:
    """A verb's mapping value read into ``model``; each problem reported where it is."""
    if not isinstance(body, Mapping):
        parser.problem(step, where, shape)
        return None
    try:
        return model.model_validate(dict(body))
    except ValidationError as error:
        for field_name, message in describe_pydantic(error, where, model):
            parser.problem(step, field_name, message)
        return None


def parse_nested(
    parser: StepParser, raws: Sequence[object], step: str, where: str
) -> tuple[Step, ...]:
    """The steps a verb's value holds (``duringFlush``, ``during``), each parsed in place."""
    during: list[Step] = []
    for index, raw in enumerate(raws, start=1):
        inner = parser.parse(raw, f"{step}.{index}", f"{where}[{index}]", True)
        if inner is not None:
            during.append(inner)
    return tuple(during)


def parse_restart(parser: StepParser, body: object, step: str, where: str) -> RestartStep | None:
    """``restart`` takes no value (``{}``; a bare ``restart:`` or ``true`` as well)."""
    if body not in (None, {}, True):
        verb = RestartStep.verb
        parser.problem(step, where, f"'{verb}' takes no value: write '- {verb}: {{}}'")
        return None
    return RestartStep()
