"""The field types and strict base models every scenario step is made of.

Nothing here touches Qt or the app.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from bridge.frames import ASSISTANT_FRAME_ID
from bridge.paths import WorkspacePathError, check_workspace_path

ASSISTANT_FRAME = ASSISTANT_FRAME_ID

FrameId = Annotated[str, Field(min_length=1, max_length=256)]
NonNegative = Annotated[int, Field(ge=0)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class StepBody(Strict):
    """A step whose value is a mapping of its fields, or (``scalar``) one plain text."""

    verb: ClassVar[str]
    # The step's line in reports, filled from its fields (``{frame}``); or override describe().
    summary: ClassVar[str]
    scalar: ClassVar[str | None] = None
    """The one field a plain-text value fills (``activate: inbox-1``); None: a mapping."""

    def describe(self) -> str:
        """One line for reports and screenshots' captions."""
        return self.summary.format_map(dict(self))

    def body(self) -> object:
        """The value under the verb as a file holds it: the keys given, or the one text."""
        if self.scalar is not None:
            return getattr(self, self.scalar)
        return self.model_dump(exclude_unset=True)


class Subset(Strict):
    """Expected values: only the keys the scenario gives are compared."""

    def expected(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


_SHOWN_PATH_CHARS = 72


def shown(path: str | None) -> str:
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
